package dev.hourglass.internal;

import dev.hourglass.Delivery;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.Job;
import dev.hourglass.Nack;
import java.time.Duration;

/** The {@link Job} a worker hands its handler; remembers what the handler asked for. */
final class WorkerJob<T> implements Job<T> {
  private final Delivery<T> delivery;
  private final T payload;
  private volatile Outcome outcome = Outcome.ACK;

  WorkerJob(Delivery<T> delivery, T payload) {
    this.delivery = delivery;
    this.payload = payload;
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
