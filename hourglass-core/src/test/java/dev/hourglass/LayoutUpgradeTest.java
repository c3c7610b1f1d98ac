package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.hourglass.internal.Keys;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Layout 1 moved due jobs from {@code near} to a {@code ready} set; layout 2 claims them straight
 * from near. Layout 3 creates queues with staggered pools; queues created before keep even pools.
 * Layout 4 writes slot entries as bare ids, where 2 and 3 put the due time before the id. A client
 * connecting to older data raises the version, delivers what a layout-1 client left in ready, and
 * finds every job where the layout that wrote it put it.
 */
class LayoutUpgradeTest extends HourglassTestBase {
  private static final List<String> IDS = List.of("a", "b", "c");
  private static final int POOLS = 7;
  private static final List<String> MANY =
      IntStream.range(0, 3000).mapToObj(i -> "job-" + i).toList();

  @Test
  void readyJobsLeftByLayout1AreFoundAndDeliveredAfterTheUpgrade() {
    Hourglass before = manual();
    Queue q = before.queue("legacy");
    IDS.forEach(id -> q.enqueue(job(id)));
    q.promote(); // a full pass: meta records the retention it applied and when work is next due
    // What a layout-1 promoter leaves behind: the due jobs in ready, and nothing due in meta.
    for (String id : IDS) {
      String due = redis.server().command("ZSCORE", "hg:{legacy.0}:near", id);
      redis.server().command("ZREM", "hg:{legacy.0}:near", id);
      redis.server().command("ZADD", "hg:{legacy.0}:ready", due, id);
    }
    redis.server().command("HSET", "hg:{legacy.0}:meta", "due", "9000000000000000");
    // Its promoter lock lapsed (layout 1 kept it in lo/lu; po/pu and the stand-down are layout
    // 4's).
    redis.server().command("HDEL", "hg:{legacy.0}:meta", "lo", "lu", "po", "pu");
    redis.server().command("SET", "hg:{meta}:layout", "1");
    before.close();

    Queue upgraded = manual().queue("legacy");

    assertThat(redis.server().command("GET", "hg:{meta}:layout")).isEqualTo(Keys.LAYOUT_VERSION);
    assertThat(upgraded.get("a").orElseThrow().state()).isEqualTo(JobState.READY);
    assertThat(upgraded.stats().ready()).isEqualTo(3);
    assertThat(upgraded.cancel("c")).isTrue();
    assertThat(upgraded.claim(10, null)).as("claim reads near only").isEmpty();
    // The upgrade asked for a full pass, which folds ready back into near (meta.due alone would
    // have made this pass an idle one).
    assertThat(upgraded.promote()).isEqualTo(2);
    assertThat(upgraded.claim(10, null)).extracting(Delivery::id).containsExactly("a", "b");
    assertThat(redis.server().command("EXISTS", "hg:{legacy.0}:ready")).isEqualTo("0");
    assertThat(upgraded.stats().inflight()).isEqualTo(2);
  }

