package dev.hourglass.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Calls the Hourglass HTTP API: sends JSON with the bearer token, returns 2xx answers and turns
 * everything else into a {@link CommandFailure} with the exit code {@link ExitCodes} assigns.
 */
final class ServerClient {
  private static final int MAX_RAW_ERROR_CHARS = 200;

  private final URI server;
  private final String token;
  private final Duration timeout;
  private final HttpClient http;

  /**
   * @param server the server's base URL, without a trailing slash
   * @param token the bearer token, or null to send none
   * @param connectTimeout how long to wait for the connection
   * @param answerTimeout how long to wait for each answer (longer than the connection for a long
   *     poll)
   */
  ServerClient(URI server, String token, Duration connectTimeout, Duration answerTimeout) {
    this.server = server;
    this.token = token;
    this.timeout = answerTimeout;
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(connectTimeout)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  ServerResponse get(String path) {
    return send("GET", path, null);
  }

  ServerResponse post(String path, JsonNode body) {
    return send("POST", path, body);
  }

  ServerResponse put(String path, JsonNode body) {
    return send("PUT", path, body);
  }

  ServerResponse delete(String path) {
    return send("DELETE", path, null);
  }

  private ServerResponse send(String method, String path, JsonNode body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(server + path))
            .timeout(timeout)
            .header("Accept", "application/json")
            .method(
                method,
                body == null
                    ? BodyPublishers.noBody()
                    : BodyPublishers.ofString(Json.write(body), StandardCharsets.UTF_8));
    if (body != null) {
      request.header("Content-Type", "application/json; charset=utf-8");
    }
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    HttpResponse<String> response = exchange(request.build());
    if (response.statusCode() / 100 != 2) {
      throw errorOf(response.statusCode(), response.body());
    }
    return new ServerResponse(response.statusCode(), response.body());
  }

  private HttpResponse<String> exchange(HttpRequest request) {
    try {
      return http.send(request, BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (HttpTimeoutException e) {
      throw unreachable("no answer within " + timeout.toMillis() + " ms", e);
    } catch (ConnectException e) {
      throw unreachable("connection refused", e);
    } catch (IOException e) {
      throw unreachable(e.toString(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw unreachable("interrupted while waiting for the answer", e);
    }
  }

  private CommandFailure unreachable(String why, Exception cause) {
    return new CommandFailure(
        ExitCodes.UNAVAILABLE, "cannot reach the server at " + server + ": " + why, cause);
  }

  /** API.md's error body {@code {"error":{"code","message"}}}, or whatever else came. */
  private static CommandFailure errorOf(int status, String body) {
    JsonNode error = parseOrMissing(body).path("error");
    String code = error.path("code").asText("");
    if (code.isEmpty()) {
      String raw = body.strip();
      if (raw.length() > MAX_RAW_ERROR_CHARS) {
        raw = raw.substring(0, MAX_RAW_ERROR_CHARS) + "...";
      }
      return new CommandFailure(
          ExitCodes.forServerError(status, null),
          "HTTP " + status + (raw.isEmpty() ? "" : ": " + raw));
    }
    return new CommandFailure(
        ExitCodes.forServerError(status, code),
        code,
        code + ": " + error.path("message").asText(""));
  }

  private static JsonNode parseOrMissing(String body) {
    try {
      return Json.parse(body);
    } catch (IllegalArgumentException notJson) {
      return Json.MAPPER.missingNode();
    }
  }
}
