package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Schedules under concurrent upserts, and their refill and repair by promoters. */
class ScheduleConcurrencyTest extends HourglassTestBase {

  /** The pending jobs; one that fell due between the two reads is listed once. */
  private static List<JobInfo<String>> pendingJobs(Queue<String> q) {
    List<JobInfo<String>> out = new ArrayList<>(q.jobs(JobState.DELAYED, 100, null).jobs());
    for (JobInfo<String> j : q.jobs(JobState.READY, 100, null).jobs()) {
      if (out.stream().noneMatch(o -> o.id().equals(j.id()))) {
        out.add(j);
      }
    }
    return out;
  }

  @Test
  void concurrentUpsertsFromSeveralClientsLeaveOneScheduleAndNeverTwoJobsForAnOccurrence() {
    Instant start = Instant.ofEpochMilli((redisNow().toEpochMilli() / 1000) * 1000 - 10_000);
    int clients = 4;
    List<Queue<String>> queues = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      queues.add(live().queue("storm", String.class));
    }
    AtomicBoolean stop = new AtomicBoolean();
    List<CompletableFuture<Void>> writers = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      Queue<String> q = queues.get(i);
      String payload = "client-" + i;
      writers.add(
          CompletableFuture.runAsync(
              () -> {
                while (!stop.get()) {
                  q.schedules()
                      .put(
                          ScheduleSpec.every("s", Duration.ofSeconds(1), payload)
                              .startAt(start)
                              .build());
                  QueueStats st = q.stats(); // one script: the counts at one moment
                  assertThat(st.delayed() + st.ready()).isLessThanOrEqualTo(1);
                }
              }));
    }
    ConcurrentLinkedQueue<String> delivered = new ConcurrentLinkedQueue<>();
    Queue<String> consumer = queues.get(0);
    try {
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () -> {
                for (Delivery<String> d : consumer.claim(10, null, Duration.ofMillis(500))) {
                  delivered.add(d.id());
                  consumer.ack(d);
                }
                return delivered.size() >= 3;
              });
    } finally {
      stop.set(true);
    }
    writers.forEach(CompletableFuture::join);

    List<String> ids = new ArrayList<>(delivered);
    Set<String> distinct = new HashSet<>(ids);
    assertThat(distinct).hasSameSizeAs(ids);
    for (String id : ids) {
      long t = Long.parseLong(id.substring("s:".length()));
      assertThat((t - start.toEpochMilli()) % 1000).isZero();
    }
    assertThat(consumer.schedules().list()).hasSize(1);
    await().atMost(Duration.ofSeconds(30)).until(() -> pendingJobs(consumer).size() == 1);
  }

  @Test
  void aScheduleWhoseTimesRanOutIsRepairedByAnyPromoter() {
    Queue<String> q = manual().queue("repair", String.class);
    q.schedules().put(ScheduleSpec.every("s", Duration.ofSeconds(1), "x").build());
    int cancelled = 0;
    List<JobInfo<String>> pending = pendingJobs(q);
    while (!pending.isEmpty()) {
      assertThat(pending).hasSize(1);
      assertThat(q.cancel(pending.get(0).id())).isTrue();
      cancelled++;
      pending = pendingJobs(q);
    }
    // each cancel enqueued the next of the times listed ahead, until none was left; no client
    // runs a promoter to list more
    assertThat(cancelled).isGreaterThan(1);
    assertThat(q.schedules().get("s")).isPresent();

    Queue<String> promoted = live().queue("repair", String.class);
    promoted.claim(1, null); // starts this client's promoters for the queue

    await().atMost(Duration.ofSeconds(30)).until(() -> pendingJobs(q).size() == 1);
    JobInfo<String> repaired = pendingJobs(q).get(0);
    assertThat(repaired.schedule()).contains("s");
    assertThat(repaired.id()).isEqualTo("s:" + repaired.runAt().toEpochMilli());
  }

  @Test
  void anOccurrencePastItsTtlGivesWayToTheNext() {
    Queue<String> q = live().queue("ttl", String.class);
    ScheduleInfo<String> s =
        q.schedules()
            .put(
                ScheduleSpec.every("s", Duration.ofSeconds(1), "x")
                    .ttl(Duration.ofMillis(200))
                    .build())
            .schedule();
    String first = "s:" + s.nextRuns().get(0).toEpochMilli();
    // no consumer: the occurrence expires 200 ms after its time, and the next takes its place
    await().atMost(Duration.ofSeconds(30)).until(() -> q.get(first).isEmpty());
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> q.stats().counters().expired() >= 1 && pendingJobs(q).size() == 1);
    assertThat(pendingJobs(q).get(0).id()).isNotEqualTo(first);
  }
}
