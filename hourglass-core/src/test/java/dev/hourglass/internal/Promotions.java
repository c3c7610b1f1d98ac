package dev.hourglass.internal;

import dev.hourglass.Queue;
import dev.hourglass.internal.store.Failures;
import java.util.concurrent.CompletableFuture;

/**
 * Promotion driven by a test: one pass over every partition of a queue now, by the client's own
 * lock owner (jobs due within the next slot or two are loaded, expired leases come back, jobs past
 * their ttl and dead jobs past retention are deleted, consumers are woken). Not part of the public
 * API: a running client's promoters do this by themselves.
 */
public final class Promotions {
  private Promotions() {}

  /** Jobs the pass made ready; 0 for a partition whose promoter lock another client holds. */
  public static long now(Queue<?> queue) {
    return Failures.await(async(queue));
  }

  public static CompletableFuture<Long> async(Queue<?> queue) {
    return ((QueueHandle<?>) queue).engine().promote();
  }
}
