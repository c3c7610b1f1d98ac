package dev.hourglass.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code hourglass stats QUEUE --watch}: reads the queue every interval and shows its counts and
 * the rates of its counters since the read before.
 */
final class StatsWatch {
  /** The counters of {@code GET /v1/queues/{queue}} shown as per-second rates. */
  static final List<String> COUNTERS = List.of("enqueued", "delivered", "acked", "retried", "dead");

  private static final List<String> COUNTS = List.of("delayed", "ready", "inflight", "dead");

  /** Moves the cursor home and clears the screen (ANSI), so each frame replaces the last. */
  private static final String CLEAR = "\033[H\033[2J";

  private final ServerClient client;
  private final String queue;
  private final PrintWriter out;
  private final Mode mode;
  private final Duration interval;

  /** How each read is shown. */
  enum Mode {
    /** Redraws the screen: for a terminal. */
    REDRAW,
    /** One line per read: for a pipe or file. */
    LINES,
    /** The server's JSON, one document per line. */
    JSON
  }

  StatsWatch(ServerClient client, String queue, PrintWriter out, Mode mode, Duration interval) {
    this.client = client;
    this.queue = queue;
    this.out = out;
    this.mode = mode;
    this.interval = interval;
  }

  /**
   * Reads and shows the queue {@code count} times (null: until interrupted), waiting the interval
   * between reads; stops early, without error, when stdout is closed or the thread is interrupted.
   */
  void run(Integer count) {
    JsonNode previous = null;
    long previousNanos = 0;
    for (int n = 0; count == null || n < count; n++) {
      if (n > 0 && !pause()) {
        return;
      }
      ServerResponse answer = client.get(ApiPaths.queue(queue));
      long nanos = System.nanoTime();
      Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
      JsonNode current = answer.json();
      List<String> rates = rates(previous, current, nanos - previousNanos);
      switch (mode) {
        case REDRAW -> out.print(CLEAR + frame(now, current, rates) + System.lineSeparator());
        case LINES -> out.println(line(now, current, rates));
        case JSON -> out.println(answer.body().strip());
      }
      out.flush();
      if (out.checkError()) {
        return; // stdout is closed, e.g. piped into head: nobody to show more to.
      }
      previous = current;
      previousNanos = nanos;
    }
  }

  private boolean pause() {
    try {
      Thread.sleep(interval.toMillis());
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * The per-second rate of each of {@link #COUNTERS} between two reads, {@code elapsedNanos} apart,
   * formatted like {@code 12.5}; {@code -} without an earlier read, a counter or time between them,
   * or when a counter went down (the queue was deleted and made again).
   */
  static List<String> rates(JsonNode before, JsonNode after, long elapsedNanos) {
    List<String> rates = new ArrayList<>();
    for (String counter : COUNTERS) {
      JsonNode from = before == null ? null : before.path("counters").path(counter);
      JsonNode to = after.path("counters").path(counter);
      if (from == null
          || !from.isIntegralNumber()
          || !to.isIntegralNumber()
          || to.asLong() < from.asLong()
          || elapsedNanos <= 0) {
        rates.add("-");
      } else {
        double perSecond = (to.asLong() - from.asLong()) * 1e9 / elapsedNanos;
        rates.add(String.format(Locale.ROOT, "%.1f", perSecond));
      }
    }
    return rates;
  }

  /** One line: {@code <time> <queue> delayed=3 ... paused=no enqueued/s=1.5 ...}. */
  static String line(Instant at, JsonNode queue, List<String> rates) {
    StringBuilder line =
        new StringBuilder().append(at).append(' ').append(queue.path("name").asText());
    for (String count : COUNTS) {
      line.append(' ').append(count).append('=').append(queue.path(count).asText("-"));
    }
    line.append(" paused=").append(QueueText.paused(queue));
    for (int i = 0; i < COUNTERS.size(); i++) {
      line.append(' ').append(COUNTERS.get(i)).append("/s=").append(rates.get(i));
    }
    return line.toString();
  }

  /** A screen: the queue and time, a table of its counts, a table of the rates. */
  static String frame(Instant at, JsonNode queue, List<String> rates) {
    TextTable counts = new TextTable("DELAYED", "READY", "INFLIGHT", "DEAD", "PAUSED");
    counts.row(
        queue.path("delayed").asText("-"),
        queue.path("ready").asText("-"),
        queue.path("inflight").asText("-"),
        queue.path("dead").asText("-"),
        QueueText.paused(queue));
    TextTable perSecond =
        new TextTable("ENQUEUED/S", "DELIVERED/S", "ACKED/S", "RETRIED/S", "DEAD/S");
    perSecond.row(rates.toArray());
    String nl = System.lineSeparator();
    return queue.path("name").asText()
        + " at "
        + at
        + " (Ctrl-C to stop)"
        + nl
        + nl
        + counts.render()
        + nl
        + nl
        + perSecond.render();
  }
}
