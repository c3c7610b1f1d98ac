package dev.hourglass.forward;

import dev.hourglass.Delivery;
import java.util.concurrent.CompletableFuture;

/**
 * One connection to a broker that publishes jobs in the order given. Used by one thread (the
 * forward loop); the futures it returns complete on the client's threads.
 */
interface Publisher extends AutoCloseable {
  /**
   * Opens the connection unless it is open.
   *
   * @throws PublishException when the broker cannot be reached, with the reason
   */
  void connect() throws PublishException;

  /**
   * Publishes one job. Never throws: the future completes when the broker confirmed the message and
   * fails with a {@link PublishException} when it refused it or the connection failed.
   */
  CompletableFuture<Void> publish(Delivery<?> job);

  /** Closes the connection; confirms still awaited fail. The next {@link #connect()} reopens. */
  @Override
  void close();
}
