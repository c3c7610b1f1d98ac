package dev.hourglass.forward;

/**
 * One message as a test consumer received it.
 *
 * @param arrivedAt epoch ms when the broker had it at the latest (see each sink)
 */
record Arrival(String jobId, String queue, int attempt, long arrivedAt, String body) {}
