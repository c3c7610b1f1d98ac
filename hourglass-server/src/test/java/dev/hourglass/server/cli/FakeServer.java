package dev.hourglass.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A stand-in for the Hourglass server: records every request and answers with canned responses, in
 * order, the last one repeating.
 */
final class FakeServer implements AutoCloseable {
  private final HttpServer http;
  private final ExecutorService executor = Executors.newCachedThreadPool();
  private final List<Request> requests = new CopyOnWriteArrayList<>();
  private final Deque<Answer> answers = new ArrayDeque<>();
  private final CountDownLatch closed = new CountDownLatch(1);

  /** One request as the fake received it. */
  record Request(
      String method, String path, String query, Map<String, String> headers, String body) {
    /** A header by case-insensitive name, or null. */
    String header(String name) {
      return headers.get(name);
    }

    JsonNode json() {
      return Json.parse(body);
    }
  }

  private record Answer(int status, String body, boolean hang) {}

  private FakeServer() throws IOException {
    http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    http.setExecutor(executor);
    http.createContext("/", this::handle);
    http.start();
  }

  static FakeServer start() throws IOException {
    return new FakeServer();
  }

  /** Adds an answer; answers are used in order and the last repeats. */
  synchronized FakeServer answer(int status, String body) {
    answers.add(new Answer(status, body, false));
    return this;
  }

  /** Answers nothing until closed, to make the client time out. */
  synchronized FakeServer hang() {
    answers.add(new Answer(0, "", true));
    return this;
  }

  String url() {
    return "http://127.0.0.1:" + http.getAddress().getPort();
  }

  List<Request> requests() {
    return List.copyOf(requests);
  }

  /** The one request received; fails when there were none or several. */
  Request request() {
    if (requests.size() != 1) {
      throw new AssertionError("expected exactly one request, got " + requests);
    }
    return requests.get(0);
  }

  @Override
  public void close() {
    closed.countDown();
    http.stop(0);
    executor.shutdownNow();
  }

  private void handle(HttpExchange exchange) throws IOException {
    Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    exchange.getRequestHeaders().forEach((name, values) -> headers.put(name, values.get(0)));
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    requests.add(
        new Request(
            exchange.getRequestMethod(),
            exchange.getRequestURI().getRawPath(),
            exchange.getRequestURI().getRawQuery(),
            headers,
            body));
    Answer answer = nextAnswer();
    if (answer.hang()) {
      awaitClose();
      exchange.close();
      return;
    }
    byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
    if (!answer.body().isEmpty()) {
      exchange.getResponseHeaders().set("Content-Type", "application/json");
    }
    exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private synchronized Answer nextAnswer() {
    if (answers.isEmpty()) {
      return new Answer(
          500, "{\"error\":{\"code\":\"internal\",\"message\":\"no canned answer\"}}", false);
    }
    return answers.size() > 1 ? answers.poll() : answers.peek();
  }

  private void awaitClose() {
    try {
      closed.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
