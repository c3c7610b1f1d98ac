/**
 * Hourglass: a delay queue on Redis. Start with {@link dev.hourglass.Hourglass#builder()}.
 *
 * <p>Producers enqueue jobs through a {@link dev.hourglass.Queue}; consumers either run a {@link
 * dev.hourglass.Worker} or use the low-level claim / ack / nack / extend calls of the queue. Every
 * method that talks to Redis may throw {@link dev.hourglass.RedisUnavailableException}; bad input
 * throws {@link dev.hourglass.InvalidArgumentException} before anything is sent.
 */
package dev.hourglass;
