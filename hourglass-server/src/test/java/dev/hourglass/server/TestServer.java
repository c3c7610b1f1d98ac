package dev.hourglass.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hourglass.server.auth.TokenRule;
import dev.hourglass.server.config.ArchiveConfig;
import dev.hourglass.server.config.ConfigLoader;
import dev.hourglass.server.config.ServerConfig;
import dev.hourglass.testing.Postgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@link HourglassServer} started in-process on a free port against a given Redis, with a small
 * HTTP client for tests. Close it after the test.
 */
public final class TestServer implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HourglassServer server;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private TestServer(HourglassServer server) {
    this.server = server;
  }

  /** A server on {@code redisUri} with auth off. */
  public static TestServer start(String redisUri) {
    return start(redisUri, List.of());
  }

  /** A server on {@code redisUri} with these tokens (auth on when there are any). */
  public static TestServer start(String redisUri, List<TokenRule> tokens) {
    return start(redisUri, tokens, "30000");
  }

  /**
   * Like {@link #start(String, List)} with {@code shutdown-timeout-ms} 0: close() does not wait the
   * second Jetty's graceful stop gives the client's idle keep-alive connection. For the many short
   * tests that do not depend on graceful shutdown.
   */
  public static TestServer startQuickStop(String redisUri) {
    return startQuickStop(redisUri, List.of());
  }

  /** {@link #startQuickStop(String)} with tokens. */
  public static TestServer startQuickStop(String redisUri, List<TokenRule> tokens) {
    return start(redisUri, tokens, "0");
  }

  /** A quick-stopping server on {@code redisUri} with auth off and this archive database. */
  public static TestServer startWithArchive(String redisUri, ArchiveConfig archive) {
    return new TestServer(
        HourglassServer.start(
            quickStopConfig(Map.of()).with(Optional.of(redisUri), List.of()).withArchive(archive)));
  }

  /** {@link #startWithArchive(String, ArchiveConfig)} on a test database, 30 days, bound 1000. */
  public static TestServer startWithArchive(String redisUri, Postgres pg) {
    return startWithArchive(
        redisUri,
        new ArchiveConfig(
            pg.jdbcUrl(),
            Optional.of(pg.user()),
            Optional.of(pg.password()),
            Duration.ofDays(30),
            1000));
  }

  private static TestServer start(String redisUri, List<TokenRule> tokens, String shutdownMs) {
    return startQuickStop(redisUri, tokens, Map.of("shutdown-timeout-ms", shutdownMs));
  }

  /**
   * {@link #startQuickStop(String, List)} with these settings too, by their keys ({@code
   * "max-connections"}); they may override the shutdown timeout.
   */
  public static TestServer startQuickStop(
      String redisUri, List<TokenRule> tokens, Map<String, String> settings) {
    return new TestServer(
        HourglassServer.start(quickStopConfig(settings).with(Optional.of(redisUri), tokens)));
  }

  /** A free port, no data directory in use, shutdown timeout 0, then these settings. */
  private static ServerConfig quickStopConfig(Map<String, String> settings) {
    Map<String, String> flags =
        new HashMap<>(
            Map.of("port", "0", "data-dir", "unused-data-dir", "shutdown-timeout-ms", "0"));
    flags.putAll(settings);
    return ConfigLoader.load(flags, Map.of(), null);
  }

  public HourglassServer server() {
    return server;
  }

  public String baseUrl() {
    return server.baseUrl();
  }

  /** One HTTP exchange. */
  public record Response(int status, String body, HttpResponse<String> raw) {
    /** The body as JSON (fails the test if it is not JSON). */
    public JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (IOException e) {
        throw new AssertionError("not JSON (status " + status + "): " + body, e);
      }
    }

    /** The error code of an error answer. */
    public String errorCode() {
      return json().path("error").path("code").asText(null);
    }
  }

  public Response call(String method, String path, String body) {
    return call(method, path, body, null);
  }

  /** Sends a request; {@code body} null sends none, {@code token} null sends no Authorization. */
  public Response call(String method, String path, String body, String token) {
    return callWithAuthorization(method, path, body, token == null ? null : "Bearer " + token);
  }

  /** Sends a request with this exact Authorization header value (null for none). */
  public Response callWithAuthorization(
      String method, String path, String body, String authorization) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(baseUrl() + path)).timeout(Duration.ofSeconds(40));
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    b.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    try {
      HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
      return new Response(r.statusCode(), r.body(), r);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  public Response get(String path) {
    return call("GET", path, null);
  }

  public Response post(String path, String body) {
    return call("POST", path, body);
  }

  @Override
  public void close() {
    server.close();
  }
}
