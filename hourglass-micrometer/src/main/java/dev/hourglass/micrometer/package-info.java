/**
 * Micrometer meters for Hourglass: {@link dev.hourglass.micrometer.HourglassMetrics} registers a
 * client's queue counters and counts, Lua script latency and delivery lateness on any {@code
 * MeterRegistry}.
 */
package dev.hourglass.micrometer;
