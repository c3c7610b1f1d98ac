package dev.hourglass.model;

import dev.hourglass.internal.store.Keys;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * One try of a property: the queue under test, the facts that hold across the model's possible
 * states (receipts issued), the step log for failure messages, and the coverage tally.
 */
public final class Run {
  public final String queueName;
  public final int partitions;
  public final long slotWidthMs;
  public final Coverage coverage;
  public final ModelLimits limits;

  /** Whether calls run in pairs from two clients (requeue's follow-up read may see the other). */
  final boolean concurrent;

  /** Every receipt ever issued per id, in order, across incarnations of the id. */
  final Map<String, List<String>> receipts = new HashMap<>();

  private final StringBuilder log = new StringBuilder();
  private int payloads;
  private int step;

  public Run(
      String queueName,
      int partitions,
      long slotWidthMs,
      ModelLimits limits,
      boolean concurrent,
      Coverage coverage) {
    this.queueName = queueName;
    this.limits = limits;
    this.partitions = partitions;
    this.slotWidthMs = slotWidthMs;
    this.concurrent = concurrent;
    this.coverage = coverage;
  }

  public int partitionOf(String id) {
    return Keys.partitionOf(id, partitions);
  }

  int[] partitionsOf(List<String> ids) {
    return ids.stream().mapToInt(this::partitionOf).distinct().sorted().toArray();
  }

  int[] allPartitions() {
    return IntStream.range(0, partitions).toArray();
  }

  String newPayload(String id) {
    return "p-" + id + "-" + (++payloads);
  }

  /** Starts the next step; returns its number. */
  public int nextStep() {
    return ++step;
  }

  public int step() {
    return step;
  }

  public void log(String line) {
    log.append(line).append('\n');
  }

  public String log() {
    return log.toString();
  }

  List<String> issued(String id) {
    return receipts.getOrDefault(id, List.of());
  }

  void issue(String id, String receipt) {
    receipts.computeIfAbsent(id, k -> new ArrayList<>()).add(receipt);
  }
}
