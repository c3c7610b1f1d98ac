package dev.hourglass;

import java.time.Instant;
import java.util.Optional;

/**
 * A finished job as the {@link Outbox} holds it until an archiver has stored it.
 *
 * @param recordId the outbox entry's id, unique within its partition and rising with time (a Redis
 *     stream id): an archiver stores it to make a second copy of the same record harmless
 * @param queue the queue
 * @param partition the partition of the queue whose outbox holds the record
 * @param id the job id
 * @param outcome how it finished
 * @param finishedAt when it finished, by the Redis server clock
 * @param createdAt when it was enqueued
 * @param runAt the time it was due at last
 * @param attempts deliveries made (an acked job counts the delivery it acked)
 * @param lastError the last failure's reason, if any
 * @param payload the payload bytes
 */
public record FinishedJob(
    String recordId,
    String queue,
    int partition,
    String id,
    JobOutcome outcome,
    Instant finishedAt,
    Instant createdAt,
    Instant runAt,
    int attempts,
    Optional<String> lastError,
    Payload<byte[]> payload) {}
