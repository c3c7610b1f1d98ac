package dev.hourglass.spring.autoconfigure;

import java.time.Instant;

/** Told of every job a listener method receives, before the method runs (for metrics). */
@FunctionalInterface
interface DeliveryObserver {
  DeliveryObserver NONE = (queue, dueAt) -> {};

  void delivered(String queue, Instant dueAt);
}
