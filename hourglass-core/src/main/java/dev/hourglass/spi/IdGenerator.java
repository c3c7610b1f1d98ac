package dev.hourglass.spi;

/**
 * Makes ids for jobs enqueued without one. Ids must be unique per queue among live jobs and match
 * {@code [A-Za-z0-9._:-]{1,128}}; the default makes 21-character URL-safe ids from a millisecond
 * timestamp and 72 random bits. Implementations must be thread-safe.
 */
@FunctionalInterface
public interface IdGenerator {
  /**
   * A new id, called once per job enqueued without one, from any thread.
   *
   * @return an id of 1 to 128 of {@code A-Z a-z 0-9 . _ : -} that no live job of the queue holds;
   *     an invalid one fails the enqueue with {@code InvalidArgumentException}
   */
  String newId();
}
