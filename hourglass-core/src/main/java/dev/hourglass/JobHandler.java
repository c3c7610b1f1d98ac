package dev.hourglass;

/**
 * The work a {@link Worker} does per job. Returning normally acks the delivery, unless the handler
 * asked for a retry ({@link Job#retryAfter}) or for dead letters ({@link Job#dead}). Throwing nacks
 * it with the exception as the job's last error: the job is retried by its backoff, or goes dead
 * when its attempts are spent; {@link KillJobException} sends it to dead at once.
 *
 * @param <T> the payload type of the queue handle
 */
@FunctionalInterface
public interface JobHandler<T> {
  /**
   * Does the job's work. Called on one of the worker's handler threads, once per delivery.
   *
   * @param job the decoded payload, the delivery, and {@link Job#retryAfter}/{@link Job#dead}
   * @throws Exception any failure: the delivery is nacked with it as the job's last error (retried
   *     by the job's backoff, or dead when its attempts are spent; {@link KillJobException}: dead
   *     at once)
   */
  void handle(Job<T> job) throws Exception;
}
