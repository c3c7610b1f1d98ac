package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Layout 1 moved due jobs from {@code near} to a {@code ready} set; layout 2 claims them straight
 * from near. A layout-2 client connecting to layout-1 data raises the version and delivers what a
 * layout-1 client left in ready.
 */
class LayoutUpgradeTest extends HourglassTestBase {
  private static final List<String> IDS = List.of("a", "b", "c");

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

    assertThat(redis.server().command("GET", "hg:{meta}:layout")).isEqualTo("2");
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
}
