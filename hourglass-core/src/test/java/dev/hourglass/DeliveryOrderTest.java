package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hourglass.internal.Promotions;
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
 * Delivery order with the background promoter on, as users run it: due-time order, never early,
 * woken when due rather than found by a timed-out wait, through the time-slot path too, cancel and
 * reschedule of slot-resident jobs, and two promoting clients on one queue (exactly one delivery
 * each; the second follows the first's lock without writing).
 *
 * <p>How late deliveries are is the bench's e2e workload; here only the lower bound (never before
 * the due time) is asserted, and every wait for a delivery is a liveness bound shorter than the
 * workers' idle wait: a job that arrives in time was announced by a wake-up.
 *
 * <p>Due times follow the Redis server clock; Redis runs on this host, so {@link
 * System#currentTimeMillis()} at delivery is comparable with {@link EnqueueResult#runAt()} without
 * tolerance.
 */
class DeliveryOrderTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  /** The recorders' idle wait: longer than any wait for a delivery below. */
  private static final Duration IDLE_WAIT = Duration.ofSeconds(60);

  /** The longest a test waits for deliveries: a liveness bound, far below {@link #IDLE_WAIT}. */
  private static final Duration LIVENESS = RedisProbe.LIVENESS;

  /** Commands that change data, as INFO commandstats names them. */
  private static final List<String> WRITES =
      List.of(
          "set",
          "del",
          "unlink",
          "hset",
          "hdel",
          "hincrby",
          "hsetnx",
          "zadd",
          "zrem",
          "zremrangebyscore",
          "lpush",
          "rpush",
          "lpop",
          "rpop",
          "ltrim",
          "lrem",
          "publish",
          "expire",
          "pexpire",
          "incr",
          "incrby");

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

  private Hourglass manual() {
    Hourglass h = Hourglass.builder().redisUri(redis.uri()).backgroundPromoter(false).build();
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
        WorkerOptions.builder().concurrency(concurrency).idleWait(IDLE_WAIT).build());
  }

  /**
   * Runs one short-delay job through the worker, so its claim loop and promoter are up before
   * timing starts.
   */
  private static void warmUp(Queue<byte[]> queue, ConcurrentLinkedQueue<Delivered> sink) {
    queue.enqueue(
        JobSpec.builder().id("warm-up").payload("w").delay(Duration.ofMillis(50)).build());
    await().atMost(LIVENESS).until(() -> sink.stream().anyMatch(d -> d.id().equals("warm-up")));
    sink.clear();
  }

  @Test
  void jobsComeOutInDueOrderAndNeverEarly() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    Hourglass hg = live();
    Queue<byte[]> queue = hg.queue("order");
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
    await().atMost(LIVENESS).until(() -> delivered.size() >= n);

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
  void aJobDueIn200msIsDeliveredByItsWakeUpAndNotBeforeItsDueTime() {
    Hourglass hg = live();
    Queue<byte[]> queue = hg.queue("prompt");
    ConcurrentLinkedQueue<Delivered> delivered = new ConcurrentLinkedQueue<>();
    recorder(hg, "prompt", delivered, 1);
    warmUp(queue, delivered);

    for (int i = 0; i < 5; i++) {
      String id = "p" + i;
      EnqueueResult r =
          queue.enqueue(JobSpec.builder().id(id).payload(id).delay(Duration.ofMillis(200)).build());
      await().atMost(LIVENESS).until(() -> count(delivered, id) == 1);
      Delivered d = delivered.stream().filter(x -> x.id().equals(id)).findFirst().orElseThrow();
      assertThat(d.dueMs()).isEqualTo(r.runAt().toEpochMilli());
      assertThat(d.latenessMs()).as("%s delivered before its due time", id).isNotNegative();
    }
  }

  @Test
  void aJobDueIn200msRightAfterTheWorkerStartsIsDeliveredNotBeforeItsDueTime() {
    Hourglass hg = live();
    Queue<byte[]> queue = hg.queue("cold");
    ConcurrentLinkedQueue<Delivered> delivered = new ConcurrentLinkedQueue<>();
    recorder(hg, "cold", delivered, 1);
    EnqueueResult r =
        queue.enqueue(JobSpec.builder().id("c").payload("c").delay(Duration.ofMillis(200)).build());
    await().atMost(LIVENESS).until(() -> !delivered.isEmpty());
    Delivered d = delivered.peek();
    assertThat(d.dueMs()).isEqualTo(r.runAt().toEpochMilli());
    assertThat(d.latenessMs()).as("delivered before its due time").isNotNegative();
  }

  @Test
  void farJobsGoThroughTimeSlotsAndArriveOnTimeInOrder() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    Hourglass hg = live();
    Queue<byte[]> queue =
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
    // and the promoter (lookahead = one slot) loads none of them before we look, right after.
    List<EnqueueResult> results = queue.enqueueAll(specs);
    Map<String, Long> due =
        results.stream()
            .collect(Collectors.toMap(EnqueueResult::id, r -> r.runAt().toEpochMilli()));
    long inSlots = slotEntries("slots");
    assertThat(inSlots).as("jobs placed in slot lists, not in near").isEqualTo(n);
    assertThat(zcard("hg:{slots.0}:near")).isZero();

    await().atMost(LIVENESS).until(() -> delivered.size() >= n);
    List<Delivered> got = List.copyOf(delivered);
    assertThat(got)
        .extracting(Delivered::id)
        .as("seed %d", seed)
        .containsExactlyInAnyOrderElementsOf(due.keySet());
    assertThat(got)
        .allSatisfy(
            d -> {
              assertThat(d.dueMs()).isEqualTo(due.get(d.id()));
              assertThat(d.latenessMs()).as("lateness of %s", d.id()).isNotNegative();
            });
    assertThat(got)
        .as("deliveries in due-time order (seed %d)", seed)
        .isSortedAccordingTo(Comparator.comparingLong(Delivered::dueMs));
    assertThat(slotEntries("slots")).as("slot lists are deleted once loaded").isZero();
    report("slot path, 40 jobs due in 2.5-4 s, slot width 1 s", got);
  }

  @Test
  void cancelledSlotJobIsNeverDeliveredAndRescheduledOnesArriveOnceAtTheirNewTime() {
    Hourglass hg = live();
    Queue<byte[]> queue =
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
    // Slot lists load oldest first, and A's (due first, untouched) is not loaded yet: every edit
    // above found its job in a slot list.
    assertThat(inSlotList("edits", "A"))
        .as("edits done while the jobs were still in their slots")
        .isTrue();

    await().atMost(LIVENESS).until(() -> count(delivered, "G") == 1 && queue.get("G").isEmpty());
    queue.enqueue(spec("G").runAt(gDue).build());
    expectedDue.put("G", gDue.toEpochMilli());

    // Everything is acked and nothing is left, so no stray or duplicate delivery can follow; one
    // that happened shows in the counts below.
    await()
        .atMost(LIVENESS)
        .until(() -> queue.stats().total() == 0 && queue.stats().counters().acked() == 7 + 1);

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
      assertThat(d.latenessMs()).as("lateness of %s", d.id()).isNotNegative();
    }
    assertThat(got.stream().filter(d -> d.id().equals("G")).map(Delivered::dueMs))
        .containsExactlyInAnyOrder(gFirstDue, gDue.toEpochMilli());
    QueueStats stats = queue.stats();
    assertThat(stats.total()).as("nothing left: %s", stats).isZero();
    assertThat(stats.counters().acked())
        .isEqualTo(7 + 1); // A C D E F, G twice, and the warm-up job
    assertThat(stats.counters().delivered()).as("one delivery per ack").isEqualTo(7 + 1);
    assertThat(stats.counters().cancelled()).isEqualTo(1);
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
    first.worker(
        "shared", handler, WorkerOptions.builder().concurrency(4).idleWait(IDLE_WAIT).build());
    second.worker(
        "shared", handler, WorkerOptions.builder().concurrency(4).idleWait(IDLE_WAIT).build());

    int n = 300;
    List<JobSpec> specs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      JobSpec.Builder b = spec("x" + i);
      if (i % 3 != 0) {
        b.delay(Duration.ofMillis(200 + random.nextInt(1_300)));
      }
      specs.add(b.build());
    }
    Queue<byte[]> queue = first.queue("shared");
    queue.enqueueAll(specs.subList(0, n / 2));
    second.queue("shared").enqueueAll(specs.subList(n / 2, n));

    // Everything acked and nothing left: no further delivery can come.
    await()
        .atMost(LIVENESS)
        .until(() -> queue.stats().total() == 0 && queue.stats().counters().acked() == n);
    assertThat(queue.stats().counters().delivered()).as("one delivery per job").isEqualTo(n);
    assertThat(counts).hasSize(n);
    assertThat(counts.values())
        .as("deliveries per job (seed %d)", seed)
        .allSatisfy(c -> assertThat(c.get()).isEqualTo(1));
    assertThat(delivered).allSatisfy(d -> assertThat(d.atMs()).isGreaterThanOrEqualTo(d.dueMs()));
    QueueStats stats = queue.stats();
    assertThat(stats.total()).isZero();
    assertThat(stats.counters().acked()).isEqualTo(n);
    report("two clients, 300 jobs", List.copyOf(delivered));
  }

  /**
   * A second client promoting the same queue follows the first: while the first holds the
   * partition's promoter lock, the second's pass reads the lock, answers when to look again, and
   * writes nothing. What idle promoters cost per second is the bench's idle workload.
   */
  @Test
  void aSecondPromotingClientFollowsTheLockHolderAndWritesNothing() {
    Queue<byte[]> leader = manual().queue("idle");
    leader.enqueue(spec("later").delay(Duration.ofHours(1)).build());
    assertThat(Promotions.now(leader)).isZero(); // takes the lock
    String meta = "hg:{idle.0}:meta";
    String owner = redis.server().command("HGET", meta, "po");
    assertThat(owner).as("the first client holds the promoter lock").isNotBlank();
    // The lock is held for an hour, so the follower's pass cannot race its expiry.
    String until = Long.toString(RedisProbe.serverNowMs(redis.server()) + 3_600_000);
    redis.server().command("HSET", meta, "pu", until);
    Queue<byte[]> follower = manual().queue("idle");
    follower.settings(); // the follower's client reads the queue's settings before the count
    Map<String, String> metaBefore = hgetall(meta);

    redis.server().command("CONFIG", "RESETSTAT");
    assertThat(Promotions.now(follower)).isZero();
    Map<String, Long> calls = RedisProbe.commandCalls(redis.server());

    assertThat(calls).as("commands of the follower's pass").containsKey("evalsha");
    assertThat(calls.keySet())
        .as("a follower writes nothing (commands of its pass: %s)", calls)
        .doesNotContainAnyElementsOf(WRITES);
    assertThat(hgetall(meta))
        .as("the lock and the partition's plan are unchanged")
        .isEqualTo(metaBefore);
    assertThat(redis.server().command("HGET", meta, "po")).isEqualTo(owner);
  }

  private static Map<String, String> hgetall(String key) {
    String[] flat = redis.server().command("HGETALL", key).split("\n", -1);
    Map<String, String> fields = new TreeMap<>();
    for (int i = 0; i + 1 < flat.length; i += 2) {
      fields.put(flat[i], flat[i + 1]);
    }
    return fields;
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

  /** Whether {@code id} is an entry of a slot list of partition 0 of a queue. */
  private static boolean inSlotList(String queue, String id) {
    String keys = redis.server().command("KEYS", "hg:{" + queue + ".0}:slot:*");
    if (keys == null || keys.isBlank()) {
      return false;
    }
    for (String key : keys.split("\n")) {
      // A slot list holds members: the id and one byte naming its pool.
      if (redis
          .server()
          .command("LRANGE", key, "0", "-1")
          .lines()
          .anyMatch(m -> m.length() == id.length() + 1 && m.startsWith(id))) {
        return true;
      }
    }
    return false;
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
}