  @Test
  void aQueueOfLayout2KeepsEvenPoolsAndANewQueueGetsStaggeredOnes() {
    Hourglass before = manual();
    QueueSettings settings = QueueSettings.builder().pools(POOLS).build();
    before.configureQueue("old", settings);
    // What layout 2 created: the same settings without poolMap.
    redis.server().command("HDEL", "hg:{meta}:queue:old", "poolMap");
    redis.server().command("SET", "hg:{meta}:layout", "2");
    before.close();

    Hourglass after = manual();
    Queue old = after.queue("old");
    Queue fresh = after.configureQueue("fresh", settings);
    assertThat(redis.server().command("GET", "hg:{meta}:layout")).isEqualTo(Keys.LAYOUT_VERSION);
    old.enqueueAll(MANY.stream().map(HourglassTestBase::job).toList());
    fresh.enqueueAll(MANY.stream().map(HourglassTestBase::job).toList());

    assertThat(redis.server().command("HGET", "hg:{old.0}:meta", "pools")).isEqualTo("7");
    assertThat(redis.server().command("HGET", "hg:{fresh.0}:meta", "pools"))
        .isEqualTo("7:staggered");
    for (String id : MANY) {
      assertThat(pool("old", id)).isEqualTo(Keys.poolIndex(id, POOLS, false));
      assertThat(pool("fresh", id)).isEqualTo(Keys.poolIndex(id, POOLS, true));
    }
    // Staggered: pool i takes a share proportional to POOLS + i, so the last holds about
    // (2 * POOLS - 1) / POOLS = 1.86 times the first; even pools hold about the same.
    assertThat(hlen("fresh", POOLS - 1)).isGreaterThan(hlen("fresh", 0) * 3 / 2);
    assertThat(hlen("old", POOLS - 1)).isLessThan(hlen("old", 0) * 5 / 4);

    // The scripts find each record where the client put it: claim and ack all of them.
    for (Queue q : List.of(old, fresh)) {
      Set<String> seen = new HashSet<>();
      List<Delivery> batch;
      while (!(batch = q.claim(500, Duration.ofMinutes(1))).isEmpty()) {
        for (Delivery d : batch) {
          assertThat(d.payloadAsString()).isEqualTo("payload-" + d.id());
          seen.add(d.id());
          q.ack(d.id(), d.receipt());
        }
      }
      assertThat(seen).containsExactlyInAnyOrderElementsOf(MANY);
      assertThat(q.stats().total()).isZero();
    }
  }

  @Test
  void slotEntriesOfLayout3AreReadAndBareOnesFollowOnceOlderPromotersStandDown() {
    Hourglass before = manual();
    QueueSettings settings =
        QueueSettings.builder().pools(POOLS).slotWidth(Duration.ofSeconds(1)).build();
    Queue q = before.configureQueue("slotted", settings);
    // Due 4 to 5 s out: slot lists starting 3 s out or later, which no promoter loads for 2 s.
    Map<String, Long> due = new HashMap<>();
    for (EnqueueResult r : q.enqueueAll(slotJobs("old-"))) {
      due.put(r.id(), r.runAt().toEpochMilli());
    }
    // What layout 3 left: each slot entry the due time (6 bytes, little-endian), then the id; its
    // promoter lock in lo/lu (lapsed), none in po/pu.
    for (String list : slotLists("slotted")) {
      List<String> ids = slotListEntries(list);
      redis.server().command("DEL", list);
      for (String id : ids) {
        redis
            .server()
            .command(
                "EVAL",
                "return redis.call('RPUSH', KEYS[1], struct.pack('<i6', tonumber(ARGV[1])) .. ARGV[2])",
                "1",
                list,
                Long.toString(due.get(id)),
                id);
      }
    }
    assertThat(slotEntryCount("slotted")).isEqualTo(JOBS_PER_SET);
    redis.server().command("HDEL", META, "po", "pu");
    redis.server().command("HSET", META, "lo", "a-layout-3-promoter", "lu", "1");
    redis.server().command("SET", "hg:{meta}:layout", "3");
    before.close();

    Queue upgraded = manual().queue("slotted");
    assertThat(redis.server().command("GET", "hg:{meta}:layout")).isEqualTo(Keys.LAYOUT_VERSION);
    // No layout-4 promoter has run here yet, so a layout-3 one still may: entries keep its form.
    List<String> middle = ids(upgraded.enqueueAll(slotJobs("mid-")));
    assertThat(slotEntryCount("slotted")).isEqualTo(2 * JOBS_PER_SET);
    assertThat(allSlotEntries()).as("written in the old form").doesNotContainAnyElementsOf(middle);

    upgraded.promote();
    // Older promoters stand down: their lock is held for about 95 years.
    assertThat(redis.server().command("HGET", META, "lo")).isEqualTo("layout4");
    assertThat(Long.parseLong(redis.server().command("HGET", META, "lu")))
        .isGreaterThan(System.currentTimeMillis() + Duration.ofDays(90 * 365).toMillis());
    List<String> fresh = ids(upgraded.enqueueAll(slotJobs("new-")));
    assertThat(slotEntryCount("slotted")).isEqualTo(3 * JOBS_PER_SET);
    assertThat(allSlotEntries()).as("bare ids, in the same lists").containsAll(fresh);
    // Left behind in the old form: the entry of a cancelled job, and the entry of a job moved an
    // hour out, which names its old due time and so must not load it now.
    assertThat(upgraded.cancel("old-1")).isTrue();
    upgraded.reschedule("old-2", Duration.ofHours(1));

    Set<String> expected = new HashSet<>(due.keySet());
    expected.addAll(middle);
    expected.addAll(fresh);
    expected.removeAll(List.of("old-1", "old-2"));
    List<String> seen = new ArrayList<>();
    await()
        .atMost(Duration.ofSeconds(15))
        .pollInterval(Duration.ofMillis(50))
        .until(
            () -> {
              upgraded.promote();
              for (Delivery d : upgraded.claim(100, Duration.ofMinutes(1))) {
                assertThat(d.payloadAsString()).isEqualTo("payload-" + d.id());
                seen.add(d.id());
                upgraded.ack(d.id(), d.receipt());
              }
              return seen.size() >= expected.size();
            });
    assertThat(seen).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(slotEntryCount("slotted")).as("only the hour-out slot is left").isEqualTo(1);
    assertThat(upgraded.get("old-2").orElseThrow().state()).isEqualTo(JobState.DELAYED);
    assertThat(redis.server().command("ZSCORE", "hg:{slotted.0}:near", "old-2"))
        .as("not loaded by its stale entry")
        .isNull();
    assertThat(upgraded.stats().total()).isEqualTo(1);
  }

