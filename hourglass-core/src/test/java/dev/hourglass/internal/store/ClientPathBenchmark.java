package dev.hourglass.internal.store;

import dev.hourglass.Backoff;
import dev.hourglass.JobSpec;
import dev.hourglass.internal.RandomIds;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH micro-benchmarks of the client-side work Hourglass does per job before and after Redis: the
 * spec, the id, the pool choice, the record encoding and decoding, the script arguments. Lives in
 * core's tests, in the package of the codec and the argument builder it reaches; it mirrors {@code
 * Enqueues.prepare} and {@code EnqueueCalls}, so keep it in step with them.
 *
 * <p>Run: {@code hourglass-bench/run jmh ClientPathBenchmark} (any JMH options after {@code jmh}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ClientPathBenchmark {
  private static final int POOLS = 40;
  private static final long SLOT_MS = 60_000;
  private static final ServerClock CLOCK = new ServerClock();

  @Param({"120"})
  public int payloadBytes;

  private byte[] payload;
  private Backoff backoff;
  private RandomIds ids;
  private String id;
  private byte[] record;
  private Partition partition;
  private long due;

  @Setup
  public void setUp() {
    payload = new byte[payloadBytes];
    new Random(1).nextBytes(payload);
    backoff = Backoff.exponential(Duration.ofSeconds(1), Duration.ofHours(1), 0.2);
    ids = new RandomIds(Clock.systemUTC());
    id = ids.newId();
    record = newRecord(backoff, payload);
    partition = new Keys("hg").partition("bench", 0, 1, POOLS);
    due = System.currentTimeMillis() + 3_600_000;
  }

  /** The public path a producer takes: a JobSpec with payload and due time. */
  @Benchmark
  public JobSpec jobSpecBuild() {
    return JobSpec.builder().payload(payload).runAt(Instant.ofEpochMilli(due)).build();
  }

  /**
   * A new job id (a time prefix and a per-thread SplittableRandom), made for every job without an
   * id.
   */
  @Benchmark
  public String newId() {
    return ids.newId();
  }

  /** The pool a job id lives in: a mix of its hash code, per enqueue, get, cancel, ack. */
  @Benchmark
  public int poolIndex() {
    return Keys.poolIndex(id, POOLS);
  }

  /** The record the client writes whole for every new job: times, counts, backoff, payload. */
  @Benchmark
  public byte[] newRecord() {
    return newRecord(backoff, payload);
  }

  private static byte[] newRecord(Backoff backoff, byte[] payload) {
    long now = System.currentTimeMillis();
    return RecordCodec.write(
        now + 60_000, now, 0, 0, 5, 30_000, RecordCodec.backoffBytes(backoff), payload);
  }

  /** Decoding a record, once per delivered job. */
  @Benchmark
  public RecordCodec.Decoded recordDecode() {
    return RecordCodec.decode(record);
  }

  /** KEYS and ARGV of a claim: the fixed keys plus every pool of the partition. */
  @Benchmark
  public byte[][][] claimArgs() {
    Args keys = partition.keysWithAllPools();
    Args argv = partition.argv().add(100).add(30_000).add(ids.token()).add(0);
    return new byte[][][] {keys.toArray(), argv.toArray()};
  }
}
