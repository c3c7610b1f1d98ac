package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hourglass.testing.RedisExtension;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Delivery timing and order with the background promoter on, as users run it: due-time order, never
 * early, prompt, on time through the time-slot path, cancel and reschedule of slot-resident jobs,
 * and two promoting clients on one queue (exactly one delivery each, and no doubled idle load on
 * Redis).
 *
 * <p>Due times follow the Redis server clock; Redis runs on this host, so {@link
 * System#currentTimeMillis()} at delivery is comparable with {@link EnqueueResult#runAt()} without
 * tolerance.
 */
class DeliveryOrderTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  private static final long IDLE_WINDOW_MS = 6_000;

  private final List<Hourglass> clients = new ArrayList<>();

  /** One handler call: which job, when (JVM clock, ms), and the due time it carried. */
  record Delivered(String id, long atMs, long dueMs, int attempt) {
    long latenessMs() {
      return atMs - dueMs;
    }
  }

  @AfterEach
  void closeClients() {
    clients.forEach(Hourglass::close);
    clients.clear();
  }

  private Hourglass live() {
    Hourglass h = Hourglass.builder().redisUri(redis.uri()).build();
    clients.add(h);
    return h;
  }

  /**
   * A worker that records every delivery and acks it. One handler thread keeps handler calls in
   * claim order.
   */
  private static Worker recorder(
      Hourglass hg, String queue, ConcurrentLinkedQueue<Delivered> sink, int concurrency) {
    return hg.worker(
        queue,
        d ->
            sink.add(
                new Delivered(
                    d.id(), System.currentTimeMillis(), d.dueAt().toEpochMilli(), d.attempt())),
        WorkerOptions.builder().concurrency(concurrency).build());
  }

  /**
   * Runs one short-delay job through the worker, so its claim loop and promoter are up before
   * timing starts.
   */
  private static void warmUp(Queue queue, ConcurrentLinkedQueue<Delivered> sink) {
    queue.enqueue(
        JobSpec.builder().id("warm-up").payload("w").delay(Duration.ofMillis(50)).build());
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> sink.stream().anyMatch(d -> d.id().equals("warm-up")));
    sink.clear();
  }

  @Test
  void jobsComeOutInDueOrderAndNeverEarly() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    Hourglass hg = live();
    Queue queue = hg.queue("order");
    ConcurrentLinkedQueue<Delivered> delivered = new ConcurrentLinkedQueue<>();
    recorder(hg, "order", delivered, 1);
    warmUp(queue, delivered);

    int n = 60;
    Map<String, Long> due = new ConcurrentHashMap<>();
    for (int i = 0; i < n; i++) {
      String id = "o" + i;
      EnqueueResult r =
          queue.enqueue(
              JobSpec.builder()
                  .id(id)
                  .payload(id)
                  .delay(Duration.ofMillis(200 + random.nextInt(1300)))
                  .build());
      assertThat(r.state()).isEqualTo(JobState.DELAYED);
      due.put(id, r.runAt().toEpochMilli());
    }
    await().atMost(Duration.ofSeconds(6)).until(() -> delivered.size() >= n);

    List<Delivered> got = List.copyOf(delivered);
    assertThat(got)
        .extracting(Delivered::id)
        .as("seed %d", seed)
        .containsExactlyInAnyOrderElementsOf(due.keySet());
    for (Delivered d : got) {
      assertThat(d.dueMs()).isEqualTo(due.get(d.id()));
      assertThat(d.atMs())
          .as("%s delivered before its due time (seed %d)", d.id(), seed)
          .isGreaterThanOrEqualTo(d.dueMs());
    }
    assertThat(got)
        .as("deliveries in due-time order (seed %d)", seed)
        .isSortedAccordingTo(Comparator.comparingLong(Delivered::dueMs));
    report("due order, 60 jobs due in 0.2-1.5 s", got);
  }

  @Test
  void aJobDueIn200msArrivesWithinOneSecond() {
    Hourglass hg = live();
    Queue queue = hg.queue("prompt");
    ConcurrentLinkedQueue<Delivered> delivered = new ConcurrentLinkedQueue<>();
    recorder(hg, "prompt", delivered, 1);
    warmUp(queue, delivered);

    List<Long> latencies = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      String id = "p" + i;
      long start = System.currentTimeMillis();
      queue.enqueue(JobSpec.builder().id(id).payload(id).delay(Duration.ofMillis(200)).build());
      await()
          .atMost(Duration.ofSeconds(3))
          .until(() -> delivered.stream().anyMatch(d -> d.id().equals(id)));
      Delivered d = delivered.stream().filter(x -> x.id().equals(id)).findFirst().orElseThrow();
      latencies.add(d.atMs() - start);
    }
    System.out.println("job due in 200 ms, enqueue to handler (ms): " + latencies);
    assertThat(latencies).allSatisfy(ms -> assertThat(ms).isBetween(200L, 999L));
  }

  @Test
  void aJobDueIn200msArrivesWithinOneSecondRightAfterTheWorkerStarts() {
    Hourglass hg = live();
    Queue queue = hg.queue("cold");
    ConcurrentLinkedQueue<Delivered> delivered = new ConcurrentLinkedQueue<>();
    recorder(hg, "cold", delivered, 1);
    long start = System.currentTimeMillis();
    queue.enqueue(JobSpec.builder().id("c").payload("c").delay(Duration.ofMillis(200)).build());
    await().atMost(Duration.ofSeconds(3)).until(() -> !delivered.isEmpty());
    long latency = delivered.peek().atMs() - start;
    System.out.println("cold start: job due in 200 ms, enqueue to handler: " + latency + " ms");
    assertThat(latency).isBetween(200L, 999L);
  }

  @Test
  void farJobsGoThroughTimeSlotsAndArriveOnTimeInOrder() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    Hourglass hg = live();
    Queue queue =
        hg.configureQueue(
            "slots", QueueSettings.builder().slotWidth(Duration.ofSeconds(1)).build());
    ConcurrentLinkedQueue<Delivered> delivered = new ConcurrentLinkedQueue<>();
    recorder(hg, "slots", delivered, 1);
    warmUp(queue, delivered);

    int n = 40;
    List<JobSpec> specs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      specs.add(
          JobSpec.builder()
              .id("s" + i)
              .payload("s" + i)
              .delay(Duration.ofMillis(2_500 + random.nextInt(1_500)))
              .build());
    }
    // One script call: every job is due at least 2.5 s out, so its slot starts at least 1.5 s out
    // and the
    // promoter (lookahead = one slot) cannot have loaded any of them yet when we look right after.
    List<EnqueueResult> results = queue.enqueueAll(specs);
    Map<String, Long> due =
        results.stream()
            .collect(Collectors.toMap(EnqueueResult::id, r -> r.runAt().toEpochMilli()));
    long inSlots = slotEntries("slots");
    assertThat(inSlots).as("jobs placed in slot lists, not in near").isEqualTo(n);
    assertThat(zcard("hg:{slots.0}:near")).isZero();

    await().atMost(Duration.ofSeconds(8)).until(() -> delivered.size() >= n);
    List<Delivered> got = List.copyOf(delivered);
    assertThat(got)
        .extracting(Delivered::id)
        .as("seed %d", seed)
        .containsExactlyInAnyOrderElementsOf(due.keySet());
    assertThat(got)
        .allSatisfy(
            d -> assertThat(d.latenessMs()).as("lateness of %s", d.id()).isBetween(0L, 99L));
    assertThat(got)
        .as("deliveries in due-time order (seed %d)", seed)
        .isSortedAccordingTo(Comparator.comparingLong(Delivered::dueMs));
    assertThat(slotEntries("slots")).as("slot lists are deleted once loaded").isZero();
    report("slot path, 40 jobs due in 2.5-4 s, slot width 1 s", got);
  }

  @Test
  void cancelledSlotJobIsNeverDeliveredAndRescheduledOnesArriveOnceAtTheirNewTime() {
    Hourglass hg = live();
    Queue queue =
        hg.configureQueue(
            "edits", QueueSettings.builder().slotWidth(Duration.ofSeconds(1)).build());
    ConcurrentLinkedQueue<Delivered> delivered = new ConcurrentLinkedQueue<>();
    recorder(hg, "edits", delivered, 2);
    warmUp(queue, delivered);

    long t0 = System.currentTimeMillis();
    Instant fDue = Instant.ofEpochMilli(t0 + 3_400);
    Instant gDue = Instant.ofEpochMilli(t0 + 3_600);
    List<EnqueueResult> placed =
        queue.enqueueAll(
            List.of(
                spec("A").delay(Duration.ofMillis(3_000)).build(), // untouched control
                spec("B").delay(Duration.ofMillis(3_200)).build(), // cancelled
                spec("C").delay(Duration.ofMillis(3_500)).build(), // moved earlier
                spec("D").delay(Duration.ofMillis(3_000)).build(), // moved later
                spec("E").delay(Duration.ofMillis(3_300)).build(), // moved to now
                spec("F").runAt(fDue).build(), // moved later, then back: two identical slot entries
                spec("G")
                    .runAt(gDue)
                    .build())); // moved to now, acked, enqueued again at the old time
    assertThat(placed).allSatisfy(r -> assertThat(r.state()).isEqualTo(JobState.DELAYED));
    assertThat(slotEntries("edits")).as("all seven are slot-resident").isEqualTo(7);

    Map<String, Long> expectedDue = new ConcurrentHashMap<>();
    expectedDue.put("A", placed.get(0).runAt().toEpochMilli());
    assertThat(queue.cancel("B")).isTrue();
    expectedDue.put("C", queue.reschedule("C", Duration.ofMillis(1_500)).runAt().toEpochMilli());
    expectedDue.put("D", queue.reschedule("D", Duration.ofMillis(4_500)).runAt().toEpochMilli());
    expectedDue.put("E", queue.reschedule("E", Duration.ZERO).runAt().toEpochMilli());
    queue.reschedule("F", Duration.ofMillis(4_000));
    expectedDue.put("F", queue.reschedule("F", fDue).runAt().toEpochMilli());
    assertThat(expectedDue.get("F")).isEqualTo(fDue.toEpochMilli());
    long gFirstDue = queue.reschedule("G", Duration.ZERO).runAt().toEpochMilli();
    long edited = System.currentTimeMillis();
    assertThat(edited - t0)
        .as("edits done while the jobs were still in their slots")
        .isLessThan(1_000);

    await().atMost(Duration.ofSeconds(2)).until(() -> count(delivered, "G") == 1);
    queue.enqueue(spec("G").runAt(gDue).build());
    expectedDue.put("G", gDue.toEpochMilli());

    // Everything is due by t0 + 4.5 s; wait past that so a stray or duplicate delivery would show.
    await().atMost(Duration.ofSeconds(8)).until(() -> delivered.size() >= 7);
    await()
        .pollDelay(Duration.ofMillis(500))
        .atMost(Duration.ofSeconds(8))
        .until(() -> System.currentTimeMillis() > t0 + 5_500);

    List<Delivered> got = List.copyOf(delivered);
    report("cancel/reschedule in slots", got);
    Map<String, Long> counts =
        got.stream().collect(Collectors.groupingBy(Delivered::id, Collectors.counting()));
    assertThat(counts)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("A", 1L, "C", 1L, "D", 1L, "E", 1L, "F", 1L, "G", 2L));
    for (Delivered d : got) {
      long expected =
          d.id().equals("G") && d.dueMs() == gFirstDue ? gFirstDue : expectedDue.get(d.id());
      assertThat(d.dueMs()).as("due time %s was delivered with", d.id()).isEqualTo(expected);
      assertThat(d.latenessMs()).as("lateness of %s", d.id()).isBetween(0L, 99L);
    }
    assertThat(got.stream().filter(d -> d.id().equals("G")).map(Delivered::dueMs))
        .containsExactlyInAnyOrder(gFirstDue, gDue.toEpochMilli());
    QueueStats stats = queue.stats();
    assertThat(stats.total()).as("nothing left: %s", stats).isZero();
    assertThat(stats.acked()).isEqualTo(7 + 1); // A C D E F, G twice, and the warm-up job
    assertThat(stats.cancelled()).isEqualTo(1);
  }

  @Test
  void twoClientsDeliverEveryJobExactlyOnce() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    Hourglass first = live();
    Hourglass second = live();
    Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
    ConcurrentLinkedQueue<Delivered> delivered = new ConcurrentLinkedQueue<>();
    JobHandler handler =
        d -> {
          counts.computeIfAbsent(d.id(), k -> new AtomicInteger()).incrementAndGet();
          delivered.add(
              new Delivered(
                  d.id(), System.currentTimeMillis(), d.dueAt().toEpochMilli(), d.attempt()));
        };
    first.worker("shared", handler, WorkerOptions.builder().concurrency(4).build());
    second.worker("shared", handler, WorkerOptions.builder().concurrency(4).build());

    int n = 300;
    List<JobSpec> specs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      JobSpec.Builder b = spec("x" + i);
      if (i % 3 != 0) {
        b.delay(Duration.ofMillis(200 + random.nextInt(1_300)));
      }
      specs.add(b.build());
    }
    Queue queue = first.queue("shared");
    queue.enqueueAll(specs.subList(0, n / 2));
    second.queue("shared").enqueueAll(specs.subList(n / 2, n));

    await().atMost(Duration.ofSeconds(10)).until(() -> counts.size() >= n);
    await().pollDelay(Duration.ofSeconds(1)).until(() -> true);
    assertThat(counts).hasSize(n);
    assertThat(counts.values())
        .as("deliveries per job (seed %d)", seed)
        .allSatisfy(c -> assertThat(c.get()).isEqualTo(1));
    assertThat(delivered).allSatisfy(d -> assertThat(d.atMs()).isGreaterThanOrEqualTo(d.dueMs()));
    QueueStats stats = queue.stats();
    assertThat(stats.total()).isZero();
    assertThat(stats.acked()).isEqualTo(n);
    report("two clients, 300 jobs", List.copyOf(delivered));
  }

  /**
   * Idle cost of promoters on one queue, from {@code INFO commandstats} over {@value
   * #IDLE_WINDOW_MS} ms windows: one client, then two. One client is the leader and passes about
   * once per second (safety sweep). A second client is a follower: it asks when the leader's lock
   * could lapse, and the leader renews that lock on every pass, so the follower asks about once per
   * second too; its calls return at once, without writing. So a second client adds a bounded number
   * of cheap script calls and no writes.
   */
  @Test
  void aSecondPromotingClientOnlyAddsCheapFollowerCalls() {
    // Long idle waits keep the claim loops' own wake-up claims out of the windows: what is left is
    // the promoters'
    // passes and each client's settings refresh (one script call per 5 s).
    WorkerOptions quiet =
        WorkerOptions.builder().concurrency(1).idleWait(Duration.ofSeconds(30)).build();
    Hourglass first = live();
    first.queue("idle").enqueue(spec("seed").build()); // the queue and its partition exist
    first.worker("idle", d -> {}, quiet);
    Map<String, Long> one = idleCommands();
    Hourglass second = live();
    second.worker("idle", d -> {}, quiet);
    Map<String, Long> two = idleCommands();
    System.out.printf(
        "idle commands in %d ms: one client %s%n             two clients %s%n",
        IDLE_WINDOW_MS, one, two);

    long seconds = IDLE_WINDOW_MS / 1000;
    long scriptsOne = scripts(one);
    long scriptsTwo = scripts(two);
    assertThat(scriptsOne)
        .as("script calls of one idle client")
        .isBetween(seconds - 2, seconds * 3 / 2 + 1);
    assertThat(scriptsTwo - scriptsOne)
        .as("script calls the second (following) client adds")
        .isBetween(0L, seconds * 3 / 2 + 1);
    assertThat(two.getOrDefault("hset", 0L))
        .as("writes (the leader's lock renewals): a follower writes nothing")
        .isLessThanOrEqualTo(one.getOrDefault("hset", 0L) + 2);
  }

  /** Calls per command Redis serves in one window, after 2 s to settle. */
  private static Map<String, Long> idleCommands() {
    sleep(2_000);
    redis.server().command("CONFIG", "RESETSTAT");
    sleep(IDLE_WINDOW_MS);
    String info = redis.server().command("INFO", "commandstats");
    Map<String, Long> calls = new TreeMap<>();
    for (String line : info.split("\r?\n")) {
      if (line.startsWith("cmdstat_")) {
        String name = line.substring("cmdstat_".length(), line.indexOf(':'));
        String rest = line.substring(line.indexOf("calls=") + 6);
        calls.put(name, Long.parseLong(rest.substring(0, rest.indexOf(','))));
      }
    }
    calls.remove("config");
    return calls;
  }

  private static long scripts(Map<String, Long> calls) {
    return calls.getOrDefault("evalsha", 0L) + calls.getOrDefault("eval", 0L);
  }

  private static JobSpec.Builder spec(String id) {
    return JobSpec.builder().id(id).payload("payload-" + id);
  }

  private static long count(ConcurrentLinkedQueue<Delivered> delivered, String id) {
    return delivered.stream().filter(d -> d.id().equals(id)).count();
  }

  /** Entries in the slot lists of partition 0 of a queue. */
  private static long slotEntries(String queue) {
    String keys = redis.server().command("KEYS", "hg:{" + queue + ".0}:slot:*");
    long total = 0;
    if (keys != null && !keys.isBlank()) {
      for (String key : keys.split("\n")) {
        total += Long.parseLong(redis.server().command("LLEN", key));
      }
    }
    return total;
  }

  private static long zcard(String key) {
    return Long.parseLong(redis.server().command("ZCARD", key));
  }

  private static void report(String what, List<Delivered> got) {
    long[] late = got.stream().mapToLong(Delivered::latenessMs).sorted().toArray();
    if (late.length == 0) {
      return;
    }
    System.out.printf(
        "%s: %d deliveries, lateness ms min %d p50 %d p99 %d max %d%n",
        what,
        late.length,
        late[0],
        late[late.length / 2],
        late[Math.min(late.length - 1, (int) Math.ceil(late.length * 0.99) - 1)],
        late[late.length - 1]);
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
