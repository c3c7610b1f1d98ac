package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hourglass.internal.Promotions;
import dev.hourglass.testing.RedisExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The server's script cache is emptied ({@code SCRIPT FLUSH}, as after a restart or a failover)
 * under a running client. Every operation must still work: EVALSHA answers NOSCRIPT and the client
 * falls back to EVAL. Each operation below runs right after a flush, and the test checks that the
 * cache really was empty and that the operation reloaded its script.
 */
class NoScriptTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  private static final Pattern CACHED = Pattern.compile("number_of_cached_scripts:(\\d+)");

  @Test
  void everyOperationWorksRightAfterTheScriptCacheIsFlushed() {
    try (Hourglass hourglass =
        Hourglass.builder().redisUri(redis.uri()).backgroundPromoter(false).build()) {
      Queue<byte[]> queue = hourglass.queue("noscript");
      queue.enqueue(JobSpec.builder().id("a").payload("pa").build());
      queue.enqueue(JobSpec.builder().id("b").payload("pb").delay(Duration.ofHours(1)).build());
      queue.enqueue(JobSpec.builder().id("c").payload("pc").maxAttempts(3).build());
      EnqueueResult h =
          queue.enqueue(
              JobSpec.builder().id("h").payload("ph").delay(Duration.ofMillis(50)).build());

      EnqueueResult d =
          afterFlush(() -> queue.enqueue(JobSpec.builder().id("d").payload("pd").build()));
      assertThat(d.created()).isTrue();
      EnqueueResult dup =
          afterFlush(() -> queue.enqueueIfAbsent(JobSpec.builder().id("d").payload("x").build()));
      assertThat(dup.duplicate()).isTrue();
      List<EnqueueResult> batch =
          afterFlush(
              () ->
                  queue.enqueueAll(
                      List.of(
                          JobSpec.builder().id("e").payload("pe").build(),
                          JobSpec.builder()
                              .id("f")
                              .payload("pf")
                              .delay(Duration.ofHours(2))
                              .build())));
      assertThat(batch).allMatch(EnqueueResult::created);
      EnqueueResult g =
          afterFlush(
              () -> queue.enqueueAsync(JobSpec.builder().id("g").payload("pg").build()).join());
      assertThat(g.created()).isTrue();

      assertThat(afterFlush(() -> queue.get("b")))
          .get()
          .extracting(JobInfo::state)
          .isEqualTo(JobState.DELAYED);
      // h is due by now by the server clock: counted ready, promoted or not.
      RedisProbe.awaitClockPast(redis.server(), h.runAt());
      QueueStats stats = afterFlush(queue::stats);
      assertThat(stats.delayed()).as("b and f").isEqualTo(2);
      assertThat(stats.ready()).as("a, c, d, e, g and h").isEqualTo(6);

      JobInfo<byte[]> rescheduled = afterFlush(() -> queue.reschedule("f", Duration.ofMinutes(5)));
      assertThat(rescheduled.state()).isEqualTo(JobState.DELAYED);
      assertThat(afterFlush(() -> queue.cancel("f"))).isTrue();
      assertThat(queue.get("f")).isEmpty();

      JobInfo<byte[]> nowDue = afterFlush(() -> queue.reschedule("b", Duration.ZERO));
      assertThat(nowDue.state()).as("due now: ready by the server clock").isEqualTo(JobState.READY);
      afterFlush(() -> Promotions.now(queue));
      assertThat(queue.stats().delayed()).isZero();
      assertThat(queue.get("h")).get().extracting(JobInfo::state).isEqualTo(JobState.READY);
      assertThat(queue.get("b")).get().extracting(JobInfo::state).isEqualTo(JobState.READY);

      List<Delivery<byte[]>> claimed = afterFlush(() -> queue.claim(100, Duration.ofSeconds(30)));
      assertThat(claimed)
          .extracting(Delivery::id)
          .containsExactlyInAnyOrder("a", "b", "c", "d", "e", "g", "h");
      Delivery<byte[]> a = find(claimed, "a");
      Delivery<byte[]> c = find(claimed, "c");
      Delivery<byte[]> d2 = find(claimed, "d");
      Delivery<byte[]> e = find(claimed, "e");

      var extended = afterFlush(() -> queue.extend("a", a.receipt(), Duration.ofMinutes(2)));
      assertThat(extended).isAfter(a.leaseUntil());
      afterFlush(
          () -> {
            queue.ack("a", a.receipt());
            return null;
          });
      assertThat(queue.get("a")).isEmpty();

      NackResult retried =
          afterFlush(() -> queue.nack("d", d2.receipt(), Nack.retryAfter(Duration.ZERO, "again")));
      assertThat(retried.dead()).isFalse();
      NackResult byBackoff = afterFlush(() -> queue.nack("e", e.receipt(), Nack.retry("backoff")));
      assertThat(byBackoff.dead()).isFalse();
      NackResult killed = afterFlush(() -> queue.nack("c", c.receipt(), Nack.kill("poison")));
      assertThat(killed.dead()).isTrue();

      JobPage<byte[]> page = afterFlush(() -> queue.dead().list(null, 10));
      assertThat(page.jobs()).extracting(JobInfo::id).containsExactly("c");
      assertThat(page.jobs().get(0).lastError()).hasValue("poison");
      assertThat(afterFlush(() -> queue.dead().count())).isEqualTo(1);
      afterFlush(
          () -> {
            queue.dead().requeue("c");
            return null;
          });
      assertThat(queue.get("c")).get().extracting(JobInfo::state).isEqualTo(JobState.READY);

      // Kill c again, then requeueAll and purge after flushes.
      Delivery<byte[]> c2 = find(queue.claim(100, null), "c");
      queue.nack("c", c2.receipt(), Nack.kill("poison again"));
      assertThat(afterFlush(() -> queue.dead().requeueAll())).isEqualTo(1);
      Delivery<byte[]> c3 = find(queue.claim(100, null), "c");
      queue.nack("c", c3.receipt(), Nack.kill("poison thrice"));
      assertThat(afterFlush(() -> queue.dead().purge())).isEqualTo(1);
      assertThat(queue.get("c")).isEmpty();

      Queue<byte[]> configured =
          afterFlush(
              () ->
                  hourglass.configureQueue(
                      "noscript", queue.settings().toBuilder().maxAttempts(7).build()));
      assertThat(configured.settings().maxAttempts()).isEqualTo(7);

      QueueStats end = afterFlush(queue::stats);
      assertThat(end.counters().acked()).isEqualTo(1);
      assertThat(end.counters().cancelled()).isEqualTo(1);
      assertThat(end.dead()).isZero();
      // left: b, g, h (claimed), d and e (retried); a acked, f cancelled, c purged; nothing else
      // lost
      assertThat(end.total()).isEqualTo(5);
      for (String id : List.of("b", "d", "e", "g", "h")) {
        assertThat(queue.get(id)).as(id).isPresent();
      }
    }
  }

  @Test
  void enqueueAllOverSeveralPartitionsWorksAfterAFlush() {
    try (Hourglass hourglass = Hourglass.builder().redisUri(redis.uri()).build()) {
      Queue<byte[]> queue =
          hourglass.configureQueue("noscript-multi", QueueSettings.builder().partitions(4).build());
      List<JobSpec> specs =
          IntStream.range(0, 200)
              .mapToObj(i -> JobSpec.builder().id("m-" + i).payload("x").build())
              .toList();
      List<EnqueueResult> results = afterFlush(() -> queue.enqueueAll(specs));
      assertThat(results).hasSize(200).allMatch(EnqueueResult::created);
      assertThat(afterFlush(queue::stats).ready()).isEqualTo(200);
      List<Delivery<byte[]>> claimed = new ArrayList<>(afterFlush(() -> queue.claim(1000, null)));
      assertThat(claimed).hasSize(200);
    }
  }

  @Test
  void aRunningWorkerKeepsDeliveringAcrossFlushes() {
    try (Hourglass hourglass = Hourglass.builder().redisUri(redis.uri()).build()) {
      Queue<byte[]> queue = hourglass.queue("noscript-worker");
      Set<String> handled = ConcurrentHashMap.newKeySet();
      Worker worker =
          hourglass.worker(
              "noscript-worker",
              job -> handled.add(job.id()),
              WorkerOptions.builder().concurrency(4).idleWait(Duration.ofSeconds(2)).build());
      int expected = 0;
      for (int round = 0; round < 3; round++) {
        // The worker waits or claims, the promoter sleeps or runs: the cache may refill at once, so
        // no count check.
        assertThat(redis.server().command("SCRIPT", "FLUSH")).isEqualTo("OK");
        List<JobSpec> specs = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
          String id = "r" + round + "-" + i;
          JobSpec.Builder b = JobSpec.builder().id(id).payload(id);
          if (i % 2 == 1) {
            b.delay(Duration.ofMillis(300)); // needs the promoter after the flush
          }
          specs.add(b.build());
        }
        if (round == 1) {
          specs.forEach(queue::enqueue); // single enqueues for one round
        } else {
          queue.enqueueAll(specs);
        }
        expected += specs.size();
        int want = expected;
        await("round " + round + " delivered after a script flush")
            .atMost(RedisProbe.LIVENESS)
            .until(() -> handled.size() == want);
      }
      await("every job acked")
          .atMost(RedisProbe.LIVENESS)
          .until(() -> queue.stats().counters().acked() == 60 && queue.stats().total() == 0);
      assertThat(handled).hasSize(60);
      worker.close(Duration.ofSeconds(5));
    }
  }

  private static Delivery find(List<Delivery<byte[]>> deliveries, String id) {
    return deliveries.stream()
        .filter(d -> d.id().equals(id))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no delivery of " + id + " in " + deliveries));
  }

  /** Empties the server's script cache and checks it is empty. */
  private static void flushScripts() {
    assertThat(redis.server().command("SCRIPT", "FLUSH")).isEqualTo("OK");
    assertThat(cachedScripts()).as("script cache after SCRIPT FLUSH").isZero();
  }

  /**
   * Runs {@code op} on an empty script cache; it must succeed and have (re)loaded its script by
   * EVAL.
   */
  private static <T> T afterFlush(Supplier<T> op) {
    flushScripts();
    T result = op.get();
    assertThat(cachedScripts()).as("the operation reloaded its script").isPositive();
    return result;
  }

  private static long cachedScripts() {
    Matcher m = CACHED.matcher(redis.server().command("INFO", "memory"));
    assertThat(m.find()).as("INFO memory has number_of_cached_scripts").isTrue();
    return Long.parseLong(m.group(1));
  }
}
