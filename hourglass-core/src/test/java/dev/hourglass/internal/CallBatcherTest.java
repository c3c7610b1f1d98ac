package dev.hourglass.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.QueueSettings;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * {@link CallBatcher} without Redis: the sender is a stub whose replies the test completes by hand,
 * so the order of sends, what each carries and what each caller gets are exact.
 */
class CallBatcherTest {
  private record Call(List<Integer> items, CompletableFuture<List<Object>> reply) {}

  private final List<Call> calls = new CopyOnWriteArrayList<>();
  private final CallBatcher<Integer, String> batcher = batcher(3, CallBatcher.MAX_IN_FLIGHT);

  /** A batcher whose calls land in {@link #calls}, answered when the test completes them. */
  private CallBatcher<Integer, String> batcher(int maxBatch, int maxInFlight) {
    return new CallBatcher<>(
        items -> {
          CompletableFuture<List<Object>> reply = new CompletableFuture<>();
          calls.add(new Call(items, reply));
          return reply;
        },
        Runnable::run,
        maxBatch,
        maxInFlight);
  }

  private static List<Object> answers(List<Integer> items) {
    List<Object> out = new ArrayList<>();
    for (int i : items) {
      out.add(i < 0 ? new IllegalStateException("refused " + i) : "ok " + i);
    }
    return out;
  }

  @Test
  void sendsAtOnceUpToTwoInFlightThenCoalescesTheRestInBatches() {
    List<CompletableFuture<String>> results = new ArrayList<>();
    for (int i = 1; i <= 8; i++) {
      results.add(batcher.submit(i));
    }
    // Nothing answered yet: the first two went alone, the other six wait.
    assertThat(calls).extracting(Call::items).containsExactly(List.of(1), List.of(2));

    calls.get(0).reply().complete(answers(List.of(1)));
    assertThat(results.get(0)).isCompletedWithValue("ok 1");
    assertThat(calls).hasSize(3);
    assertThat(calls.get(2).items()).containsExactly(3, 4, 5); // at most maxBatch per call

    calls.get(1).reply().complete(answers(List.of(2)));
    assertThat(calls).hasSize(4);
    assertThat(calls.get(3).items()).containsExactly(6, 7, 8);

    calls.get(2).reply().complete(answers(List.of(3, 4, 5)));
    calls.get(3).reply().complete(answers(List.of(6, 7, 8)));
    assertThat(calls).as("nothing left to send").hasSize(4);
    for (int i = 0; i < 8; i++) {
      assertThat(results.get(i)).isCompletedWithValue("ok " + (i + 1));
    }

    // Idle again: the next item goes at once, alone.
    CompletableFuture<String> later = batcher.submit(9);
    assertThat(calls).hasSize(5);
    assertThat(calls.get(4).items()).containsExactly(9);
    assertThat(later).isNotDone();
  }

  @Test
  void aQueuesPartitionsShareItsCallsInFlight() {
    assertThat(snapshotOf(1).inFlightPerPartition(CallBatcher.MAX_IN_FLIGHT)).isEqualTo(2);
    assertThat(snapshotOf(2).inFlightPerPartition(CallBatcher.MAX_IN_FLIGHT)).isEqualTo(1);
    assertThat(snapshotOf(3).inFlightPerPartition(ClaimLoop.MAX_CLAIMS_IN_FLIGHT)).isEqualTo(1);
    assertThat(snapshotOf(2).inFlightPerPartition(ClaimLoop.MAX_CLAIMS_IN_FLIGHT)).isEqualTo(2);
    assertThat(snapshotOf(64).inFlightPerPartition(ClaimLoop.MAX_CLAIMS_IN_FLIGHT))
        .as("at least one each")
        .isEqualTo(1);

    // With one in flight, everything submitted meanwhile goes in the next call.
    CallBatcher<Integer, String> shared = batcher(10, 1);
    List<CompletableFuture<String>> results = new ArrayList<>();
    for (int i = 1; i <= 4; i++) {
      results.add(shared.submit(i));
    }
    assertThat(calls).extracting(Call::items).containsExactly(List.of(1));
    calls.get(0).reply().complete(answers(List.of(1)));
    assertThat(calls).extracting(Call::items).containsExactly(List.of(1), List.of(2, 3, 4));
    calls.get(1).reply().complete(answers(List.of(2, 3, 4)));
    assertThat(results.get(3)).isCompletedWithValue("ok 4");
  }

  private static QueueTopology.Snapshot snapshotOf(int partitions) {
    return new QueueTopology.Snapshot(
        QueueSettings.builder().partitions(partitions).build(),
        Collections.nCopies(partitions, null),
        1);
  }

  @Test
  void eachCallerGetsItsOwnFailureAndAFailedCallFailsOnlyItsItems() {
    CompletableFuture<String> a = batcher.submit(1);
    CompletableFuture<String> b = batcher.submit(2);
    CompletableFuture<String> c = batcher.submit(-3);
    CompletableFuture<String> d = batcher.submit(4);

    calls.get(0).reply().completeExceptionally(new RuntimeException("connection lost"));
    assertThat(a).isCompletedExceptionally();
    assertThat(calls.get(2).items()).containsExactly(-3, 4);

    calls.get(1).reply().complete(answers(List.of(2)));
    calls.get(2).reply().complete(answers(List.of(-3, 4)));
    assertThat(b).isCompletedWithValue("ok 2");
    assertThat(c).isCompletedExceptionally();
    assertThat(d).isCompletedWithValue("ok 4");
  }
}
