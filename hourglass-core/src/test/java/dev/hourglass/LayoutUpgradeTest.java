package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.internal.Keys;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Layout 1 moved due jobs from {@code near} to a {@code ready} set; layout 2 claims them straight
 * from near. Layout 3 creates queues with staggered pools; queues created before keep even pools. A
 * client connecting to older data raises the version, delivers what a layout-1 client left in
 * ready, and finds every job where the layout that wrote it put it.
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
    redis.server().command("HDEL", "hg:{legacy.0}:meta", "lo", "lu"); // its promoter lock lapsed
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
    assertThat(redis.server().command("GET", "hg:{meta}:layout")).isEqualTo("3");
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
