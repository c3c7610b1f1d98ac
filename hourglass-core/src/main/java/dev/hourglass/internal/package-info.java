/**
 * Hourglass internals: the client, its queues (settings, enqueues, claims, settlements), the
 * promoters and the worker. What talks to Redis lives in {@code dev.hourglass.internal.store}.
 *
 * <p>Everything in this package may change without notice. Use the API in {@code dev.hourglass}.
 */
package dev.hourglass.internal;
