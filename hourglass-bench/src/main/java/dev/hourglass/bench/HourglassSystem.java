package dev.hourglass.bench;

import dev.hourglass.Hourglass;
import dev.hourglass.HourglassBuilder;
import dev.hourglass.JobSpec;
import dev.hourglass.Queue;
import dev.hourglass.Worker;
import dev.hourglass.WorkerOptions;
import dev.hourglass.bench.Payloads.Job;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Hourglass with default settings: one client (with its background promoter), one queue; {@code
 * --compress-above} alone changes the client's compression threshold.
 */
final class HourglassSystem implements SystemUnderTest {
  private final Hourglass client;
  private final Queue queue;
  private final Integer prefetch; // null: the library's default
  private final ScriptCalls scriptCalls = new ScriptCalls();

  HourglassSystem(
      String redisUri,
      String queueName,
      Integer prefetch,
      Integer compressAbove,
      Integer partitions) {
    HourglassBuilder builder = Hourglass.builder().redisUri(redisUri).scriptListener(scriptCalls);
    if (compressAbove != null) {
      builder.compressAbove(compressAbove);
    }
    this.client = builder.build();
    if (partitions != null) {
      client.configureQueue(
          queueName, dev.hourglass.QueueSettings.builder().partitions(partitions).build());
    }
    this.queue = client.queue(queueName);
    this.prefetch = prefetch;
  }

  @Override
  public String name() {
    return "hourglass";
  }

  @Override
  public Map<String, Long> scriptCalls() {
    return scriptCalls.snapshot();
  }

  private static JobSpec spec(Job job) {
    return JobSpec.builder()
        .payload(job.payload())
        .runAt(Instant.ofEpochMilli(job.dueMs()))
        .build();
  }

  @Override
  public CompletableFuture<?> enqueueAsync(Job job) {
    return queue.enqueueAsync(spec(job));
  }

  @Override
  public CompletableFuture<?> enqueueBatchAsync(List<Job> jobs) {
    List<JobSpec> specs = new ArrayList<>(jobs.size());
    for (Job job : jobs) {
      specs.add(spec(job));
    }
    return queue.enqueueAllAsync(specs);
  }

  @Override
  public String batchMethod() {
    return "Queue.enqueueAllAsync";
  }

  /**
   * One worker with {@code consumers} handler threads, the library's default options otherwise (or
   * the given prefetch), and a no-op handler that records.
   */
  @Override
  public AutoCloseable consume(int consumers, Consumer<byte[]> sink) {
    WorkerOptions.Builder options = WorkerOptions.builder().concurrency(consumers);
    if (prefetch != null) {
      options.prefetch(prefetch);
    }
    Worker worker = client.worker(queue.name(), job -> sink.accept(job.payload()), options.build());
    return worker::close;
  }

  @Override
  public Fields consumerFields() {
    // The library's default adapts to the handlers' speed, up to its maximum.
    return prefetch == null
        ? new Fields().put("prefetch", "adaptive_up_to_" + WorkerOptions.defaults().prefetch())
        : new Fields().put("prefetch", (long) prefetch);
  }

  /** Queues this producing client creates and fills; it runs no promoter for them. */
  @Override
  public AutoCloseable idleQueues(int count, Job job) {
    for (int i = 0; i < count; i++) {
      client.queue(IDLE_QUEUE_PREFIX + i).enqueue(spec(job));
    }
    return () -> {};
  }

  /** {@code count} workers with default options, as {@code count} separate consumers would be. */
  @Override
  public AutoCloseable idleConsumers(int count) {
    List<Worker> workers = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      workers.add(client.worker(queue.name(), job -> {}));
    }
    return () -> workers.forEach(Worker::close);
  }

  @Override
  public String idleConsumerKind() {
    return "Worker_with_default_options";
  }

  @Override
  public void close() {
    client.close();
  }
}
