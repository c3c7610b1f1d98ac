package dev.hourglass.internal;

import dev.hourglass.DeadLetters;
import dev.hourglass.Delivery;
import dev.hourglass.EnqueueResult;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.JobHandler;
import dev.hourglass.JobInfo;
import dev.hourglass.JobPage;
import dev.hourglass.JobSpec;
import dev.hourglass.JobState;
import dev.hourglass.Nack;
import dev.hourglass.NackResult;
import dev.hourglass.Queue;
import dev.hourglass.QueueSettings;
import dev.hourglass.QueueStats;
import dev.hourglass.Schedules;
import dev.hourglass.Worker;
import dev.hourglass.internal.store.Failures;
import dev.hourglass.spi.PayloadCodec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link Queue} handle: the queue's {@link RedisQueue} engine seen through a payload codec. Every
 * blocking call waits for its async twin and throws what would fail the future.
 */
final class QueueHandle<T> implements Queue<T> {
  private final RedisQueue queue;
  private final PayloadCodec<T> codec;
  private final HandleDeadLetters<T> dead;
  private final ScheduleHandle<T> schedules;

  QueueHandle(RedisQueue queue, PayloadCodec<T> codec) {
    this.queue = queue;
    this.codec = codec;
    this.dead = new HandleDeadLetters<>(queue.dead(), codec);
    this.schedules = new ScheduleHandle<>(queue.schedules(), this);
  }

  @Override
  public Schedules<T> schedules() {
    return schedules;
  }

  RedisQueue engine() {
    return queue;
  }

  @Override
  public String name() {
    return queue.name();
  }

  @Override
  public PayloadCodec<T> codec() {
    return codec;
  }

  @Override
  public JobSpec.Builder spec(T payload) {
    if (payload == null) {
      throw new InvalidArgumentException("payload", "is required");
    }
    byte[] bytes;
    try {
      bytes = codec.encode(payload);
    } catch (Exception e) {
      throw new InvalidArgumentException(
          "payload", "cannot be encoded by codec " + codec + ": " + LastErrors.describe(e));
    }
    return JobSpec.builder().payload(bytes);
  }

  // ---- produce ----

  @Override
  public EnqueueResult enqueue(JobSpec spec) {
    return Failures.await(enqueueAsync(spec));
  }

  @Override
  public CompletableFuture<EnqueueResult> enqueueAsync(JobSpec spec) {
    return queue.enqueue(spec);
  }

  @Override
  public EnqueueResult enqueueIfAbsent(JobSpec spec) {
    return Failures.await(enqueueIfAbsentAsync(spec));
  }

  @Override
  public CompletableFuture<EnqueueResult> enqueueIfAbsentAsync(JobSpec spec) {
    return queue.enqueueIfAbsent(spec);
  }

  @Override
  public List<EnqueueResult> enqueueAll(List<JobSpec> specs) {
    return Failures.await(enqueueAllAsync(specs));
  }

  @Override
  public CompletableFuture<List<EnqueueResult>> enqueueAllAsync(List<JobSpec> specs) {
    return queue.enqueueAll(specs);
  }

  // ---- inspect and change ----

  @Override
  public Optional<JobInfo<T>> get(String id) {
    return Failures.await(getAsync(id));
  }

  @Override
  public CompletableFuture<Optional<JobInfo<T>>> getAsync(String id) {
    return queue.get(id).thenApply(job -> job.map(j -> j.as(codec)));
  }

  @Override
  public boolean cancel(String id) {
    return Failures.await(cancelAsync(id));
  }

  @Override
  public CompletableFuture<Boolean> cancelAsync(String id) {
    return queue.cancel(id);
  }

  @Override
  public JobInfo<T> reschedule(String id, Duration delay) {
    return Failures.await(rescheduleAsync(id, delay));
  }

  @Override
  public CompletableFuture<JobInfo<T>> rescheduleAsync(String id, Duration delay) {
    return queue.reschedule(id, delay).thenApply(j -> j.as(codec));
  }

  @Override
  public JobInfo<T> reschedule(String id, Instant runAt) {
    return Failures.await(rescheduleAsync(id, runAt));
  }

  @Override
  public CompletableFuture<JobInfo<T>> rescheduleAsync(String id, Instant runAt) {
    return queue.reschedule(id, runAt).thenApply(j -> j.as(codec));
  }

  @Override
  public QueueStats stats() {
    return Failures.await(statsAsync());
  }

  @Override
  public CompletableFuture<QueueStats> statsAsync() {
    return queue.stats();
  }

  @Override
  public QueueSettings settings() {
    return Failures.await(settingsAsync());
  }

