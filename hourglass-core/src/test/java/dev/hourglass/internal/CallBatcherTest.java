package dev.hourglass.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
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
  private final CallBatcher<Integer, String> batcher =
      new CallBatcher<>(
          items -> {
            CompletableFuture<List<Object>> reply = new CompletableFuture<>();
            calls.add(new Call(items, reply));
            return reply;
          },
          Runnable::run,
          3);

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
