package dev.hourglass.server.series;

import dev.hourglass.Hourglass;
import dev.hourglass.QueueStats;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dashboard's history: one background loop that, every {@link #INTERVAL}, reads each queue's
 * counters from Redis (so every client of the queue counts, not only this server) and keeps the
 * rates per second of the last hour, {@link #POINTS} points per queue, for at most {@link
 * #MAX_QUEUES} queues (the first by name). Queues that no longer exist are forgotten; a queue
 * created between two samples gets its first interval from zero. Lateness percentiles come from
 * {@link LatenessSamples}: this server's deliveries only.
 */
public final class QueueSeries implements AutoCloseable {
  /** The time between two samples. */
  public static final Duration INTERVAL = Duration.ofSeconds(10);

  /** The points kept per queue: an hour of samples. */
  public static final int POINTS = 360;

  /** The most queues tracked. */
  public static final int MAX_QUEUES = 1000;

  private static final Logger log = LoggerFactory.getLogger(QueueSeries.class);

  private final Hourglass hourglass;
  private final LatenessSamples lateness;
  private final Clock clock;
  private static final QueueStats.Counters ZERO = new QueueStats.Counters(0, 0, 0, 0, 0, 0, 0);

  private final Map<String, Track> tracks = new ConcurrentHashMap<>();

  /** Every queue of the previous sample (null before the first), and when it was taken. */
  private Set<String> previousNames;

  private long previousNanos;
  private final ScheduledExecutorService loop =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "hourglass-series");
            t.setDaemon(true);
            return t;
          });

  /**
   * The series, not sampling until {@link #start()}.
   *
   * @param hourglass the client whose queues it reads
   * @param lateness this server's delivery lateness, drained at each sample
   * @param clock the time each point is stamped with
   */
  public QueueSeries(Hourglass hourglass, LatenessSamples lateness, Clock clock) {
    this.hourglass = hourglass;
    this.lateness = lateness;
    this.clock = clock;
  }

  /** Takes the first sample now (the baseline of the rates), then one every {@link #INTERVAL}. */
  public void start() {
    long ms = INTERVAL.toMillis();
    loop.scheduleWithFixedDelay(this::sampleLogged, 0, ms, TimeUnit.MILLISECONDS);
  }

  private void sampleLogged() {
    try {
      sample();
    } catch (RuntimeException e) {
      // Redis may be away for a while; the next interval tries again, and its rates span the gap.
      // A sample cut short by close() is not worth a warning.
      if (!loop.isShutdown()) {
        log.warn("queue series sample failed: {}", e.toString());
      }
    }
  }

  /**
   * Reads every queue's counters once and appends a point to each queue that has a previous sample.
   * Runs on the loop's thread; tests call it to take a sample now.
   */
  public synchronized void sample() {
    Set<String> names = new TreeSet<>(hourglass.queueNames());
    List<String> kept = names.stream().limit(MAX_QUEUES).toList();
    tracks.keySet().retainAll(kept);
    Map<String, LatenessSamples.Percentiles> late = lateness.drain();
    long now = clock.millis();
    long nanos = System.nanoTime();
    for (String name : kept) {
      QueueStats.Counters c = hourglass.queue(name).stats().counters();
      Track t = tracks.computeIfAbsent(name, n -> new Track());
      if (previousNames != null && !previousNames.contains(name)) {
        // Created since the last sample: its counters started at zero then.
        t.baseline(ZERO, previousNanos);
      }
      t.add(now, nanos, c, late.get(name));
    }
    previousNames = names;
    previousNanos = nanos;
  }

  /**
   * The points of the last {@code window}, oldest first; empty for an unknown queue.
   *
   * @param queue the queue's name
   * @param window how far back
   * @return the points
   */
  public List<SeriesPoint> points(String queue, Duration window) {
    Track t = tracks.get(queue);
    return t == null ? List.of() : t.since(clock.millis() - window.toMillis());
  }

  /**
   * The newest point of the queue, if it has one.
   *
   * @param queue the queue's name
   * @return the point, or empty when it has none yet or the queue is unknown
   */
  public Optional<SeriesPoint> latest(String queue) {
    Track t = tracks.get(queue);
    return t == null ? Optional.empty() : t.latest();
  }

  @Override
  public void close() {
    loop.shutdownNow();
  }

  /** One queue's previous counters and its points. */
  private static final class Track {
    private final ArrayDeque<SeriesPoint> points = new ArrayDeque<>();
    private QueueStats.Counters last;
    private long lastNanos;

    synchronized void baseline(QueueStats.Counters c, long nanos) {
      last = c;
      lastNanos = nanos;
    }

    synchronized void add(
        long t, long nanos, QueueStats.Counters c, LatenessSamples.Percentiles late) {
      if (last != null) {
        double seconds = Math.max(1e-3, (nanos - lastNanos) / 1e9);
        points.addLast(
            new SeriesPoint(
                t,
                rate(c.enqueued(), last.enqueued(), seconds),
                rate(c.delivered(), last.delivered(), seconds),
                rate(c.acked(), last.acked(), seconds),
                rate(c.retried(), last.retried(), seconds),
                rate(c.dead(), last.dead(), seconds),
                late == null ? null : late.p50Ms(),
                late == null ? null : late.p99Ms()));
        while (points.size() > POINTS) {
          points.removeFirst();
        }
      }
      last = c;
      lastNanos = nanos;
    }

    /** Counters only grow; a drop means the queue was deleted and made anew: no rate then. */
    private static double rate(long now, long before, double seconds) {
      long delta = now - before;
      return delta <= 0 ? 0 : Math.round(delta / seconds * 100) / 100.0;
    }

    synchronized List<SeriesPoint> since(long fromMs) {
      List<SeriesPoint> out = new ArrayList<>();
      for (SeriesPoint p : points) {
        if (p.t() > fromMs) {
          out.add(p);
        }
      }
      return out;
    }

    synchronized Optional<SeriesPoint> latest() {
      return Optional.ofNullable(points.peekLast());
    }
  }
}
