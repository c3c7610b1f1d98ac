package dev.hourglass.bench;

import dev.hourglass.Hourglass;
import dev.hourglass.JobSpec;
import dev.hourglass.Queue;
import dev.hourglass.Worker;
import dev.hourglass.WorkerOptions;
import dev.hourglass.bench.Payloads.Job;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/** Hourglass with default settings: one client (with its background promoter), one queue. */
final class HourglassSystem implements SystemUnderTest {
  private final Hourglass client;
  private final Queue queue;
  private final int prefetch;

  HourglassSystem(String redisUri, String queueName, int prefetch) {
    this.client = Hourglass.builder().redisUri(redisUri).build();
    this.queue = client.queue(queueName);
    this.prefetch = prefetch;
  }

  @Override
  public String name() {
    return "hourglass";
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
   * One worker with {@code consumers} handler threads, the given prefetch and a no-op handler that
   * records.
   */
  @Override
  public AutoCloseable consume(int consumers, Consumer<byte[]> sink) {
    Worker worker =
        client.worker(
            queue.name(),
            job -> sink.accept(job.payload()),
            WorkerOptions.builder().concurrency(consumers).prefetch(prefetch).build());
    return worker::close;
  }

  @Override
  public Fields consumerFields() {
    return new Fields().put("prefetch", prefetch);
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