  @Test
  void aClientAssumingEvenPoolsIsRefusedOnAStaggeredPartition() {
    Queue q = manual().queue("fresh");
    q.enqueue(job("a"));
    // A client that read the settings without poolMap (as a layout-2 client would) sends the
    // plain pool count; the partition's meta says staggered.
    redis.server().command("HDEL", "hg:{meta}:queue:fresh", "poolMap");
    Queue even = manual().queue("fresh");

    assertThatThrownBy(() -> even.enqueue(job("b"))).isInstanceOf(LayoutVersionException.class);
    assertThatThrownBy(() -> even.get("a")).isInstanceOf(LayoutVersionException.class);
    assertThat(q.get("b")).isEmpty();
    assertThat(q.get("a")).isPresent();
  }

  private static final int JOBS_PER_SET = 40;
  private static final String META = "hg:{slotted.0}:meta";

  private static List<JobSpec> slotJobs(String prefix) {
    return IntStream.range(0, JOBS_PER_SET)
        .mapToObj(
            i ->
                JobSpec.builder()
                    .id(prefix + i)
                    .payload("payload-" + prefix + i)
                    .delay(Duration.ofMillis(4_000 + 25L * i))
                    .build())
        .toList();
  }

  private static List<String> slotLists(String queue) {
    String keys = redis.server().command("KEYS", "hg:{" + queue + ".0}:slot:*");
    return keys == null || keys.isBlank() ? List.of() : List.of(keys.split("\n"));
  }

  private static List<String> ids(List<EnqueueResult> results) {
    return results.stream().map(EnqueueResult::id).toList();
  }

  /** The entries of a slot list as text: bare ids come out whole, due-time entries garbled. */
  private static List<String> slotListEntries(String list) {
    return List.of(redis.server().command("LRANGE", list, "0", "-1").split("\\n"));
  }

  private static List<String> allSlotEntries() {
    List<String> entries = new ArrayList<>();
    for (String list : slotLists("slotted")) {
      entries.addAll(slotListEntries(list));
    }
    return entries;
  }

  private static long slotEntryCount(String queue) {
    long total = 0;
    for (String list : slotLists(queue)) {
      total += Long.parseLong(redis.server().command("LLEN", list));
    }
    return total;
  }

  private static int pool(String queue, String id) {
    List<Integer> in = new ArrayList<>();
    for (int i = 0; i < POOLS; i++) {
      String key = "hg:{" + queue + ".0}:pool:" + i;
      if ("1".equals(redis.server().command("HEXISTS", key, id))) {
        in.add(i);
      }
    }
    assertThat(in).as("pools of %s in %s", id, queue).hasSize(1);
    return in.get(0);
  }

  private static long hlen(String queue, int pool) {
    return Long.parseLong(redis.server().command("HLEN", "hg:{" + queue + ".0}:pool:" + pool));
  }
}