  @Override
  public CompletableFuture<QueueSettings> settingsAsync() {
    return queue.settings();
  }

  @Override
  public JobPage<T> jobs(JobState state, int limit, String cursor) {
    return Failures.await(jobsAsync(state, limit, cursor));
  }

  @Override
  public CompletableFuture<JobPage<T>> jobsAsync(JobState state, int limit, String cursor) {
    return queue.jobs(state, limit, cursor).thenApply(page -> page.as(codec));
  }

  @Override
  public List<Long> dueWithin(List<Duration> horizons) {
    return Failures.await(dueWithinAsync(horizons));
  }

  @Override
  public CompletableFuture<List<Long>> dueWithinAsync(List<Duration> horizons) {
    return queue.dueWithin(horizons);
  }

  @Override
  public void pause() {
    Failures.await(pauseAsync());
  }

  @Override
  public CompletableFuture<Void> pauseAsync() {
    return queue.pause(true);
  }

  @Override
  public void resume() {
    Failures.await(resumeAsync());
  }

  @Override
  public CompletableFuture<Void> resumeAsync() {
    return queue.pause(false);
  }

  @Override
  public void delete() {
    Failures.await(deleteAsync());
  }

  @Override
  public CompletableFuture<Void> deleteAsync() {
    return queue.delete(false).thenApply(n -> null);
  }

  @Override
  public long deleteWithJobs() {
    return Failures.await(deleteWithJobsAsync());
  }

  @Override
  public CompletableFuture<Long> deleteWithJobsAsync() {
    return queue.delete(true);
  }

  @Override
  public DeadLetters<T> dead() {
    return dead;
  }

  // ---- consume ----

  @Override
  public Worker worker(JobHandler<T> handler, dev.hourglass.WorkerOptions options) {
    return queue.worker(codec, handler, options);
  }

  @Override
  public List<Delivery<T>> claim(int max, Duration visibility) {
    return Failures.await(claimAsync(max, visibility));
  }

  @Override
  public CompletableFuture<List<Delivery<T>>> claimAsync(int max, Duration visibility) {
    return claimAsync(max, visibility, Duration.ZERO);
  }

  @Override
  public List<Delivery<T>> claim(int max, Duration visibility, Duration wait) {
    return Failures.await(claimAsync(max, visibility, wait));
  }

  @Override
  public CompletableFuture<List<Delivery<T>>> claimAsync(
      int max, Duration visibility, Duration wait) {
    CompletableFuture<List<Delivery<byte[]>>> claimed = queue.claim(max, visibility, wait);
    CompletableFuture<List<Delivery<T>>> typed = new CompletableFuture<>();
    claimed.whenComplete(
        (got, error) -> {
          if (error != null) {
            typed.completeExceptionally(error);
          } else if (!typed.complete(got.stream().map(d -> d.as(codec)).toList())) {
            // The caller completed or cancelled its future first: nobody gets these jobs.
            queue.handBack(got);
          }
        });
    if (!wait.isZero()) {
      // Completing or cancelling the caller's future ends a long poll's wait; a claim without wait
      // is left to finish, and what it leased goes back above.
      typed.whenComplete((ok, error) -> claimed.cancel(false));
    }
    return typed;
  }

  @Override
  public void ack(String id, String receipt) {
    Failures.await(ackAsync(id, receipt));
  }

  @Override
  public CompletableFuture<Void> ackAsync(String id, String receipt) {
    return queue.ack(id, receipt);
  }

  @Override
  public NackResult nack(Delivery<T> delivery, Nack nack) {
    return Failures.await(nackAsync(delivery, nack));
  }

  @Override
  public CompletableFuture<NackResult> nackAsync(Delivery<T> delivery, Nack nack) {
    return queue.nack(delivery, nack);
  }

  @Override
  public NackResult nack(String id, String receipt, Nack nack) {
    return Failures.await(nackAsync(id, receipt, nack));
  }

  @Override
  public CompletableFuture<NackResult> nackAsync(String id, String receipt, Nack nack) {
    return queue.nack(id, receipt, nack);
  }

  @Override
  public void release(String id, String receipt) {
    Failures.await(releaseAsync(id, receipt));
  }

  @Override
  public CompletableFuture<Void> releaseAsync(String id, String receipt) {
    return queue.release(id, receipt);
  }

  @Override
  public Instant extend(String id, String receipt, Duration visibility) {
    return Failures.await(extendAsync(id, receipt, visibility));
  }

  @Override
  public CompletableFuture<Instant> extendAsync(String id, String receipt, Duration visibility) {
    return queue.extend(id, receipt, visibility);
  }
}
