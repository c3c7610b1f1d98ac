/**
 * Micrometer meters for Hourglass: {@link dev.hourglass.micrometer.HourglassMetrics} registers a
 * client's queue counters and counts, Lua script latency and delivery lateness (a forwarder's too)
 * on any {@code MeterRegistry}; {@link dev.hourglass.micrometer.ArchiveMeters} an archive's outbox
 * and rows.
 */
package dev.hourglass.micrometer;
