package dev.hourglass.internal;

import dev.hourglass.Delivery;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.Job;
import dev.hourglass.JobHandler;
import dev.hourglass.Nack;
import dev.hourglass.PayloadDecodingException;
import dev.hourglass.spi.PayloadCodec;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The {@link Job} a worker hands its handler; remembers what the handler asked for. */
final class WorkerJob<T> implements Job<T> {
  private static final Logger log = LoggerFactory.getLogger(WorkerJob.class);

  private final Delivery<T> delivery;
  private final T payload;
  private volatile Outcome outcome = Outcome.ACK;

  WorkerJob(Delivery<T> delivery, T payload) {
    this.delivery = delivery;
    this.payload = payload;
  }

  /**
   * Decodes the payload and runs the handler on it: how the delivery is to be settled. A payload
   * the codec refuses never reaches the handler: retrying cannot make it decodable, so the job goes
   * dead with the decoder's message. Anything else the decoder or the handler throws fails the
   * attempt, except a failure of the JVM itself, which is thrown on ({@link #throwIfFatal}).
   */
  /**
   * Throws on a failure of the JVM itself: a {@link VirtualMachineError} (out of memory, an
   * internal error), but not a {@link StackOverflowError}, which a handler's own recursion causes
   * and its thread survives: that one fails the attempt like any exception.
   */
  private static void throwIfFatal(Throwable t) {
    if (t instanceof VirtualMachineError fatal && !(t instanceof StackOverflowError)) {
      throw fatal;
    }
  }

  static <T> Outcome run(Delivery<byte[]> job, PayloadCodec<T> codec, JobHandler<T> handler) {
    Delivery<T> delivery = job.as(codec);
    T payload;
    try {
      payload = delivery.payload().value();
    } catch (PayloadDecodingException e) {
      log.warn("job {} in {} went dead: {}", job.id(), job.queue(), e.getMessage());
      return Outcome.dead(e.getMessage());
    } catch (Throwable t) {
      throwIfFatal(t);
      return Outcome.failed(t); // e.g. the payload class failed to load: retried by the backoff
    }
    WorkerJob<T> typed = new WorkerJob<>(delivery, payload);
    try {
      handler.handle(typed);
    } catch (Throwable t) {
      throwIfFatal(t);
      return Outcome.failed(t);
    }
    return typed.outcome();
  }

  @Override
  public T payload() {
    return payload;
  }

  @Override
  public Delivery<T> delivery() {
    return delivery;
  }

  @Override
  public void retryAfter(Duration delay, String reason) {
    if (delay == null) {
      throw new InvalidArgumentException("delay", "is required");
    }
    Nack.retryAfter(delay, reason); // checks the delay's range
    outcome = Outcome.retryAfter(delay, reason);
  }

  @Override
  public void dead(String reason) {
    outcome = Outcome.dead(reason);
  }

  /** How to settle the delivery when the handler returned normally. */
  Outcome outcome() {
    return outcome;
  }

  @Override
  public String toString() {
    return "Job["
        + delivery.queue()
        + "/"
        + delivery.id()
        + ", attempt "
        + delivery.attempt()
        + "]";
  }
}
