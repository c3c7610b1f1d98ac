package dev.hourglass.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a bean method that handles the jobs of a queue. The method takes the payload, decoded into
 * the parameter's type (generic types such as {@code List<Order>} included), and may take a {@link
 * dev.hourglass.Job Job&lt;?&gt;} as well for the delivery's metadata (id, attempt, due time) and
 * to settle it itself ({@code retryAfter}, {@code dead}); a method may also take the {@code Job}
 * alone, typed by its payload ({@code Job<Order>}). Returning normally acks the job; throwing
 * retries it by the job's backoff, and after its last attempt it goes to the dead letters ({@link
 * dev.hourglass.KillJobException} sends it there at once). A payload that cannot be decoded into
 * the parameter's type goes to the dead letters with the decoder's message.
 *
 * <p>Listeners start consuming once the application context has started and stop gracefully when it
 * closes: running handlers finish (within the shutdown timeout), jobs not started are handed back,
 * and nothing is acked unprocessed.
 *
 * <pre>{@code
 * @HourglassListener(queue = "orders", concurrency = "${orders.threads:8}")
 * void close(OrderPlaced order, Job<?> job) { ... }
 * }</pre>
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface HourglassListener {

  /**
   * The queue to consume; {@code ${...}} placeholders are resolved from the environment.
   *
   * @return the queue name, or a placeholder resolving to one
   */
  String queue();

  /**
   * Handler threads, a number or a {@code ${...}} placeholder; empty means {@code
   * hourglass.worker.concurrency} (4 unless set).
   *
   * @return the thread count, a placeholder, or empty
   */
  String concurrency() default "";
}
