package dev.hourglass.server.push;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A push endpoint for tests: a JDK {@link HttpServer} on a free loopback port whose paths answer
 * each POSTed job as their {@link Behaviour} decides, and that records what it answered per job id.
 * Its executor has a thread per request, so hanging answers never hold back the others.
 *
 * <p>Its slow answers ({@link #okDelay}, {@link #hang}) are what the tests put the server through:
 * an endpoint that takes its time, or answers after the delivery's timeout. They are timed waits by
 * design, not synchronisation; {@link #releaseHangs()} and {@link #close()} cut them short.
 */
final class PushReceiver implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What the endpoint does with one POST. */
  enum Outcome {
    /** Answers 2xx after the receiver's {@link #okDelay} (none by default). */
    OK,
    /** Answers 500. */
    FAIL,
    /** Answers nothing for {@link #hang} (past the delivery's timeout), then 503. */
    HANG,
    /** Closes the connection without an answer. */
    CLOSE,
    /** Answers nothing until {@link #releaseHangs()}, then 500. */
    HANG_UNTIL_RELEASED
  }

  /** Decides a POST's outcome from the job id and the attempt number the server sent. */
  @FunctionalInterface
  interface Behaviour {
    Outcome decide(String id, int attempt);
  }

  private final HttpServer server;
  private final ExecutorService threads =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "push-receiver");
            t.setDaemon(true);
            return t;
          });
  private final CountDownLatch released = new CountDownLatch(1);
  private final Map<String, AtomicInteger> posts = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> okAnswers = new ConcurrentHashMap<>();
  private final List<String> postsAfterOk = new CopyOnWriteArrayList<>();
  private final Map<Outcome, AtomicInteger> outcomes = new EnumMap<>(Outcome.class);
  private final AtomicInteger waiting = new AtomicInteger();
  private volatile Duration okDelay = Duration.ZERO;
  private volatile Duration hang = Duration.ofMillis(1500);

  PushReceiver() {
    for (Outcome o : Outcome.values()) {
      outcomes.put(o, new AtomicInteger());
    }
    try {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 200);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setExecutor(threads);
    server.start();
  }

  /** Serves {@code path} with {@code behaviour}; returns its URL. */
  String serve(String path, Behaviour behaviour) {
    server.createContext(path, exchange -> answer(exchange, behaviour));
    return "http://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  PushReceiver okDelay(Duration delay) {
    this.okDelay = delay;
    return this;
  }

  PushReceiver hang(Duration hang) {
    this.hang = hang;
    return this;
  }

  /**
   * Ends every {@link Outcome#HANG_UNTIL_RELEASED} wait, and every {@link #okDelay} and {@link
   * #hang}, now and from now on.
   */
  void releaseHangs() {
    released.countDown();
  }

  int posts(String id) {
    AtomicInteger n = posts.get(id);
    return n == null ? 0 : n.get();
  }

  /** How many 2xx answers went out for the job. */
  int okAnswers(String id) {
    AtomicInteger n = okAnswers.get(id);
    return n == null ? 0 : n.get();
  }

  int totalOkAnswers() {
    return okAnswers.values().stream().mapToInt(AtomicInteger::get).sum();
  }

  /** POSTs (id and attempt) that came for a job after a 2xx had been answered for it. */
  List<String> postsAfterOk() {
    return new ArrayList<>(postsAfterOk);
  }

  int outcomes(Outcome o) {
    return outcomes.get(o).get();
  }

  /** POSTs being held right now by {@link Outcome#HANG_UNTIL_RELEASED}. */
  int waiting() {
    return waiting.get();
  }

  private void answer(HttpExchange exchange, Behaviour behaviour) throws IOException {
    try (exchange) {
      JsonNode job = JSON.readTree(exchange.getRequestBody().readAllBytes());
      String id = job.path("id").asText();
      int attempt = job.path("attempt").asInt();
      posts.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
      if (okAnswers(id) > 0) {
        postsAfterOk.add(id + " attempt " + attempt);
      }
      Outcome outcome = behaviour.decide(id, attempt);
      outcomes.get(outcome).incrementAndGet();
      switch (outcome) {
        case OK -> {
          takeTime(okDelay);
          // Counted before it is sent: once the server has the answer, the count includes it.
          AtomicInteger ok = okAnswers.computeIfAbsent(id, k -> new AtomicInteger());
          ok.incrementAndGet();
          try {
            exchange.sendResponseHeaders(200 + Math.floorMod(id.hashCode(), 5), -1);
          } catch (IOException e) {
            ok.decrementAndGet(); // the server had hung up: no 2xx reached it
            throw e;
          }
        }
        case FAIL -> exchange.sendResponseHeaders(500, -1);
        case HANG -> {
          takeTime(hang);
          exchange.sendResponseHeaders(503, -1);
        }
        case CLOSE -> {
          // Closing an exchange that sent no headers closes the connection.
        }
        case HANG_UNTIL_RELEASED -> {
          waiting.incrementAndGet();
          try {
            released.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } finally {
            waiting.decrementAndGet();
          }
          exchange.sendResponseHeaders(500, -1);
        }
      }
    }
  }

  /** Holds the answer for {@code d}, or until {@link #releaseHangs()}. */
  private void takeTime(Duration d) {
    if (d.isZero()) {
      return;
    }
    try {
      released.await(d.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    releaseHangs();
    server.stop(0);
    threads.shutdownNow();
    try {
      threads.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
