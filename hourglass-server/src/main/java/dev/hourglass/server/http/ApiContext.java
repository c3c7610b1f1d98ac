package dev.hourglass.server.http;

import dev.hourglass.Hourglass;
import dev.hourglass.archive.Archive;
import dev.hourglass.server.auth.Auth;
import dev.hourglass.server.config.Limits;
import dev.hourglass.server.metrics.Metrics;
import dev.hourglass.server.push.PushDeliveries;
import dev.hourglass.server.series.QueueSeries;
import io.javalin.http.Context;
import java.util.Optional;

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

  final LongPolls longPolls;

  /**
   * The handlers' shared state.
   *
   * @param hourglass the client every handler calls
   * @param auth checks each request's token
   * @param metrics the server's meters
   * @param push the queues' push deliveries
   * @param series the dashboard's per-queue series
   * @param archive the archive, when one is configured
   * @param maxPayloadBytes the largest job payload accepted
   * @param maxBodyBytes the largest request body accepted
   * @param limits how many long-poll claims may wait, in all and per client
   */
  public ApiContext(
      Hourglass hourglass,
      Auth auth,
      Metrics metrics,
      PushDeliveries push,
      QueueSeries series,
      Optional<Archive> archive,
      int maxPayloadBytes,
      long maxBodyBytes,
      Limits limits) {
    this.hourglass = hourglass;
    this.queues = new QueueDirectory(hourglass);
    this.auth = auth;
    this.metrics = metrics;
    this.push = push;
    this.series = series;
    this.archive = archive;
    this.maxPayloadBytes = maxPayloadBytes;
    this.maxBodyBytes = maxBodyBytes;
    this.longPolls = new LongPolls(limits.maxWaitingClaims(), limits.maxWaitingClaimsPerClient());
    metrics.claimsWaiting(longPolls::held);
  }

  /** The request's body, at most the server's --max-body-bytes ({@link RequestBodies#read}). */
  byte[] body(Context ctx) {
    return RequestBodies.read(ctx, maxBodyBytes);
  }

  /** The server is stopping: claims no longer wait, and those held are answered now. */
  public void closing() {
    longPolls.closing();
  }
}
