package dev.hourglass.internal;

import dev.hourglass.FinishedJob;
import dev.hourglass.Outbox;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;

/** The {@link Outbox} of a client. */
final class RedisOutbox implements Outbox {
  private final HourglassClient client;

  RedisOutbox(HourglassClient client) {
    this.client = client;
  }

  @Override
  public void enable(int maxPerPartition) {
    throw new UnsupportedOperationException("not yet");
  }

  @Override
  public void disable() {
    throw new UnsupportedOperationException("not yet");
  }

  @Override
  public OptionalInt bound() {
    throw new UnsupportedOperationException("not yet");
  }

  @Override
  public List<FinishedJob> read(String queue, int partition, int max) {
    throw new UnsupportedOperationException("not yet");
  }

  @Override
  public CompletableFuture<List<FinishedJob>> readAsync(String queue, int partition, int max) {
    throw new UnsupportedOperationException("not yet");
  }

  @Override
  public void remove(String queue, int partition, List<String> recordIds) {
    throw new UnsupportedOperationException("not yet");
  }

  @Override
  public CompletableFuture<Void> removeAsync(String queue, int partition, List<String> recordIds) {
    throw new UnsupportedOperationException("not yet");
  }

  @Override
  public OutboxSize size(String queue) {
    throw new UnsupportedOperationException("not yet");
  }
}
