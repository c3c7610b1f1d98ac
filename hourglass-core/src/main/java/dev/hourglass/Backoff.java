package dev.hourglass;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How long a failed job waits before its next attempt. Three kinds: {@link #fixed fixed}, {@link
 * #exponential exponential} (with a cap and jitter) and an explicit {@link #schedule schedule} such
 * as {@code 15s 3m 10m 30m 1h}. Every delay must be between 0 and {@link #MAX_DELAY} (about 49
 * days).
 */
public sealed interface Backoff permits Backoff.Fixed, Backoff.Exponential, Backoff.Schedule {
  /** The longest delay a backoff may produce, 2^32-1 ms. */
  Duration MAX_DELAY = Duration.ofMillis(0xFFFF_FFFFL);

  /** The most steps an explicit schedule may have. */
  int MAX_SCHEDULE_STEPS = 63;

  /**
   * The delay before the next attempt after failed attempt number {@code attempt} (1-based).
   *
   * @param attempt the attempt that failed, 1-based
   * @param random a uniform value in [0, 1), used for jitter
   * @return between 0 and {@link #MAX_DELAY}
   */
  Duration delayAfter(int attempt, double random);

  /**
   * The same delay after every failure.
   *
   * @param delay 0 to {@link #MAX_DELAY}
   * @return the backoff
   * @throws InvalidArgumentException when the delay is null or out of range
   */
  static Fixed fixed(Duration delay) {
    return new Fixed(delay);
  }

  /**
   * {@code base * 2^(attempt-1)}, capped at {@code max}, without jitter.
   *
   * @param base the first delay, positive, at most {@link #MAX_DELAY}
   * @param max the cap, at least {@code base}, at most {@link #MAX_DELAY}
   * @return the backoff
   * @throws InvalidArgumentException when a delay is null or out of range
   */
  static Exponential exponential(Duration base, Duration max) {
    return new Exponential(base, max, 0);
  }

  /**
   * {@code base * 2^(attempt-1)}, capped at {@code max}, then reduced by up to {@code jitter}
   * (0..1) of itself at random so that many jobs failing together do not retry together.
   *
   * @param base the first delay, positive, at most {@link #MAX_DELAY}
   * @param max the cap, at least {@code base}, at most {@link #MAX_DELAY}
   * @param jitter the largest share of a delay taken off at random, 0 to 1
   * @return the backoff
   * @throws InvalidArgumentException when a delay is null or out of range, or the jitter is
   */
  static Exponential exponential(Duration base, Duration max, double jitter) {
    return new Exponential(base, max, jitter);
  }

  /**
   * Explicit delays: the n-th failure waits {@code delays[n-1]}; failures past the end wait the
   * last one.
   *
   * @param delays 1 to {@value #MAX_SCHEDULE_STEPS} delays, each 0 to {@link #MAX_DELAY}
   * @return the backoff
   * @throws InvalidArgumentException naming the delay that is null or out of range
   */
  static Schedule schedule(List<Duration> delays) {
    return new Schedule(delays);
  }

  /**
   * Explicit delays, e.g. {@code schedule(ofSeconds(15), ofMinutes(3), ofMinutes(10))}.
   *
   * @param delays 1 to {@value #MAX_SCHEDULE_STEPS} delays, each 0 to {@link #MAX_DELAY}
   * @return the backoff
   * @throws InvalidArgumentException naming the delay that is out of range
   * @throws NullPointerException when a delay is null
   */
  static Schedule schedule(Duration... delays) {
    return new Schedule(List.of(delays));
  }

  /**
   * Parses a schedule written as space- or comma-separated durations with units {@code ms s m h d},
   * e.g. {@code "15s 3m 10m 30m 30m 1h 2h 6h 15h"}.
   *
   * @param text the durations
   * @return the backoff
   * @throws InvalidArgumentException naming {@code backoff} when the text is not such a list, or a
   *     delay is out of range
   */
  static Schedule parseSchedule(String text) {
    if (text == null || text.isBlank()) {
      throw new InvalidArgumentException("backoff", "schedule text is empty");
    }
    Pattern step = Pattern.compile("(\\d{1,10})(ms|s|m|h|d)");
    List<Duration> delays = new ArrayList<>();
    for (String token : text.trim().split("[\\s,]+")) {
      Matcher m = step.matcher(token.toLowerCase(Locale.ROOT));
      if (!m.matches()) {
        throw new InvalidArgumentException(
            "backoff", "'" + token + "' is not a duration like 15s, 3m, 1h, 500ms or 2d");
      }
      long n = Long.parseLong(m.group(1));
      delays.add(
          switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
          });
    }
    return new Schedule(delays);
  }

  /**
   * The same delay after every failure.
   *
   * @param delay 0 to {@link #MAX_DELAY}
   */
  record Fixed(Duration delay) implements Backoff {
    /**
     * Checks the delay.
     *
     * @param delay 0 to {@link #MAX_DELAY}
     * @throws InvalidArgumentException when it is null or out of range
     */
    public Fixed {
      checkDelay("backoff.delay", delay);
    }

    @Override
    public Duration delayAfter(int attempt, double random) {
      return delay;
    }
  }

  /**
   * Doubling delays from {@code base}, capped at {@code max}, minus up to {@code jitter} of each at
   * random.
   *
   * @param base the first delay, positive, at most {@link #MAX_DELAY}
   * @param max the cap, at least {@code base}, at most {@link #MAX_DELAY}
   * @param jitter the largest share of a delay taken off at random, 0 to 1
   */
  record Exponential(Duration base, Duration max, double jitter) implements Backoff {
    /**
     * Checks the delays and the jitter.
     *
     * @param base the first delay, positive, at most {@link #MAX_DELAY}
     * @param max the cap, at least {@code base}, at most {@link #MAX_DELAY}
     * @param jitter the largest share of a delay taken off at random, 0 to 1
     * @throws InvalidArgumentException naming the value that is null or out of range
     */
    public Exponential {
      checkDelay("backoff.base", base);
      checkDelay("backoff.max", max);
      if (base.isZero()) {
        throw new InvalidArgumentException("backoff.base", "must be positive");
      }
      if (max.compareTo(base) < 0) {
        throw new InvalidArgumentException("backoff.max", "must not be shorter than backoff.base");
      }
      if (!(jitter >= 0 && jitter <= 1)) {
        throw new InvalidArgumentException(
            "backoff.jitter", "must be between 0 and 1, was " + jitter);
      }
    }

    @Override
    public Duration delayAfter(int attempt, double random) {
      int doublings = Math.max(0, Math.min(attempt - 1, 40));
      double raw = Math.min((double) base.toMillis() * Math.pow(2, doublings), max.toMillis());
      return Duration.ofMillis(Math.round(raw * (1 - jitter * random)));
    }
  }

  /**
   * Explicit delays per failure; the last repeats.
   *
   * @param delays 1 to {@value #MAX_SCHEDULE_STEPS} delays, each 0 to {@link #MAX_DELAY}
   */
  record Schedule(List<Duration> delays) implements Backoff {
    /**
     * Checks the delays and keeps an unmodifiable copy of them.
     *
     * @param delays 1 to {@value #MAX_SCHEDULE_STEPS} delays, each 0 to {@link #MAX_DELAY}
     * @throws InvalidArgumentException naming the delay that is null or out of range
     */
    public Schedule {
      if (delays == null || delays.isEmpty()) {
        throw new InvalidArgumentException("backoff.delays", "must hold at least one delay");
      }
      if (delays.size() > MAX_SCHEDULE_STEPS) {
        throw new InvalidArgumentException(
            "backoff.delays", "has " + delays.size() + " steps, at most " + MAX_SCHEDULE_STEPS);
      }
      for (int i = 0; i < delays.size(); i++) {
        checkDelay("backoff.delays[" + i + "]", delays.get(i));
      }
      delays = List.copyOf(delays);
    }

    @Override
    public Duration delayAfter(int attempt, double random) {
      return delays.get(Math.max(0, Math.min(attempt, delays.size()) - 1));
    }
  }

  private static void checkDelay(String field, Duration delay) {
    if (delay == null) {
      throw new InvalidArgumentException(field, "is required");
    }
    if (delay.isNegative() || delay.compareTo(MAX_DELAY) > 0) {
      throw new InvalidArgumentException(
          field,
          "must be between 0 and " + MAX_DELAY.toMillis() + " ms, was " + delay.toMillis() + " ms");
    }
  }
}
