package dev.hourglass.internal.store;

import dev.hourglass.Backoff;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The binary job record stored in a pool hash, shared with includes/record.lua: a fixed
 * little-endian header {@code <Bi6i6i6HHI4} (format, due, created, expireAt, attempts, maxAttempts,
 * visibilityMs), the backoff (length byte + bytes), the last error (2-byte length + UTF-8), then
 * the payload to the end. The client sends a new job as {@link #enqueueArg}: everything from
 * attempts on, and enqueue.lua prepends the four fields that need the server's clock.
 */
public final class RecordCodec {
  static final int HEADER_BYTES = 1 + 6 + 6 + 6 + 2 + 2 + 4;
  private static final byte FIXED = 1;
  private static final byte EXPONENTIAL = 2;
  private static final byte SCHEDULE = 3;

  private RecordCodec() {}

  /** A decoded record; {@code backoff} is null when the job uses its queue's default. */
  public record Decoded(
      long due,
      long created,
      long expireAt,
      int attempts,
      int maxAttempts,
      long visibilityMs,
      Backoff backoff,
      String lastError,
      byte[] payload) {}

  /**
   * The record after its header, for a new job: its own backoff (null for the queue's default), an
   * empty last error, the payload.
   */
  static byte[] tail(Backoff backoff, byte[] payload) {
    byte[] b = backoff == null ? new byte[0] : encodeBackoff(backoff);
    ByteBuffer buf =
        ByteBuffer.allocate(1 + b.length + 2 + payload.length).order(ByteOrder.LITTLE_ENDIAN);
    buf.put((byte) b.length).put(b).putShort((short) 0).put(payload);
    return buf.array();
  }

  /** Bytes of the fixed part of {@link #enqueueArg}: mode, time, slot start, ttl. */
  static final int ENQUEUE_ARG_FIXED_BYTES = 1 + 6 + 6 + 6;

  /**
   * The one script argument enqueue.lua takes per job, {@code <Bi6i6i6} mode (1: time is a delay
   * from the server's now, 0: absolute epoch ms), time, slot start, ttl ms (0 none); then the
   * record from its attempts field on: attempts (0), maxAttempts, visibilityMs, and the {@link
   * #tail}. The script prepends format, due, created and expireAt, which need the server's clock,
   * and stores the rest as sent.
   */
  static byte[] enqueueArg(
      boolean relative,
      long time,
      long slotStart,
      long ttlMs,
      int maxAttempts,
      long visMs,
      byte[] tail) {
    ByteBuffer buf =
        ByteBuffer.allocate(ENQUEUE_ARG_FIXED_BYTES + 2 + 2 + 4 + tail.length)
            .order(ByteOrder.LITTLE_ENDIAN);
    buf.put((byte) (relative ? 1 : 0));
    putInt48(buf, time);
    putInt48(buf, slotStart);
    putInt48(buf, ttlMs);
    buf.putShort((short) 0).putShort((short) maxAttempts).putInt((int) visMs).put(tail);
    return buf.array();
  }

  /**
   * The record enqueue.lua stores for a new job with the queue's default backoff and no expiry (for
   * tools that write records as Hourglass would, such as the benchmark's raw-Redis baseline).
   */
  public static byte[] newRecord(
      long dueMs, long createdMs, int maxAttempts, long visibilityMs, byte[] payload) {
    byte[] tail = tail(null, payload);
    ByteBuffer buf = ByteBuffer.allocate(HEADER_BYTES + tail.length).order(ByteOrder.LITTLE_ENDIAN);
    buf.put((byte) 1);
    putInt48(buf, dueMs);
    putInt48(buf, createdMs);
    putInt48(buf, 0);
    buf.putShort((short) 0).putShort((short) maxAttempts).putInt((int) visibilityMs).put(tail);
    return buf.array();
  }

  private static void putInt48(ByteBuffer buf, long v) {
    buf.putInt((int) v).putShort((short) (v >> 32));
  }

  static Decoded decode(byte[] rec) {
    ByteBuffer buf = ByteBuffer.wrap(rec).order(ByteOrder.LITTLE_ENDIAN);
    buf.get(); // format 1
    long due = int48(buf);
    long created = int48(buf);
    long expireAt = int48(buf);
    int attempts = Short.toUnsignedInt(buf.getShort());
    int maxAttempts = Short.toUnsignedInt(buf.getShort());
    long vis = Integer.toUnsignedLong(buf.getInt());
    byte[] b = new byte[Byte.toUnsignedInt(buf.get())];
    buf.get(b);
    byte[] err = new byte[Short.toUnsignedInt(buf.getShort())];
    buf.get(err);
    byte[] payload = new byte[buf.remaining()];
    buf.get(payload);
    return new Decoded(
        due,
        created,
        expireAt,
        attempts,
        maxAttempts,
        vis,
        b.length == 0 ? null : decodeBackoff(b),
        new String(err, StandardCharsets.UTF_8),
        payload);
  }

  /** A little-endian signed 6-byte integer, as Lua's struct 'i6' writes it. */
  private static long int48(ByteBuffer buf) {
    long low = Integer.toUnsignedLong(buf.getInt());
    long high = buf.getShort(); // sign-extends
    return (high << 32) | low;
  }

  static byte[] encodeBackoff(Backoff backoff) {
    ByteBuffer buf;
    if (backoff instanceof Backoff.Fixed f) {
      buf = ByteBuffer.allocate(5).order(ByteOrder.LITTLE_ENDIAN);
      buf.put(FIXED).putInt((int) f.delay().toMillis());
    } else if (backoff instanceof Backoff.Exponential e) {
      buf = ByteBuffer.allocate(10).order(ByteOrder.LITTLE_ENDIAN);
      buf.put(EXPONENTIAL)
          .putInt((int) e.base().toMillis())
          .putInt((int) e.max().toMillis())
          .put((byte) Math.round(e.jitter() * 100));
    } else {
      List<Duration> delays = ((Backoff.Schedule) backoff).delays();
      buf = ByteBuffer.allocate(1 + 4 * delays.size()).order(ByteOrder.LITTLE_ENDIAN);
      buf.put(SCHEDULE);
      for (Duration d : delays) {
        buf.putInt((int) d.toMillis());
      }
    }
    return buf.array();
  }

  static Backoff decodeBackoff(byte[] b) {
    ByteBuffer buf = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    byte type = buf.get();
    switch (type) {
      case FIXED:
        return Backoff.fixed(ms(buf.getInt()));
      case EXPONENTIAL:
        return Backoff.exponential(ms(buf.getInt()), ms(buf.getInt()), buf.get() / 100.0);
      case SCHEDULE:
        List<Duration> delays = new ArrayList<>();
        while (buf.hasRemaining()) {
          delays.add(ms(buf.getInt()));
        }
        return Backoff.schedule(delays);
      default:
        throw new IllegalStateException("unknown backoff type " + type + " in a job record");
    }
  }

  private static Duration ms(int unsigned) {
    return Duration.ofMillis(Integer.toUnsignedLong(unsigned));
  }
}
