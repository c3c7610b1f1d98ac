package dev.hourglass.archive;

import dev.hourglass.JobOutcome;
import dev.hourglass.Payload;
import java.time.Instant;
import java.util.Optional;

/**
 * A finished job as the archive keeps it: the fields of a history item of the HTTP API.
 *
 * @param id the job id
 * @param queue the queue
 * @param outcome how it finished
 * @param finishedAt when it finished, by the Redis server clock
 * @param createdAt when it was enqueued
 * @param runAt the time it was due at last
 * @param attempts deliveries made (an acked job counts the delivery it acked)
 * @param lastError the last failure's reason, if any
 * @param payload the payload (immutable bytes; {@link Payload#bytes()} copies)
 */
public record HistoryRecord(
    String id,
    String queue,
    JobOutcome outcome,
    Instant finishedAt,
    Instant createdAt,
    Instant runAt,
    int attempts,
    Optional<String> lastError,
    Payload<byte[]> payload) {}
