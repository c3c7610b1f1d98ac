package dev.hourglass.internal;

import dev.hourglass.internal.store.Registry;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;

/**
 * The latest queue settings version this client knows of, read again from Redis at most every
 * {@value #CHECK_MS} ms (one GET for all queues): a queue's cached settings are read again only
 * when this moved past the version they were read at. A settings change made through another client
 * thus reaches this one within that time, at the cost of one command per client, however many
 * queues it uses.
 */
final class SettingsVersions {
  static final long CHECK_MS = 30_000;

  private final Registry registry;
  private final Clock clock;
  private volatile long known;
  private volatile long checkedAtMs = Long.MIN_VALUE;
  private CompletableFuture<Long> checking; // guarded by this

  SettingsVersions(Registry registry, Clock clock) {
    this.registry = registry;
    this.clock = clock;
  }

  long known() {
    return known;
  }

  /** Whether the known version was checked within the last {@value #CHECK_MS} ms. */
  boolean isFresh() {
    return clock.millis() - checkedAtMs <= CHECK_MS;
  }

  /** The known version, checked against Redis first when the last check is too old. */
  CompletableFuture<Long> current() {
    if (isFresh()) {
      return CompletableFuture.completedFuture(known);
    }
    CompletableFuture<Long> result;
    synchronized (this) {
      if (checking != null) {
        return checking;
      }
      result = new CompletableFuture<>();
      checking = result;
    }
    long startedAt = clock.millis();
    CompletableFuture<Long> read;
    try {
      read = registry.settingsVersion();
    } catch (RuntimeException e) {
      read = CompletableFuture.failedFuture(e); // never leave a check pending forever
    }
    read.whenComplete(
        (v, error) -> {
          synchronized (this) {
            checking = null;
            if (error == null) {
              known = Math.max(known, v);
              checkedAtMs = startedAt;
            }
          }
          if (error == null) {
            result.complete(known);
          } else {
            result.completeExceptionally(error);
          }
        });
    return result;
  }
}
