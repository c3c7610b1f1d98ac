package dev.hourglass.server.series;

/**
 * One interval of one queue: rates per second of its Redis counters over the interval (every client
 * of the queue counts), and the lateness percentiles of this server's own deliveries in it (null
 * when it made none).
 *
 * @param t the end of the interval, epoch ms (this server's clock)
 */
public record SeriesPoint(
    long t,
    double enqueued,
    double delivered,
    double acked,
    double retried,
    double dead,
    Long latenessP50Ms,
    Long latenessP99Ms) {}
