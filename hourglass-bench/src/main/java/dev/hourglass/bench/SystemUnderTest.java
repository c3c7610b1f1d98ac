package dev.hourglass.bench;

import dev.hourglass.bench.Payloads.Job;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * One delay queue under test, bound to one queue name on one Redis. The workloads drive every
 * system only through this interface, so both sides run the same code except what the APIs force.
 */
interface SystemUnderTest extends AutoCloseable {

  /**
   * Opens {@code system} (one of {@link Options#SYSTEMS}) on {@code redisUri}, queue {@code queue};
   * {@code options} carries the system-specific settings (Hourglass's worker prefetch).
   */
  static SystemUnderTest open(String system, String redisUri, String queue, Options options) {
    return switch (system) {
      case "hourglass" ->
          new HourglassSystem(
              redisUri, queue, options.prefetch(), options.compressAbove(), options.partitions());
      case "redisson" -> new RedissonSystem(redisUri, queue);
      case "hourglass-http" -> new HttpSystem(redisUri, queue);
      case RawRedisSystem.NAME -> new RawRedisSystem(redisUri, queue);
      default -> throw new IllegalArgumentException("unknown system " + system);
    };
  }

  /** The name printed in RESULT lines. */
  String name();

  /** Script calls so far by script name, for systems that report them; empty by default. */
  default Map<String, Long> scriptCalls() {
    return Map.of();
  }

  /** Enqueues one job; the future completes once Redis holds it. */
  CompletableFuture<?> enqueueAsync(Job job);

  /**
   * Enqueues jobs by the system's batch path; the future completes once Redis holds all of them.
   */
  CompletableFuture<?> enqueueBatchAsync(List<Job> jobs);

  /** Like {@link #enqueueBatchAsync}, waiting for it. */
  default void enqueueBatch(List<Job> jobs) {
    enqueueBatchAsync(jobs).join();
  }

  /** How {@link #enqueueBatchAsync} works, as a RESULT value (no spaces). */
  String batchMethod();

  /**
   * Starts {@code consumers} consumers that hand each delivered job's payload to {@code sink} and
   * acknowledge it (for Redisson, taking it off the queue is all there is). Closing the returned
   * handle stops them.
   */
  AutoCloseable consume(int consumers, Consumer<byte[]> sink);

  /**
   * Starts {@code count} consumers the way an application with {@code count} idle consumers has
   * them. By default the same as {@link #consume}.
   */
  default AutoCloseable idleConsumers(int count) {
    return consume(count, payload -> {});
  }

  /** How {@link #consume} consumes, for the RESULT line; empty by default. */
  default Fields consumerFields() {
    return new Fields();
  }

  /** Names of the queues {@link #idleQueues} creates: this prefix and a number. */
  String IDLE_QUEUE_PREFIX = "idle-";

  /**
   * Creates {@code count} more queues, each holding {@code job}, with no consumer, as the system
   * keeps such queues in Redis; closing the handle releases what the system holds for them.
   */
  AutoCloseable idleQueues(int count, Job job);

  /** A note for the RESULT line on what an idle consumer is here (no spaces). */
  String idleConsumerKind();

  @Override
  void close();
}
