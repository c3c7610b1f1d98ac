package dev.hourglass.examples.orders;

import java.time.Instant;

/**
 * An order as the API shows it.
 *
 * @param id the order's id
 * @param status placed, paid, or closed unpaid
 * @param placedAt when it was placed
 * @param payBy the end of its payment window: still unpaid then, it is closed
 */
public record Order(String id, OrderStatus status, Instant placedAt, Instant payBy) {

  Order withStatus(OrderStatus newStatus) {
    return new Order(id, newStatus, placedAt, payBy);
  }
}
