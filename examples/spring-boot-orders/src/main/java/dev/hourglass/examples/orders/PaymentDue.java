package dev.hourglass.examples.orders;

/**
 * The payload of the job that closes an order whose payment window has passed; sent as JSON.
 *
 * @param orderId the order to close if it is still unpaid
 */
public record PaymentDue(String orderId) {}
