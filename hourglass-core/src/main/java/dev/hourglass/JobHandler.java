package dev.hourglass;

/**
 * The work a {@link Worker} does per job. Returning normally acks the delivery; throwing nacks it
 * with the exception's message as the job's last error, and the job is retried by its backoff or
 * goes dead when its attempts are spent. Throw {@link KillJobException} to send it to dead at once.
 */
@FunctionalInterface
public interface JobHandler {
  void handle(Delivery job) throws Exception;
}
