package dev.hourglass.internal.store;

import dev.hourglass.Backoff;
import dev.hourglass.Payload;
import dev.hourglass.spi.PayloadCodec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The binary job record stored in a pool hash, shared with includes/record.lua: a fixed
 * little-endian header {@code <i6i6i6BHHI4} (due, created, expireAt, flags, attempts, maxAttempts,
 * visibilityMs), the backoff (length byte + bytes), the last error (2-byte length + UTF-8), then
 * the payload to the end. The client writes a new job's record whole ({@link #write}), its times
 * from its estimate of the server's clock, which the enqueue scripts check; scripts rewrite a
 * record only to change its due time, attempts or last error.
 */
public final class RecordCodec {
  static final int HEADER_BYTES = 6 + 6 + 6 + 1 + 2 + 2 + 4;
  private static final byte FIXED = 1;
  private static final byte EXPONENTIAL = 2;
  private static final byte SCHEDULE = 3;

  /** The bit of the flags byte that says the payload is compressed. */
  static final int COMPRESSED = 1;

  /** The bit of the flags byte that says the job is an occurrence of a schedule. */
  public static final int OCCURRENCE = 2;

  /** Where a job's priority (0 to 9) sits in the flags byte: bits 4-7 (includes/priority.lua). */
  private static final int PRIORITY_SHIFT = 4;

  private RecordCodec() {}

  /**
   * A decoded record; {@code backoff} is null when the job uses its queue's default, {@code flags}
   * holds {@link #COMPRESSED} as stored. {@code payload} is the job's payload, opened when it was
   * stored compressed ({@link Payloads#decode}); {@code unreadable} is null, or says why it could
   * not be opened (then {@code payload} holds the stored bytes).
   */
  public record Decoded(
      long due,
      long created,
      long expireAt,
      int flags,
      int attempts,
      int maxAttempts,
      long visibilityMs,
      Backoff backoff,
      String lastError,
      byte[] payload,
      String unreadable) {

    /** The job's priority, 0 to 9, from its flags. */
    public int priority() {
      return priorityOf(flags);
    }

    /** The payload as readers get it: opened, or {@link Payload#unreadable}. */
    public Payload<byte[]> toPayload() {
      return unreadable == null
          ? Payload.of(payload, PayloadCodec.bytes())
          : Payload.unreadable(payload, unreadable, PayloadCodec.bytes());
    }

    /** This record with its payload opened, or found unreadable. */
    Decoded withPayload(byte[] opened, String why) {
      return new Decoded(
          due,
          created,
          expireAt,
          flags,
          attempts,
          maxAttempts,
          visibilityMs,
          backoff,
          lastError,
          opened,
          why);
    }
  }

  /**
   * A new job's record: its three times (expireAt 0: none), flags, attempts (0), maxAttempts,
   * visibilityMs, its own backoff ({@link #encodeBackoff}; empty for the queue's default), an empty
   * last error, the payload as stored.
   */
  static byte[] write(
      long dueMs,
      long createdMs,
      long expireAtMs,
      int flags,
      int maxAttempts,
      long visMs,
      byte[] backoff,
      byte[] payload) {
    Blob b = new Blob(HEADER_BYTES + 1 + backoff.length + 2 + payload.length);
    b.i48(dueMs).i48(createdMs).i48(expireAtMs);
    b.u8(flags).u16(0).u16(maxAttempts).u32(visMs);
    b.u8(backoff.length).raw(backoff).u16(0).raw(payload);
    return b.bytesExact();
  }

  /**
   * The record enqueue.lua stores for a new job with the queue's default backoff and no expiry (for
   * tools that write records as Hourglass would).
   */
  public static byte[] newRecord(
      long dueMs, long createdMs, int maxAttempts, long visibilityMs, byte[] payload) {
    return write(dueMs, createdMs, 0, 0, maxAttempts, visibilityMs, new byte[0], payload);
  }

  /** A backoff as records hold it; empty for null, the queue's default. */
  static byte[] backoffBytes(Backoff backoff) {
    return backoff == null ? new byte[0] : encodeBackoff(backoff);
  }

  /** The flags of a new record: those of its payload, and the job's priority (0 to 9). */
  public static int withPriority(int flags, int priority) {
    return flags | priority << PRIORITY_SHIFT;
  }

  /** The priority (0 to 9) a flags byte holds. */
  public static int priorityOf(int flags) {
    return (flags >> PRIORITY_SHIFT) & 0xf;
  }

  /** The flags byte of a record. */
  static int flags(byte[] rec) {
    return rec[18] & 0xff;
  }

  /** Where a record's payload starts. */
  static int payloadOffset(byte[] rec) {
    int backoff = rec[HEADER_BYTES] & 0xff;
    int at = HEADER_BYTES + 1 + backoff;
    return at + 2 + ((rec[at] & 0xff) | (rec[at + 1] & 0xff) << 8);
  }

  /** A record as stored: a compressed payload stays compressed ({@link Payloads#decode}). */
  static Decoded decode(byte[] rec) {
    ByteBuffer buf = ByteBuffer.wrap(rec).order(ByteOrder.LITTLE_ENDIAN);
    long due = int48(buf);
    long created = int48(buf);
    long expireAt = int48(buf);
    int flags = Byte.toUnsignedInt(buf.get());
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
        flags,
        attempts,
        maxAttempts,
        vis,
        b.length == 0 ? null : decodeBackoff(b),
        new String(err, StandardCharsets.UTF_8),
        payload,
        null);
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
