/**
 * Everything of Hourglass that talks to Redis: the key names ({@link
 * dev.hourglass.internal.store.Keys}, {@link dev.hourglass.internal.store.Partition}), the Lua
 * scripts and how they are composed and run, one typed method per script ({@link
 * dev.hourglass.internal.store.Store}, {@link dev.hourglass.internal.store.Deliveries}, {@link
 * dev.hourglass.internal.store.Registry}), the connections, and the one place Redis errors become
 * typed exceptions ({@link dev.hourglass.internal.store.Failures}).
 *
 * <p>Everything in this package may change without notice. Use the API in {@code dev.hourglass}.
 */
package dev.hourglass.internal.store;
