package dev.hourglass.server;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;

/** A small HTTP client of a server at a base URL, in-process or in another process. */
final class ApiClient {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String baseUrl;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  ApiClient(String baseUrl) {
    this.baseUrl = baseUrl;
  }

  static ApiClient onPort(int port) {
    return new ApiClient("http://127.0.0.1:" + port);
  }

  String baseUrl() {
    return baseUrl;
  }

  record Response(int status, String body) {
    JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (IOException e) {
        throw new AssertionError("not JSON (status " + status + "): " + body, e);
      }
    }
  }

  Response get(String path) {
    return call("GET", path, null);
  }

  Response post(String path, String body) {
    return call("POST", path, body);
  }

  Response call(String method, String path, String body) {
    try {
      return send(method, path, body);
    } catch (IOException e) {
      throw new UncheckedIOException(method + " " + baseUrl + path + " failed", e);
    }
  }

  private Response send(String method, String path, String body) throws IOException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(baseUrl + path))
            .timeout(Duration.ofSeconds(40))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
            .build();
    try {
      HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
      return new Response(r.statusCode(), r.body());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  /** Whether GET /health/ready answers 200 now; false while nothing listens yet. */
  boolean ready() {
    try {
      return send("GET", "/health/ready", null).status() == 200;
    } catch (ConnectException | HttpTimeoutException e) {
      return false;
    } catch (IOException e) {
      return false; // e.g. the connection reset while the server starts
    }
  }

  /**
   * Polls /health/ready until it answers 200; fails at the timeout or as soon as {@code alive}
   * turns false (the server process died), with the server's {@code output} in the message.
   */
  void awaitReady(Duration timeout, BooleanSupplier alive, Supplier<String> output) {
    try {
      await("GET " + baseUrl + "/health/ready answers 200")
          .atMost(timeout)
          .pollInterval(Duration.ofMillis(100))
          .failFast("the server exited before it was ready", () -> !alive.getAsBoolean())
          .until(this::ready);
    } catch (TerminalFailureException e) {
      throw new AssertionError(e.getMessage() + "; its output:\n" + output.get(), e);
    } catch (ConditionTimeoutException e) {
      throw new AssertionError(
          "the server was not ready within " + timeout + "; its output:\n" + output.get(), e);
    }
  }
}
