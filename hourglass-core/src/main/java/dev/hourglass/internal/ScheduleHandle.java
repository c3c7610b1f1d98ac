package dev.hourglass.internal;

import dev.hourglass.Payload;
import dev.hourglass.Queue;
import dev.hourglass.ScheduleInfo;
import dev.hourglass.ScheduleNotFoundException;
import dev.hourglass.ScheduleSpec;
import dev.hourglass.Schedules;
import dev.hourglass.internal.RedisSchedules.View;
import dev.hourglass.internal.store.Failures;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** The typed face of a queue's {@link RedisSchedules}: payloads through the handle's codec. */
final class ScheduleHandle<T> implements Schedules<T> {
  private final RedisSchedules engine;
  private final Queue<T> queue;

  ScheduleHandle(RedisSchedules engine, Queue<T> queue) {
    this.engine = engine;
    this.queue = queue;
  }

  @Override
  public PutResult<T> put(ScheduleSpec<T> spec) {
    return Failures.await(putAsync(spec));
  }

  @Override
  public CompletableFuture<PutResult<T>> putAsync(ScheduleSpec<T> spec) {
    byte[] payload = spec == null ? null : queue.spec(spec.payload()).build().payload();
    return engine.put(spec, payload).thenApply(p -> new PutResult<>(info(p.view()), p.created()));
  }

  @Override
  public Optional<ScheduleInfo<T>> get(String id) {
    return Failures.await(getAsync(id));
  }

  @Override
  public CompletableFuture<Optional<ScheduleInfo<T>>> getAsync(String id) {
    return engine.get(id).thenApply(v -> v.map(this::info));
  }

  @Override
  public List<ScheduleInfo<T>> list() {
    return Failures.await(listAsync());
  }

  @Override
  public CompletableFuture<List<ScheduleInfo<T>>> listAsync() {
    return engine.list().thenApply(views -> views.stream().map(this::info).toList());
  }

  @Override
  public ScheduleInfo<T> pause(String id) {
    return Failures.await(pauseAsync(id));
  }

  @Override
  public CompletableFuture<ScheduleInfo<T>> pauseAsync(String id) {
    return changed(id, "pause");
  }

  @Override
  public ScheduleInfo<T> resume(String id) {
    return Failures.await(resumeAsync(id));
  }

  @Override
  public CompletableFuture<ScheduleInfo<T>> resumeAsync(String id) {
    return changed(id, "resume");
  }

  private CompletableFuture<ScheduleInfo<T>> changed(String id, String op) {
    return engine
        .change(id, op)
        .thenApply(v -> info(v.orElseThrow(() -> new ScheduleNotFoundException(queue.name(), id))));
  }

  @Override
  public boolean delete(String id) {
    return Failures.await(deleteAsync(id));
  }

  @Override
  public CompletableFuture<Boolean> deleteAsync(String id) {
    return engine.delete(id);
  }

  private ScheduleInfo<T> info(View v) {
    ScheduleDefinition d = v.definition();
    return new ScheduleInfo<>(
        queue.name(),
        v.stored().id(),
        Optional.ofNullable(d.cron()),
        d.cron() == null ? Optional.of(Duration.ofMillis(d.everyMs())) : Optional.empty(),
        ZoneId.of(d.zone()),
        Payload.of(d.payload(), queue.codec()),
        Optional.ofNullable(d.startAtMs()).map(Instant::ofEpochMilli),
        Optional.ofNullable(d.endAtMs()).map(Instant::ofEpochMilli),
        Optional.ofNullable(d.maxAttempts()),
        Optional.ofNullable(d.backoff()),
        Optional.ofNullable(d.visibilityMs()).map(Duration::ofMillis),
        Optional.ofNullable(d.ttlMs()).map(Duration::ofMillis),
        Optional.ofNullable(d.priority()),
        v.stored().paused(),
        v.nextRuns().stream().map(Instant::ofEpochMilli).toList());
  }
}
