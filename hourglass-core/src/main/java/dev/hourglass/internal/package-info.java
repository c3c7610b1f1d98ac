/**
 * Hourglass internals: Redis keys, Lua scripts, the store, the promoter and the consumer loop.
 *
 * <p>Everything in this package may change without notice. Use the API in {@code dev.hourglass}.
 */
package dev.hourglass.internal;
