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

  /**
   * The job's id; a second live job with the same id is refused (see {@link #enqueue()}).
   *
   * @param id 1 to 128 of {@code A-Z a-z 0-9 . _ : -}, checked on enqueue
   * @return this request
   */
  public JobRequest id(String id) {
    spec.id(id);
    return this;
  }

  /**
   * Runs the job after this delay (the default: at once).
   *
   * @param delay from the Redis server's now, zero or positive, checked on enqueue
   * @return this request
   */
  public JobRequest delay(Duration delay) {
    spec.delay(delay);
    return this;
  }

  /**
   * Runs the job at this time, by the Redis server's clock.
   *
   * @param runAt the due time; the past means now
   * @return this request
   */
  public JobRequest runAt(Instant runAt) {
    spec.runAt(runAt);
    return this;
  }

  /**
   * Attempts before the job goes to the dead letters.
   *
   * @param maxAttempts 1 to 1000, checked on enqueue
   * @return this request
   */
  public JobRequest maxAttempts(int maxAttempts) {
    spec.maxAttempts(maxAttempts);
    return this;
  }

  /**
   * The job's priority: among due jobs, higher ones are delivered first (strictly).
   *
   * @param priority 0 to 9, checked on enqueue; unset, the queue's default
   * @return this request
   */
  public JobRequest priority(int priority) {
    spec.priority(priority);
    return this;
  }

  /**
   * Waits between attempts, e.g. {@code Backoff.parseSchedule("15s 3m 10m")}.
   *
   * @param backoff the job's backoff, instead of the queue's
   * @return this request
   */
  public JobRequest backoff(Backoff backoff) {
    spec.backoff(backoff);
    return this;
  }

  /**
   * Lease of each delivery: not acked within it, the job is delivered again.
   *
   * @param visibility 1 ms to about 49 days, checked on enqueue
   * @return this request
   */
  public JobRequest visibility(Duration visibility) {
    spec.visibility(visibility);
    return this;
  }

  /**
   * The job is dropped if it is not acked within this time of its creation, whatever its state.
   *
   * @param ttl 1 ms to about 49 days, checked on enqueue
   * @return this request
   */
  public JobRequest ttl(Duration ttl) {
    spec.ttl(ttl);
    return this;
  }

  /**
   * Enqueues the job.
   *
   * @return the job's id, state and due time
   * @throws dev.hourglass.DuplicateJobException when a live job already has this id
   * @throws dev.hourglass.InvalidArgumentException naming an option that is out of range
   * @throws dev.hourglass.RedisUnavailableException when Redis cannot be reached
   */
  public EnqueueResult enqueue() {
    return queue.enqueue(spec.build());
  }

  /**
   * Enqueues the job unless a live job has its id; the result tells which happened.
   *
   * @return the new job, or the live one's state and due time with {@code created()} false
   * @throws dev.hourglass.InvalidArgumentException naming an option that is out of range
   * @throws dev.hourglass.RedisUnavailableException when Redis cannot be reached
   */
  public EnqueueResult enqueueIfAbsent() {
    return queue.enqueueIfAbsent(spec.build());
  }
}
