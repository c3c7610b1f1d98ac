package dev.hourglass.spring;

import dev.hourglass.Backoff;
import dev.hourglass.EnqueueResult;
import dev.hourglass.JobSpec;
import dev.hourglass.Queue;
import java.time.Duration;
import java.time.Instant;

/**
 * One job being prepared by {@link HourglassTemplate#job}: options left unset take the queue's
 * settings. Not thread-safe; use it once.
 */
public final class JobRequest {
  private final Queue<Object> queue;
  private final JobSpec.Builder spec;

  JobRequest(Queue<Object> queue, Object payload) {
    this.queue = queue;
    this.spec = queue.spec(payload);
  }

  /** The job's id; a second live job with the same id is refused (see {@link #enqueue()}). */
  public JobRequest id(String id) {
    spec.id(id);
    return this;
  }

  /** Runs the job after this delay (the default: at once). */
  public JobRequest delay(Duration delay) {
    spec.delay(delay);
    return this;
  }

  /** Runs the job at this time, by the Redis server's clock. */
  public JobRequest runAt(Instant runAt) {
    spec.runAt(runAt);
    return this;
  }

  /** Attempts before the job goes to the dead letters. */
  public JobRequest maxAttempts(int maxAttempts) {
    spec.maxAttempts(maxAttempts);
    return this;
  }

  /** Waits between attempts, e.g. {@code Backoff.parseSchedule("15s 3m 10m")}. */
  public JobRequest backoff(Backoff backoff) {
    spec.backoff(backoff);
    return this;
  }

  /** Lease of each delivery: not acked within it, the job is delivered again. */
  public JobRequest visibility(Duration visibility) {
    spec.visibility(visibility);
    return this;
  }

  /** Longest the job may wait before it runs; past it, it leaves unrun. */
  public JobRequest ttl(Duration ttl) {
    spec.ttl(ttl);
    return this;
  }

  /**
   * Enqueues the job.
   *
   * @throws dev.hourglass.DuplicateJobException when a live job already has this id
   */
  public EnqueueResult enqueue() {
    return queue.enqueue(spec.build());
  }

  /** Enqueues the job unless a live job has its id; the result tells which happened. */
  public EnqueueResult enqueueIfAbsent() {
    return queue.enqueueIfAbsent(spec.build());
  }
}
