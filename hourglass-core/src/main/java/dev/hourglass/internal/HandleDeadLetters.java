package dev.hourglass.internal;

import dev.hourglass.DeadLetters;
import dev.hourglass.JobPage;
import dev.hourglass.internal.store.Failures;
import dev.hourglass.spi.PayloadCodec;
import java.util.concurrent.CompletableFuture;

/** A queue handle's {@link DeadLetters}: the queue's dead letters read through its codec. */
final class HandleDeadLetters<T> implements DeadLetters<T> {
  private final RedisDeadLetters dead;
  private final PayloadCodec<T> codec;

  HandleDeadLetters(RedisDeadLetters dead, PayloadCodec<T> codec) {
    this.dead = dead;
    this.codec = codec;
  }

  @Override
  public JobPage<T> list(String cursor, int limit) {
    return Failures.await(listAsync(cursor, limit));
  }

  @Override
  public CompletableFuture<JobPage<T>> listAsync(String cursor, int limit) {
    return dead.list(cursor, limit).thenApply(page -> page.as(codec));
  }

  @Override
  public void requeue(String id) {
    Failures.await(requeueAsync(id));
  }

  @Override
  public CompletableFuture<Void> requeueAsync(String id) {
    return dead.requeue(id);
  }

  @Override
  public long requeueAll() {
    return Failures.await(requeueAllAsync());
  }

  @Override
  public CompletableFuture<Long> requeueAllAsync() {
    return dead.requeueAll();
  }

  @Override
  public long purge() {
    return Failures.await(purgeAsync());
  }

  @Override
  public CompletableFuture<Long> purgeAsync() {
    return dead.purge();
  }

  @Override
  public long count() {
    return Failures.await(countAsync());
  }

  @Override
  public CompletableFuture<Long> countAsync() {
    return dead.count();
  }
}
