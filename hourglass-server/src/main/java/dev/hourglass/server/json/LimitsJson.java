package dev.hourglass.server.json;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hourglass.QueueLimits;
import java.time.Duration;
import java.util.OptionalLong;

/**
 * A queue's flow-control limits in the API's JSON: {@code {"rate": {"max", "periodMs"},
 * "concurrency"}}, either part optional (absent or null: none); {@code "limits": null} (or an
 * object with neither part) means no limits.
 */
public final class LimitsJson {
  private LimitsJson() {}

  /**
   * The limits of a {@code limits} object, or null for none.
   *
   * @param f the {@code limits} object's fields
   * @return the limits, or null when it sets neither part
   * @throws ApiException 400 {@code invalid_field} naming an unknown, missing or out-of-range field
   */
  public static QueueLimits read(Fields f) {
    f.only("rate", "concurrency");
    QueueLimits.Rate rate = f.optObject("rate").map(LimitsJson::rate).orElse(null);
    OptionalLong concurrency = f.optLong("concurrency", 1, QueueLimits.MAX_CONCURRENCY);
    if (rate == null && concurrency.isEmpty()) {
      return null;
    }
    return QueueLimits.of(
        rate, concurrency.isPresent() ? Integer.valueOf((int) concurrency.getAsLong()) : null);
  }

  private static QueueLimits.Rate rate(Fields r) {
    r.only("max", "periodMs");
    long max =
        r.optLong("max", 1, QueueLimits.MAX_RATE)
            .orElseThrow(() -> r.invalid("max", "is required"));
    long periodMs =
        r.optLong("periodMs", 1, QueueLimits.MAX_PERIOD.toMillis())
            .orElseThrow(() -> r.invalid("periodMs", "is required"));
    return new QueueLimits.Rate((int) max, Duration.ofMillis(periodMs));
  }

  /**
   * Puts {@code "limits"} into {@code o}: the object, or null when the queue has none.
   *
   * @param o a queue's JSON object
   * @param limits the queue's limits, or null for none
   */
  public static void write(ObjectNode o, QueueLimits limits) {
    if (limits == null) {
      o.putNull("limits");
      return;
    }
    ObjectNode l = o.putObject("limits");
    if (limits.rate().isPresent()) {
      QueueLimits.Rate rate = limits.rate().get();
      l.putObject("rate").put("max", rate.max()).put("periodMs", rate.period().toMillis());
    } else {
      l.putNull("rate");
    }
    if (limits.concurrency().isPresent()) {
      l.put("concurrency", limits.concurrency().getAsInt());
    } else {
      l.putNull("concurrency");
    }
  }
}
