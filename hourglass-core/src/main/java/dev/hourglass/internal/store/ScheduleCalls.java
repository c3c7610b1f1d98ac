package dev.hourglass.internal.store;

import dev.hourglass.Backoff;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The calls on a partition's schedules (K_SCHED, includes/schedule.lua): put, pause, resume, delete
 * and refill, each one script; and the reads of their fields.
 */
public final class ScheduleCalls {
  /** The field of K_SCHED that lists the schedules whose upcoming times run low. */
  private static final String REFILL = "?";

  private final ScriptRunner runner;

  ScheduleCalls(ScriptRunner runner) {
    this.runner = runner;
  }

  /**
   * A schedule as stored: its state's fields (SCHED_STATE of schedule.lua), its definition and
   * timing as the client wrote them.
   */
  public record Stored(
      String id,
      long version,
      boolean paused,
      boolean complete,
      long lastMs,
      long pendingMs,
      List<Long> upcomingMs,
      byte[] definition,
      String timing) {}

  /** An occurrence time with the pool of its occurrence's id (SCHED_TIME of schedule.lua). */
  private static byte[] times(Partition p, String scheduleId, List<Long> times) {
    ByteBuffer b = ByteBuffer.allocate(7 * times.size()).order(ByteOrder.LITTLE_ENDIAN);
    for (long t : times) {
      putInt48(b, t);
      b.put((byte) Keys.poolIndex(scheduleId + ":" + t, p.pools()));
    }
    return b.array();
  }

  private static void putInt48(ByteBuffer b, long v) {
    for (int i = 0; i < 6; i++) {
      b.put((byte) (v >>> (8 * i)));
    }
  }

  private static long int48(ByteBuffer b) {
    long v = 0;
    for (int i = 0; i < 6; i++) {
      v |= (long) Byte.toUnsignedInt(b.get()) << (8 * i);
    }
    return (v << 16) >> 16; // sign-extended
  }

  /** Where a record's flags hold its priority (record.lua: bits 4-7). */
  private static final int PRIORITY_SHIFT = 4;

  /**
   * The record of a schedule's every occurrence, its times left to the scripts: the payload as
   * stored (not compressed), {@code backoff} null for the queue's.
   */
  public static byte[] template(
      int priority, int maxAttempts, long visibilityMs, Backoff backoff, byte[] payload) {
    return RecordCodec.write(
        0,
        0,
        0,
        RecordCodec.OCCURRENCE | (priority << PRIORITY_SHIFT),
        maxAttempts,
        visibilityMs,
        RecordCodec.backoffBytes(backoff),
        payload);
  }

  /** A backoff as records hold it ({@code RecordCodec}). */
  public static byte[] backoffBytes(Backoff backoff) {
    return RecordCodec.encodeBackoff(backoff);
  }

  /** A backoff from the bytes of {@link #backoffBytes}. */
  public static Backoff backoffOf(byte[] bytes) {
    return RecordCodec.decodeBackoff(bytes);
  }

  /** Creates or replaces a schedule; the future holds true when it created it. */
  public CompletableFuture<Boolean> put(
      Partition p,
      String id,
      String timing,
      byte[] definition,
      byte[] template,
      long ttlMs,
      boolean complete,
      List<Long> upcoming) {
    Args argv =
        p.argv()
            .add(id)
            .add(timing)
            .add(definition)
            .add(template)
            .add(ttlMs)
            .add(complete ? "1" : "0")
            .add(times(p, id, upcoming));
    return runner
        .run(Script.SCHED_PUT, p.keysWithAllPools(), argv)
        .thenApply(r -> Reply.num(r.get(1)) == 1);
  }

  /** Pauses, resumes or deletes a schedule: false when there is none. */
  public CompletableFuture<Boolean> change(Partition p, String id, String op) {
    return runner
        .run(Script.SCHED_CHANGE, p.keysWithAllPools(), p.argv().add(id).add(op))
        .thenApply(r -> Reply.status(r) == Status.OK);
  }

  /** Gives a schedule read at {@code version} more times; false when it changed since. */
  public CompletableFuture<Boolean> refill(
      Partition p, String id, long version, boolean complete, List<Long> upcoming) {
    Args argv = p.argv().add(id).add(version).add(complete ? "1" : "0").add(times(p, id, upcoming));
    return runner
        .run(Script.SCHED_REFILL, p.keysWithAllPools(), argv)
        .thenApply(r -> Reply.num(r.get(1)) == 1);
  }

  /** The ids of the partition's schedules whose times run low. */
  public CompletableFuture<List<String>> wanting(Partition p) {
    return runner
        .<byte[]>command(true, c -> c.hget(bytes(p.sched()), bytes(REFILL)))
        .thenApply(
            v -> {
              List<String> ids = new ArrayList<>();
              if (v != null) {
                for (String s : new String(v, StandardCharsets.UTF_8).split(" ")) {
                  if (!s.isEmpty()) {
                    ids.add(s);
                  }
                }
              }
              return ids;
            });
  }

  /** Whether the partition holds a job of this id (any state). */
  public CompletableFuture<Boolean> holds(Partition p, String id) {
    return runner.command(true, c -> c.hexists(bytes(p.pool(id)), bytes(p.member(id))));
  }

  /** One schedule, or null. */
  public CompletableFuture<Stored> read(Partition p, String id) {
    return runner
        .<List<io.lettuce.core.KeyValue<byte[], byte[]>>>command(
            false, c -> c.hmget(bytes(p.sched()), bytes(id), bytes(id + "#d"), bytes(id + "#k")))
        .thenApply(
            kv -> {
              if (!kv.get(0).hasValue() || !kv.get(1).hasValue()) {
                return null;
              }
              return stored(
                  id,
                  kv.get(0).getValue(),
                  kv.get(1).getValue(),
                  kv.get(2).getValueOrElse(new byte[0]));
            });
  }

  /** Every schedule of the partition. */
  public CompletableFuture<List<Stored>> all(Partition p) {
    return runner
        .<Map<byte[], byte[]>>command(false, c -> c.hgetall(bytes(p.sched())))
        .thenApply(
            m -> {
              Map<String, byte[]> fields = new HashMap<>();
              m.forEach((k, v) -> fields.put(new String(k, StandardCharsets.UTF_8), v));
              List<Stored> out = new ArrayList<>();
              fields.forEach(
                  (k, v) -> {
                    if (!k.equals(REFILL) && k.indexOf('#') < 0 && fields.containsKey(k + "#d")) {
                      out.add(
                          stored(
                              k,
                              v,
                              fields.get(k + "#d"),
                              fields.getOrDefault(k + "#k", new byte[0])));
                    }
                  });
              return out;
            });
  }

  private static Stored stored(String id, byte[] state, byte[] definition, byte[] timing) {
    ByteBuffer b = ByteBuffer.wrap(state).order(ByteOrder.LITTLE_ENDIAN);
    long version = int48(b);
    boolean paused = b.get() != 0;
    boolean complete = b.get() != 0;
    int48(b); // ttl
    long last = int48(b);
    long pending = int48(b);
    b.get(); // its pool
    int n = Short.toUnsignedInt(b.getShort());
    List<Long> upcoming = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      upcoming.add(int48(b));
      b.get();
    }
    return new Stored(
        id,
        version,
        paused,
        complete,
        last,
        pending,
        upcoming,
        definition,
        new String(timing, StandardCharsets.UTF_8));
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
