package dev.hourglass.server;

import dev.hourglass.Hourglass;
import dev.hourglass.archive.Archive;
import dev.hourglass.archive.ArchiveSettings;
import dev.hourglass.embedded.RedisExecutable;
import dev.hourglass.embedded.RedisServer;
import dev.hourglass.server.auth.Auth;
import dev.hourglass.server.config.ArchiveConfig;
import dev.hourglass.server.config.ServerConfig;
import dev.hourglass.server.http.ApiContext;
import dev.hourglass.server.http.JsonErrorHandler;
import dev.hourglass.server.http.Ops;
import dev.hourglass.server.http.PathCheck;
import dev.hourglass.server.http.RequestBodies;
import dev.hourglass.server.http.Routes;
import dev.hourglass.server.metrics.Metrics;
import dev.hourglass.server.push.PushDeliveries;
import dev.hourglass.server.series.QueueSeries;
import io.javalin.Javalin;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Hourglass service: the HTTP API on Javalin, push delivery, metrics, and (when no Redis is
 * configured) an embedded Redis with its AOF in the data directory. {@link #start} returns once it
 * serves; {@link #close} shuts it down gracefully: long polls are answered, requests in flight and
 * push deliveries finish (within the shutdown timeout), then Redis connections and the embedded
 * Redis stop.
 */
public final class HourglassServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(HourglassServer.class);
  private static final String STARTED_NANOS = "hourglass.started";
  private static final int RESPONSE_COPY_BUFFER_BYTES = 4096;

  private final ServerConfig config;
  private final DataDirLock dataDirLock;
  private final RedisServer embedded;
  private final Hourglass hourglass;
  private Optional<Archive> archive = Optional.empty();
  private final PushDeliveries push;
  private final QueueSeries series;
  private final ApiContext api;
  private final Ops ops;
  private final Javalin app;
  private final String redisDescription;
  private boolean closed;

  private HourglassServer(ServerConfig config) {
    this.config = config;
    this.dataDirLock = config.redisUri().isEmpty() ? lockDataDir(config) : null;
    RedisExecutable executable = null;
    try {
      if (dataDirLock != null) {
        executable = EmbeddedRedis.executable(config.embeddedRedis());
        this.embedded = EmbeddedRedis.start(config, executable);
      } else {
        this.embedded = null;
      }
    } catch (RuntimeException e) {
      dataDirLock.close();
      throw e;
    }
    String redisUri = embedded != null ? embedded.uri() : config.redisUri().get();
    this.redisDescription =
        embedded != null
            ? EmbeddedRedis.describe(executable, embedded, config.dataDir())
            : redacted(redisUri);
    try {
      Metrics metrics = new Metrics();
      this.hourglass =
          Hourglass.builder()
              .redisUri(redisUri)
              .prefix(config.prefix())
              .maxPayloadBytes(config.maxPayloadBytes())
              .compressAbove(config.compressAbove())
              .promoteAllQueues(true)
              .scriptListener(metrics)
              .build();
      metrics.bind(hourglass);
      this.archive = config.archive().map(a -> startArchive(hourglass, a, metrics));
      this.push = new PushDeliveries(hourglass, metrics, config.shutdownTimeout());
      this.series = new QueueSeries(hourglass, metrics.lateness(), Clock.systemUTC());
      this.api =
          new ApiContext(
              hourglass,
              new Auth(config.tokens()),
              metrics,
              push,
              series,
              archive,
              config.maxPayloadBytes(),
              config.maxBodyBytes(),
              config.limits());
      this.ops = new Ops(hourglass, metrics);
      this.app =
          Javalin.create(
              c -> {
                c.startup.showJavalinBanner = false;
                c.startup.showOldJavalinVersionWarning = false;
                c.http.maxRequestSize = config.maxBodyBytes();
                c.http.prefer405over404 = true;
                c.http.asyncTimeout = 0;
                // Javalin copies each answer to Jetty through a new buffer of this size (by default
                // Jetty's whole 32 KB output buffer): most of the memory a small request allocated.
                // Jetty still gathers the pieces in its own output buffer.
                c.http.responseBufferSize = RESPONSE_COPY_BUFFER_BYTES;
                c.jetty.host = config.bind();
                c.jetty.port = config.port();
                c.jetty.modifyServer(
                    server -> {
                      server.setStopTimeout(config.shutdownTimeout().toMillis());
                      NetworkConnectionLimit connections =
                          new NetworkConnectionLimit(config.limits().maxConnections(), server);
                      server.addBean(connections);
                      metrics.httpConnections(connections::getNetworkConnectionCount);
                      server.insertHandler(
                          new PathCheck(RequestBodies.drainLimit(config.maxBodyBytes())));
                      server.insertHandler(new GracefulHandler());
                      server.setErrorHandler(new JsonErrorHandler());
                    });
                c.routes.before(ctx -> ctx.attribute(STARTED_NANOS, System.nanoTime()));
                c.routes.after(
                    ctx -> {
                      RequestBodies.drainRest(ctx, RequestBodies.drainLimit(config.maxBodyBytes()));
                      timeRequest(metrics, ctx);
                    });
                Routes.install(c, api, ops);
              });
      app.start();
      push.start();
      series.start();
    } catch (RuntimeException e) {
      archive.ifPresent(Archive::close);
      if (embedded != null) {
        embedded.stop();
        dataDirLock.close();
      }
      throw e;
    }
  }

  /**
   * Migrates the archive database and starts draining the outbox into it; fails when the database
   * cannot be reached at start, so that a wrong URL shows at once.
   */
  private static Archive startArchive(Hourglass hourglass, ArchiveConfig a, Metrics metrics) {
    Archive started =
        Archive.start(
            hourglass,
            ArchiveSettings.builder()
                .jdbc(a.url(), a.user().orElse(null), a.password().orElse(null))
                .retention(a.retention())
                .outboxMaxPerPartition(a.outboxMax())
                .listener(metrics.archive())
                .build());
    metrics.archive().bind(started);
    return started;
  }

  /**
   * Starts the server; returns once it serves.
   *
   * @param config the validated configuration
   * @return the running server; {@link #close()} stops it
   */
  public static HourglassServer start(ServerConfig config) {
    HourglassServer server = new HourglassServer(config);
    log.info(
        "Hourglass listening on {}, Redis: {}, auth: {}",
        server.baseUrl(),
        server.redisDescription,
        config.tokens().isEmpty() ? "off" : config.tokens().size() + " token(s)");
    server.archive.ifPresent(
        a ->
            log.info(
                "Archive: finished jobs kept in {} for {}",
                ArchiveSettings.mask(config.archive().get().url()),
                config.archive().get().retention()));
    return server;
  }

  private static DataDirLock lockDataDir(ServerConfig config) {
    try {
      Files.createDirectories(config.dataDir());
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot create the data directory " + config.dataDir().toAbsolutePath(), e);
    }
    return DataDirLock.acquire(config.dataDir());
  }

  private static void timeRequest(Metrics metrics, Context ctx) {
    Long started = ctx.attribute(STARTED_NANOS);
    if (started == null) {
      return;
    }
    var matched = ctx.endpoints().matchedHttpEndpoint();
    String route = matched == null ? "" : matched.path;
    metrics.httpRequest(
        ctx.method().name(),
        route.isEmpty() ? "unmatched" : route,
        ctx.statusCode(),
        System.nanoTime() - started);
  }

  /** The URI without its password, for logs. */
  static String redacted(String uri) {
    return uri.replaceAll("//([^:@/]*):[^@/]*@", "//$1:***@");
  }

  /**
   * The port the server listens on.
   *
   * @return the configured port, or the one picked when it was 0
   */
  public int port() {
    return app.port();
  }

  /**
   * The server's address.
   *
   * @return e.g. {@code http://127.0.0.1:8080}
   */
  public String baseUrl() {
    return "http://" + config.bind() + ":" + port();
  }

  /**
   * The Hourglass client the server runs on; for tests.
   *
   * @return the client
   */
  public Hourglass hourglass() {
    return hourglass;
  }

  /**
   * The dashboard's queue series; for tests, which take samples when they need them.
   *
   * @return the series
   */
  public QueueSeries series() {
    return series;
  }

  /**
   * Every route Javalin serves, as {@code "METHOD /path"} (e.g. {@code "GET /v1/queues/{queue}"}):
   * what the OpenAPI document must describe; before/after filters are left out. For tests.
   *
   * @return one entry per route
   */
  public List<String> routes() {
    return app.unsafe.internalRouter.allHttpHandlers().stream()
        .filter(e -> e.endpoint.method.isHttpMethod())
        .map(e -> e.endpoint.method.name() + " " + e.endpoint.path)
        .toList();
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    log.info("Hourglass stopping: finishing requests and push deliveries");
    api.closing();
    CompletableFuture<Void> pushes = CompletableFuture.runAsync(push::close);
    try {
      app.stop();
    } catch (RuntimeException e) {
      log.warn("HTTP server did not stop cleanly: {}", e.getMessage());
    }
    pushes.join();
    series.close();
    archive.ifPresent(Archive::close);
    hourglass.close();
    if (embedded != null) {
      embedded.stop();
      dataDirLock.close();
    }
    log.info("Hourglass stopped");
  }
}
