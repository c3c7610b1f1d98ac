package dev.hourglass.jackson;

import java.time.Instant;

/** A record payload, with a java.time field. */
public record OrderClosed(String orderId, int amount, Instant closedAt) {}
