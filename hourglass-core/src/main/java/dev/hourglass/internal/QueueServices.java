package dev.hourglass.internal;

import dev.hourglass.HourglassBuilder;
import dev.hourglass.internal.store.ServerClock;
import dev.hourglass.internal.store.Store;
import dev.hourglass.spi.IdGenerator;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What a client gives each queue's engine ({@link RedisQueue}), which hands every part only what it
 * uses.
 *
 * @param callbacks runs follow-up work of Redis replies off Lettuce's event loop
 * @param timer fires long-poll deadlines
 * @param commandTimeout bounds how long a closing worker waits for a claim in flight
 */
record QueueServices(
    HourglassBuilder.Config config,
    Store store,
    ServerClock clock,
    RandomIds random,
    IdGenerator ids,
    Promoters promoters,
    Workers workers,
    Executor callbacks,
    ScheduledExecutorService timer,
    Duration commandTimeout) {}
