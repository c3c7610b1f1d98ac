package dev.hourglass.internal;

import dev.hourglass.HourglassBuilder;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.JobInfo;
import dev.hourglass.JobNotFoundException;
import dev.hourglass.JobSpec;
import dev.hourglass.JobState;
import dev.hourglass.JobStateException;
import dev.hourglass.internal.store.ServerClock;
import dev.hourglass.internal.store.Status;
import dev.hourglass.internal.store.Store;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * One queue's jobs by id: read, cancel, reschedule, each one script call on the job's partition.
 */
final class JobsById {
  private final String name;
  private final QueueTopology topology;
  private final Store store;
  private final ServerClock clock;
  private final HourglassBuilder.Config config;
  private final JobViews views;
  private final JobLocator locator;

  JobsById(
      QueueTopology topology,
      Store store,
      ServerClock clock,
      HourglassBuilder.Config config,
      JobViews views,
      JobLocator locator) {
    this.name = topology.name();
    this.topology = topology;
    this.store = store;
    this.clock = clock;
    this.config = config;
    this.views = views;
    this.locator = locator;
  }

  /** The partition that holds job {@code id} ({@link JobLocator}). */
  CompletableFuture<dev.hourglass.internal.store.Partition> locate(
      QueueTopology.Snapshot s, String id) {
    return locator.locate(s, id);
  }

  CompletableFuture<Optional<JobInfo<byte[]>>> get(String id) {
    return read(id, false);
  }

  /** The job, or empty; {@code evenExpired}: also one past its ttl that is not swept yet. */
  CompletableFuture<Optional<JobInfo<byte[]>>> read(String id, boolean evenExpired) {
    Names.id(id);
    return topology
        .snapshotAsync()
        .thenCompose(s -> locator.locate(s, id))
        .thenCompose(p -> store.get(p, id, evenExpired))
        .thenApply(
            f -> {
              if (f.status() != Status.OK) {
                return Optional.empty();
              }
              JobState state = JobState.fromLabel(f.state());
              return Optional.of(
                  views.info(
                      id,
                      state,
                      f.record(),
                      state == JobState.INFLIGHT ? f.atMs() : 0,
                      state == JobState.DEAD ? f.atMs() : 0));
            });
  }

  CompletableFuture<Boolean> cancel(String id) {
    Names.id(id);
    return topology
        .snapshotAsync()
        .thenCompose(
            s ->
                locator
                    .locate(s, id)
                    .thenCompose(p -> store.cancel(p, id, config.replicaAcksFor(s.settings()))))
        .thenApply(
            status ->
                switch (status) {
                  case OK -> true;
                  case NOT_FOUND -> false;
                  case INFLIGHT ->
                      throw new JobStateException(name, id, JobState.INFLIGHT, "cancel");
                  default ->
                      throw new IllegalStateException("unexpected cancel status for queue " + name);
                });
  }

  CompletableFuture<JobInfo<byte[]>> reschedule(String id, Duration delay) {
    if (delay == null || delay.isNegative()) {
      throw new InvalidArgumentException("delay", "must be zero or positive");
    }
    return reschedule(id, true, delay.toMillis(), clock.nowMs() + delay.toMillis());
  }

  CompletableFuture<JobInfo<byte[]>> reschedule(String id, Instant runAt) {
    if (runAt == null) {
      throw new InvalidArgumentException("runAt", "is required");
    }
    JobSpec.Builder.checkRunAt(runAt);
    return reschedule(id, false, runAt.toEpochMilli(), runAt.toEpochMilli());
  }

  private CompletableFuture<JobInfo<byte[]>> reschedule(
      String id, boolean relative, long time, long estimatedDue) {
    Names.id(id);
    return topology
        .snapshotAsync()
        .thenCompose(
            s ->
                locator
                    .locate(s, id)
                    .thenCompose(
                        p ->
                            store.reschedule(
                                p, id, relative, time, s.slotStart(estimatedDue), s.lookaheadMs())))
        .thenApply(
            r ->
                switch (r.status()) {
                  // From the script's own reply: a consumer may take the job the moment the
                  // script ends.
                  case OK -> views.info(id, JobState.fromLabel(r.state()), r.record(), 0, 0);
                  case NOT_FOUND -> throw new JobNotFoundException(name, id);
                  case INFLIGHT ->
                      throw new JobStateException(name, id, JobState.INFLIGHT, "reschedule");
                  case DEAD -> throw new JobStateException(name, id, JobState.DEAD, "reschedule");
                  default ->
                      throw new IllegalStateException("unexpected reschedule status for " + name);
                });
  }
}
