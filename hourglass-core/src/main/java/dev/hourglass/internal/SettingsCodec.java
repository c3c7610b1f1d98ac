package dev.hourglass.internal;

import dev.hourglass.Backoff;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.QueueLimits;
import dev.hourglass.QueueSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

/** Queue settings to and from the fields of the queue's settings hash in Redis. */
public final class SettingsCodec {
  /** Settings-hash fields of {@link QueueSettings#attributes()} are this prefix plus the key. */
  static final String ATTRIBUTE_PREFIX = "attr.";

  /** The fields of a queue's flow-control limits ({@link QueueSettings#limits()}). */
  static final Set<String> LIMIT_FIELDS = Set.of("rateMax", "ratePeriodMs", "concurrency");

  private SettingsCodec() {}

  static Map<String, String> toFields(QueueSettings s) {
    Map<String, String> f = new LinkedHashMap<>();
    f.put("partitions", Integer.toString(s.partitions()));
    f.put("pools", Integer.toString(s.pools()));
    f.put("slotMs", Long.toString(s.slotWidth().toMillis()));
    f.put("maxAttempts", Integer.toString(s.maxAttempts()));
    f.put("backoff", backoffText(s.backoff()));
    f.put("visibilityMs", Long.toString(s.visibility().toMillis()));
    f.put("ttlMs", Long.toString(s.ttl().map(Duration::toMillis).orElse(0L)));
    f.put("priority", Integer.toString(s.priority()));
    f.put("deadMaxAgeMs", Long.toString(s.deadMaxAge().toMillis()));
    f.put("deadMaxCount", Integer.toString(s.deadMaxCount()));
    // always written ('' follows the client), so that an update can unset it
    f.put("replicaAcks", s.replicaAcks().isPresent() ? "" + s.replicaAcks().getAsInt() : "");
    f.put("compressAbove", s.compressAbove().isPresent() ? "" + s.compressAbove().getAsInt() : "");
    s.attributes().forEach((k, v) -> f.put(ATTRIBUTE_PREFIX + k, v));
    // always written ('' for none), so that an update can remove them
    var rate = s.limits().flatMap(QueueLimits::rate);
    f.put("rateMax", rate.map(r -> Integer.toString(r.max())).orElse(""));
    f.put("ratePeriodMs", rate.map(r -> Long.toString(r.period().toMillis())).orElse(""));
    var concurrency = s.limits().map(QueueLimits::concurrency).orElse(OptionalInt.empty());
    f.put("concurrency", concurrency.isPresent() ? "" + concurrency.getAsInt() : "");
    return f;
  }

  static QueueSettings fromFields(Map<String, String> f) {
    QueueSettings.Builder b = QueueSettings.builder();
    if (f.containsKey("partitions")) b.partitions(Integer.parseInt(f.get("partitions")));
    if (f.containsKey("pools")) b.pools(Integer.parseInt(f.get("pools")));
    if (f.containsKey("slotMs")) b.slotWidth(Duration.ofMillis(Long.parseLong(f.get("slotMs"))));
    if (f.containsKey("maxAttempts")) b.maxAttempts(Integer.parseInt(f.get("maxAttempts")));
    if (f.containsKey("backoff")) b.backoff(parseBackoff(f.get("backoff")));
    if (f.containsKey("visibilityMs"))
      b.visibility(Duration.ofMillis(Long.parseLong(f.get("visibilityMs"))));
    long ttl = Long.parseLong(f.getOrDefault("ttlMs", "0"));
    b.ttl(ttl > 0 ? Duration.ofMillis(ttl) : null);
    if (f.containsKey("priority")) b.priority(Integer.parseInt(f.get("priority")));
    if (f.containsKey("deadMaxAgeMs"))
      b.deadMaxAge(Duration.ofMillis(Long.parseLong(f.get("deadMaxAgeMs"))));
    if (f.containsKey("deadMaxCount")) b.deadMaxCount(Integer.parseInt(f.get("deadMaxCount")));
    String replicaAcks = f.getOrDefault("replicaAcks", "");
    b.replicaAcks(replicaAcks.isEmpty() ? null : Integer.parseInt(replicaAcks));
    String compressAbove = f.getOrDefault("compressAbove", "");
    b.compressAbove(compressAbove.isEmpty() ? null : Integer.parseInt(compressAbove));
    b.limits(limits(f));
    f.forEach(
        (k, v) -> {
          if (k.startsWith(ATTRIBUTE_PREFIX)) {
            b.attribute(k.substring(ATTRIBUTE_PREFIX.length()), v);
          }
        });
    return b.build();
  }

  private static QueueLimits limits(Map<String, String> f) {
    String rateMax = f.getOrDefault("rateMax", "");
    String concurrency = f.getOrDefault("concurrency", "");
    if (rateMax.isEmpty() && concurrency.isEmpty()) {
      return null;
    }
    QueueLimits.Rate rate =
        rateMax.isEmpty()
            ? null
            : new QueueLimits.Rate(
                Integer.parseInt(rateMax),
                Duration.ofMillis(Long.parseLong(f.get("ratePeriodMs"))));
    return QueueLimits.of(rate, concurrency.isEmpty() ? null : Integer.parseInt(concurrency));
  }

  /** {@code fixed:5000}, {@code exponential:1000:3600000:0.2} or {@code schedule:15000,180000}. */
  public static String backoffText(Backoff backoff) {
    if (backoff instanceof Backoff.Fixed f) {
      return "fixed:" + f.delay().toMillis();
    }
    if (backoff instanceof Backoff.Exponential e) {
      return "exponential:" + e.base().toMillis() + ":" + e.max().toMillis() + ":" + e.jitter();
    }
    List<String> ms = new ArrayList<>();
    for (Duration d : ((Backoff.Schedule) backoff).delays()) {
      ms.add(Long.toString(d.toMillis()));
    }
    return "schedule:" + String.join(",", ms);
  }

  public static Backoff parseBackoff(String text) {
    String[] parts = text.split(":");
    try {
      switch (parts[0]) {
        case "fixed":
          return Backoff.fixed(Duration.ofMillis(Long.parseLong(parts[1])));
        case "exponential":
          return Backoff.exponential(
              Duration.ofMillis(Long.parseLong(parts[1])),
              Duration.ofMillis(Long.parseLong(parts[2])),
              Double.parseDouble(parts[3]));
        case "schedule":
          List<Duration> delays = new ArrayList<>();
          for (String s : parts[1].split(",")) {
            delays.add(Duration.ofMillis(Long.parseLong(s)));
          }
          return Backoff.schedule(delays);
        default:
          throw new InvalidArgumentException("backoff", "unknown backoff '" + text + "'");
      }
    } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
      throw new InvalidArgumentException("backoff", "cannot read backoff '" + text + "'");
    }
  }
}
