package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.internal.Promotions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@code inflight} and {@code leases} keys of a partition hold a KEEPER entry (partition.lua)
 * that keeps them in Redis's hash-table encoding and alive when no job is leased: in the compact
 * encoding every claim and ack scanned the whole key. The entry must stay out of everything that
 * counts or sweeps leases. The pools get the hash-table encoding from the same entry, written and
 * removed by the enqueue that writes their records.
 */
class LeaseKeysTest extends HourglassTestBase {
  private static final String INFLIGHT = "hg:{keeper.0}:inflight";
  private static final String LEASES = "hg:{keeper.0}:leases";

  private static String command(String... args) {
    return redis.server().command(args);
  }

  @Test
  void leaseKeysKeepTheHashTableEncodingAndStayOutOfCountsAndSweeps() {
    Queue<byte[]> q = manual().queue("keeper");
    q.enqueueAll(List.of(job("a"), job("b")));
    List<Delivery<byte[]>> got = q.claim(2, Duration.ofSeconds(30));
    assertThat(got).hasSize(2);

    assertThat(command("OBJECT", "ENCODING", INFLIGHT)).isEqualTo("skiplist");
    assertThat(command("OBJECT", "ENCODING", LEASES)).isEqualTo("hashtable");
    assertThat(q.stats().inflight()).isEqualTo(2);

    got.forEach(d -> q.ack(d.id(), d.receipt()));
    assertThat(q.stats().inflight()).as("the keeper is not counted").isZero();

    // A job waiting in near, and no lease left but the keeper: the pass must neither take the
    // keeper for a lapsed lease (deleting it) nor lose the job's due time as the next wake-up.
    q.enqueue(spec("later").delay(Duration.ofSeconds(2)).build());
    Instant due = q.get("later").orElseThrow().runAt();
    assertThat(Promotions.now(q)).isZero();
    assertThat(command("ZCARD", INFLIGHT)).as("only the keeper is left").isEqualTo("1");
    assertThat(command("OBJECT", "ENCODING", INFLIGHT)).isEqualTo("skiplist");
    assertThat(command("OBJECT", "ENCODING", LEASES)).isEqualTo("hashtable");
    assertThat(command("HGET", "hg:{keeper.0}:meta", "due"))
        .as("the next promoter pass is due when the waiting job is")
        .isEqualTo(Long.toString(due.toEpochMilli()));
    assertThat(q.stats().counters().retried()).isZero();

    // A lease that lapses beside the keeper still comes back.
    awaitRedisClockPast(due);
    Delivery<byte[]> lapsing = q.claim(1, Duration.ofMillis(20)).get(0);
    assertThat(lapsing.id()).isEqualTo("later");
    awaitRedisClockPast(lapsing.leaseUntil());
    assertThat(Promotions.now(q)).isEqualTo(1);
    assertThat(q.stats().counters().retried()).isEqualTo(1);
    assertThat(q.stats().inflight()).isZero();
    Delivery<byte[]> again = q.claim(1, Duration.ofSeconds(30)).get(0);
    assertThat(again.attempt()).isEqualTo(2);
    q.ack(again.id(), again.receipt());
    assertThat(q.stats().inflight()).isZero();
    assertThat(command("ZCARD", INFLIGHT)).isEqualTo("1");
  }

  @Test
  void poolsOfSmallRecordsUseTheHashTableEncodingAndHoldOnlyJobs() {
    Queue<byte[]> q = manual().queue("keeper");
    // Ids the client makes (enqueue_fresh.lua) and ids given (enqueue.lua), payloads of a byte:
    // records far under the 64 bytes up to which Redis would keep a small hash compact.
    List<EnqueueResult> made =
        q.enqueueAll(
            List.of(
                JobSpec.builder().payload("x").build(), JobSpec.builder().payload("y").build()));
    q.enqueue(job("given"));
    List<String> pools = new ArrayList<>();
    for (String key : command("KEYS", "hg:{keeper.0}:pool:*").split("\n")) {
      pools.add(key);
      assertThat(command("OBJECT", "ENCODING", key)).as(key).isEqualTo("hashtable");
    }
    long fields = 0;
    for (String key : pools) {
      fields += Long.parseLong(command("HLEN", key));
    }
    assertThat(fields).as("one field per job, no keeper left").isEqualTo(3);
    assertThat(made).allMatch(EnqueueResult::created);
  }
}
