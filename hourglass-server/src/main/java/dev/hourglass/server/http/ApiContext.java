package dev.hourglass.server.http;

import dev.hourglass.Delivery;
import dev.hourglass.Hourglass;
import dev.hourglass.archive.Archive;
import dev.hourglass.server.auth.Auth;
import dev.hourglass.server.metrics.Metrics;
import dev.hourglass.server.push.PushDeliveries;
import dev.hourglass.server.series.QueueSeries;
import io.javalin.http.Context;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/** What the API's handlers share. */
public final class ApiContext {
  final Hourglass hourglass;
  final QueueDirectory queues;
  final Auth auth;
  final Metrics metrics;
  final PushDeliveries push;
  final QueueSeries series;
  final Optional<Archive> archive;
  final int maxPayloadBytes;
  private final long maxBodyBytes;

  /** Long-poll claims waiting now, so shutdown can end them instead of waiting them out. */
  private final Set<CompletableFuture<List<Delivery<byte[]>>>> waits =
      ConcurrentHashMap.newKeySet();

  public ApiContext(
      Hourglass hourglass,
      Auth auth,
      Metrics metrics,
      PushDeliveries push,
      QueueSeries series,
      Optional<Archive> archive,
      int maxPayloadBytes,
      long maxBodyBytes) {
    this.hourglass = hourglass;
    this.queues = new QueueDirectory(hourglass);
    this.auth = auth;
    this.metrics = metrics;
    this.push = push;
    this.series = series;
    this.archive = archive;
    this.maxPayloadBytes = maxPayloadBytes;
    metrics.claimsWaiting(waits::size);
    this.maxBodyBytes = maxBodyBytes;
  }

  /** The request's body, at most the server's --max-body-bytes ({@link RequestBodies#read}). */
  byte[] body(Context ctx) {
    return RequestBodies.read(ctx, maxBodyBytes);
  }

  CompletableFuture<List<Delivery<byte[]>>> track(CompletableFuture<List<Delivery<byte[]>>> wait) {
    waits.add(wait);
    wait.whenComplete((r, e) -> waits.remove(wait));
    return wait;
  }

  private volatile boolean closing;

  boolean isClosing() {
    return closing;
  }

  /**
   * The server is stopping: claims no longer wait, and every waiting long-poll claim is answered
   * with no jobs now. A job leased for one of them after this goes straight back to ready.
   */
  public void closing() {
    closing = true;
    for (CompletableFuture<List<Delivery<byte[]>>> w : List.copyOf(waits)) {
      w.complete(List.of());
    }
  }
}
