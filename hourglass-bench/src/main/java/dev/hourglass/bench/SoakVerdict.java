package dev.hourglass.bench;

import dev.hourglass.bench.SoakFaults.Fault;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The soak's verdict from the ledger and the faults. A job is <b>lost</b> when its enqueue was
 * acknowledged, no cancel removed it (nor may have: a cancel of unknown outcome), and no consumer
 * recorded a delivery; <b>early</b> when a delivery was received before the job's due time;
 * <b>delivered-cancelled</b> when a delivery was received after a cancel that removed the job was
 * acknowledged. A duplicate (an id delivered more than once) counts as near a fault when a later
 * delivery was received within {@code [start, end + visibility + 2 s]} of a fault; lateness
 * (received - due of the first delivery) is reported for deliveries whose span from due to receipt
 * touches no such window.
 */
final class SoakVerdict {
  static final long WINDOW_TAIL_MS = SoakConsumer.VISIBILITY.toMillis() + 2000;

  private final Map<String, Long> due = new HashMap<>();
  private final Set<String> acknowledged = new HashSet<>();
  private final Map<String, Long> cancelledAt = new HashMap<>();
  private final Set<String> cancelUnknown = new HashSet<>();
  private final Map<String, List<Long>> deliveries = new HashMap<>();
  private final List<Fault> faults;
  private final List<String> kinds;
  private long unknownEnqueues;

  /**
   * The verdict on a ledger's records and the faults, with a count of each kind the faults hold.
   */
  SoakVerdict(List<String[]> records, List<Fault> faults) {
    this(records, faults, faults.stream().map(Fault::kind).distinct().toList());
  }

  /** The verdict on a ledger's records and the faults, with a count of each of {@code kinds}. */
  SoakVerdict(List<String[]> records, List<Fault> faults, List<String> kinds) {
    this.faults = faults;
    this.kinds = kinds;
    for (String[] r : records) {
      switch (r[0]) {
        case "E" -> {
          due.put(r[1], Long.parseLong(r[2]));
          acknowledged.add(r[1]);
        }
        case "U" -> {
          due.putIfAbsent(r[1], Long.parseLong(r[2]));
          unknownEnqueues++;
        }
        case "C" -> {
          if (Boolean.parseBoolean(r[3])) {
            cancelledAt.put(r[1], Long.parseLong(r[2]));
          }
        }
        case "CU" -> cancelUnknown.add(r[1]);
        case "D" ->
            deliveries.computeIfAbsent(r[1], k -> new ArrayList<>()).add(Long.parseLong(r[2]));
        default -> {}
      }
    }
    deliveries.values().forEach(Collections::sort);
  }

  /** Acknowledged, not cancelled (nor maybe cancelled), due by {@code nowMs}, not yet delivered. */
  long owed(long nowMs) {
    return acknowledged.stream()
        .filter(id -> expected(id) && due.get(id) <= nowMs && !deliveries.containsKey(id))
        .count();
  }

  private boolean expected(String id) {
    return !cancelledAt.containsKey(id) && !cancelUnknown.contains(id);
  }

  private boolean nearFault(long ms) {
    return faults.stream().anyMatch(f -> ms >= f.startMs() && ms <= f.endMs() + WINDOW_TAIL_MS);
  }

  private boolean spansFault(long fromMs, long toMs) {
    return faults.stream()
        .anyMatch(f -> fromMs <= f.endMs() + WINDOW_TAIL_MS && toMs >= f.startMs());
  }

  /** The verdict's figures, in the order they are printed. */
  Map<String, Object> figures() {
    Map<String, Object> v = new LinkedHashMap<>();
    long lost =
        acknowledged.stream().filter(id -> expected(id) && !deliveries.containsKey(id)).count();
    long early = 0;
    long duplicates = 0;
    long duplicatesNearFault = 0;
    long deliveredCancelled = 0;
    List<Long> lateness = new ArrayList<>();
    List<Long> latenessAll = new ArrayList<>();
    List<String> examples = new ArrayList<>();
    for (Map.Entry<String, List<Long>> e : deliveries.entrySet()) {
      String id = e.getKey();
      List<Long> times = e.getValue();
      Long dueMs = due.get(id);
      if (dueMs != null && times.get(0) < dueMs) {
        early++;
        examples.add("early:" + id);
      }
      Long cancel = cancelledAt.get(id);
      if (cancel != null && times.get(times.size() - 1) > cancel) {
        deliveredCancelled++;
        examples.add("delivered-cancelled:" + id);
      }
      if (times.size() > 1) {
        duplicates++;
        if (times.subList(1, times.size()).stream().allMatch(this::nearFault)) {
          duplicatesNearFault++;
        }
      }
      if (dueMs != null) {
        latenessAll.add(times.get(0) - dueMs);
        if (!spansFault(dueMs, times.get(0))) {
          lateness.add(times.get(0) - dueMs);
        }
      }
    }
    acknowledged.stream()
        .filter(id -> expected(id) && !deliveries.containsKey(id))
        .limit(20)
        .forEach(id -> examples.add("lost:" + id));
    Collections.sort(lateness);
    Collections.sort(latenessAll);
    v.put("acknowledged_enqueues", (long) acknowledged.size());
    v.put("unknown_or_failed_enqueues", unknownEnqueues);
    v.put("cancelled", (long) cancelledAt.size());
    v.put("cancel_outcome_unknown", (long) cancelUnknown.size());
    v.put("delivered_distinct", (long) deliveries.size());
    v.put("deliveries", deliveries.values().stream().mapToLong(List::size).sum());
    v.put("lost", lost);
    v.put("early", early);
    v.put("duplicates", duplicates);
    v.put("duplicates_near_fault", duplicatesNearFault);
    v.put("delivered_cancelled", deliveredCancelled);
    v.put("lateness_samples_outside_faults", (long) lateness.size());
    v.put("lateness_p50_ms", percentile(lateness, 0.50));
    v.put("lateness_p99_ms", percentile(lateness, 0.99));
    v.put("lateness_max_ms", percentile(lateness, 1.0));
    v.put("lateness_all_p99_ms", percentile(latenessAll, 0.99));
    v.put("lateness_all_max_ms", percentile(latenessAll, 1.0));
    v.put("faults", (long) faults.size());
    for (String kind : kinds) {
      v.put(
          "faults_" + kind.replace('-', '_'),
          faults.stream().filter(f -> f.kind().equals(kind)).count());
    }
    v.put("examples", String.join(",", examples.subList(0, Math.min(20, examples.size()))));
    return v;
  }

  private static long percentile(List<Long> sorted, double p) {
    if (sorted.isEmpty()) {
      return -1;
    }
    return sorted.get((int) Math.min(sorted.size() - 1, Math.ceil(p * sorted.size()) - 1));
  }

  /** True when nothing acknowledged was lost, nothing came early, no cancelled job came. */
  static boolean passed(Map<String, Object> figures) {
    return (long) figures.get("lost") == 0
        && (long) figures.get("early") == 0
        && (long) figures.get("delivered_cancelled") == 0;
  }
}
