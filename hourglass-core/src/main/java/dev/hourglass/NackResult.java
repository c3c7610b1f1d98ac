package dev.hourglass;

import java.time.Instant;

/**
 * What a nack did.
 *
 * @param dead true when the job went to dead, false when a retry was scheduled
 * @param at the retry's due time, or the time of death
 */
public record NackResult(boolean dead, Instant at) {}
