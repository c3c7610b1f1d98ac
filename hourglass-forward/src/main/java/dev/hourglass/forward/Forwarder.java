package dev.hourglass.forward;

import dev.hourglass.InvalidArgumentException;
import dev.hourglass.Queue;

/**
 * Forwards a queue's due jobs to a message broker: each job is published when it falls due and
 * acked in Hourglass only once the broker has confirmed it.
 *
 * <pre>{@code
 * try (Forwarder f = Forwarder.start(hourglass.queue("orders"),
 *     AmqpTarget.builder().uri("amqp://guest:guest@localhost:5672/%2f").exchange("orders")
 *         .routingKey("close").build(),
 *     ForwarderOptions.defaults())) {
 *   ...
 * }
 * }</pre>
 *
 * <p><b>How.</b> One thread per forwarder claims due jobs with a long poll (no busy polling), up to
 * {@link ForwarderOptions#concurrency()} at once (the next batch is claimed while the previous
 * one's confirms are awaited), sorts each claimed batch by due time then id, and publishes in that
 * order through one AMQP channel or one Kafka producer, with at most {@code concurrency} publishes
 * awaiting the broker's confirm: a single forwarder hands jobs to the broker in due order. The
 * message body is the payload's bytes (its JSON text); headers {@code hourglass-job-id}, {@code
 * hourglass-queue}, {@code hourglass-attempt}. AMQP: persistent (delivery mode 2), mandatory,
 * message id = job id, content type {@code application/json}, publisher confirms. Kafka: {@code
 * acks=all}, idempotence on, key = job id unless {@link KafkaTarget#keyById()} is false.
 *
 * <p><b>Failures.</b> A job the broker refused ({@code basic.nack}, a {@code basic.return} such as
 * {@code 312 NO_ROUTE}, a Kafka error) or did not confirm within {@link Target#timeout()} is nacked
 * by its backoff with a one-line reason as its last error, and is dead after its last attempt. A
 * broker that cannot be reached fails the jobs this forwarder held (each spends an attempt); then
 * the forwarder waits (250 ms doubling up to 5 s by default, reset by a confirm) before it claims
 * again, so jobs falling due during an outage stay ready and are published oldest due first once
 * the broker is back. An unreachable broker still sends jobs to dead letters: each retry round
 * spends one attempt of the jobs it claimed.
 *
 * <p><b>Guarantees.</b> At least once: leases last twice the target timeout (a wait for a publish
 * slot, then the publish) plus {@link ForwardLoop#LEASE_MARGIN}, so a job whose publish was in
 * flight when the forwarder died (or whose confirm was lost) comes back and is published again.
 * Consumers dedupe by the job id. A paused queue forwards nothing. Each forwarder has its own
 * thread and connection: a slow broker holds back its own queue only.
 *
 * <p>Thread-safe; {@link #close()} is idempotent.
 */
public final class Forwarder implements AutoCloseable {
  private final String queue;
  private final Target target;
  private final ForwarderOptions options;
  private final ForwardLoop<?> loop;
  private boolean closed;

  private <T> Forwarder(Queue<T> queue, Target target, ForwarderOptions options) {
    this.queue = queue.name();
    this.target = target;
    this.options = options;
    ForwardLoop<T> l = new ForwardLoop<>(queue, target, options);
    this.loop = l;
    l.start();
  }

  /**
   * {@link #start(Queue, Target, ForwarderOptions)} with {@link ForwarderOptions#defaults()}.
   *
   * @param queue the queue whose due jobs are published
   * @param target where they are published
   * @return the running forwarder; close it to stop
   * @throws InvalidArgumentException when an argument is null
   */
  public static Forwarder start(Queue<?> queue, Target target) {
    return start(queue, target, ForwarderOptions.defaults());
  }

  /**
   * Starts forwarding at once, on a thread of its own. Connecting to the broker happens there: a
   * broker that cannot be reached is retried as the class comment says, not thrown here.
   *
   * @param queue the queue whose due jobs are published
   * @param target where they are published
   * @param options concurrency, reconnect backoff, shutdown timeout, publish listener
   * @return the running forwarder; close it to stop
   * @throws InvalidArgumentException when an argument is null
   */
  public static Forwarder start(Queue<?> queue, Target target, ForwarderOptions options) {
    if (queue == null) {
      throw new InvalidArgumentException("queue", "is required");
    }
    if (target == null) {
      throw new InvalidArgumentException("target", "is required");
    }
    if (options == null) {
      throw new InvalidArgumentException("options", "is required");
    }
    return new Forwarder(queue, target, options);
  }

  /**
   * The queue this forwarder serves.
   *
   * @return its name
   */
  public String queue() {
    return queue;
  }

  /**
   * Where this forwarder publishes.
   *
   * @return the target given at start
   */
  public Target target() {
    return target;
  }

  /**
   * Stops claiming, waits up to {@link ForwarderOptions#shutdownTimeout()} for the confirms of the
   * publishes in flight (acking or nacking those jobs), then closes the connection; a job still
   * unconfirmed then is handed back ready (it may reach the broker twice).
   */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    loop.stop(options.shutdownTimeout());
  }

  @Override
  public String toString() {
    return "Forwarder{queue=" + queue + ", target=" + target + "}";
  }
}
