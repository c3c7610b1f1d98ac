package dev.hourglass.examples.orders;

/** Where an order stands: placed, then either paid in time or closed unpaid. */
public enum OrderStatus {
  PLACED,
  PAID,
  CLOSED
}
