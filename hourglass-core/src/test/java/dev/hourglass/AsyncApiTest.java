package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.internal.Promotions;
import dev.hourglass.spi.PayloadCodec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Every async twin of a queue handle and of its dead letters: each does what its blocking twin
 * does, fails its future with the same typed exception, and throws bad arguments at once.
 */
class AsyncApiTest extends HourglassTestBase {

  private static <T> T done(CompletableFuture<T> f) throws Exception {
    return f.get(30, TimeUnit.SECONDS);
  }

  private static Throwable failure(CompletableFuture<?> f) {
    return assertThatThrownBy(f::join).isInstanceOf(CompletionException.class).actual().getCause();
  }

  @Test
  void produceInspectAndChangeAsync() throws Exception {
    Queue<String> q = manual().queue("async", String.class);
    EnqueueResult a = done(q.enqueueAsync("a", Duration.ofHours(1)));
    assertThat(a.state()).isEqualTo(JobState.DELAYED);
    EnqueueResult b = done(q.enqueueAtAsync("b", Instant.now().minusSeconds(1)));
    assertThat(b.state()).isEqualTo(JobState.READY);
    EnqueueResult c = done(q.enqueueAsync(q.spec("c").id("c").build()));
    assertThat(c.created()).isTrue();
    assertThat(done(q.enqueueIfAbsentAsync(q.spec("c2").id("c").build())).duplicate()).isTrue();
    assertThat(failure(q.enqueueAsync(q.spec("c3").id("c").build())))
        .isInstanceOf(DuplicateJobException.class);
    List<EnqueueResult> all =
        done(q.enqueueAllAsync(List.of(q.spec("d").id("d").build(), q.spec("e").build())));
    assertThat(all).hasSize(2).allMatch(EnqueueResult::created);

    Optional<JobInfo<String>> got = done(q.getAsync("c"));
    assertThat(got.orElseThrow().payload().value()).isEqualTo("c");
    assertThat(done(q.getAsync("nope"))).isEmpty();

    JobInfo<String> moved = done(q.rescheduleAsync("c", Duration.ofHours(2)));
    assertThat(moved.state()).isEqualTo(JobState.DELAYED);
    assertThat(moved.payload().value()).isEqualTo("c");
    JobInfo<String> now = done(q.rescheduleAsync("c", Instant.EPOCH));
    assertThat(now.state()).isEqualTo(JobState.READY);
    assertThat(failure(q.rescheduleAsync("nope", Duration.ZERO)))
        .isInstanceOf(JobNotFoundException.class);

    assertThat(done(q.cancelAsync("d"))).isTrue();
    assertThat(done(q.cancelAsync("d"))).isFalse();

    QueueStats stats = done(q.statsAsync());
    assertThat(stats.total()).isEqualTo(4);
    assertThat(stats.counters().cancelled()).isEqualTo(1);
    assertThat(done(q.settingsAsync()).partitions()).isEqualTo(q.settings().partitions());
    assertThat(done(Promotions.async(q))).isGreaterThanOrEqualTo(0);

    assertThatThrownBy(() -> q.getAsync("bad id!")).isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> q.rescheduleAsync("c", Duration.ofSeconds(-1)))
        .isInstanceOf(InvalidArgumentException.class);
  }

  @Test
  void consumeAsync() throws Exception {
    Queue<String> q = manual().queue("consume", String.class);
    for (String id : List.of("a", "b", "c", "d")) {
      q.enqueue(q.spec(id).id(id).maxAttempts(1).build());
    }
    List<Delivery<String>> got = done(q.claimAsync(4, Duration.ofSeconds(30)));
    assertThat(got)
        .extracting(d -> d.payload().value())
        .containsExactlyInAnyOrder("a", "b", "c", "d");
    Delivery<String> a = byId(got, "a");
    Delivery<String> b = byId(got, "b");
    Delivery<String> c = byId(got, "c");
    Delivery<String> d = byId(got, "d");

    Instant extended = done(q.extendAsync(a, Duration.ofMinutes(5)));
    assertThat(extended).isAfter(a.leaseUntil());
    assertThat(done(q.extendAsync(b.id(), b.receipt(), Duration.ofMinutes(5))))
        .isAfter(b.leaseUntil());
    done(q.ackAsync(a));
    assertThat(failure(q.ackAsync(a))).isInstanceOf(JobNotFoundException.class);
    done(q.ackAsync(b.id(), b.receipt()));
    assertThat(done(q.nackAsync(c, Nack.retry("boom"))).dead()).isTrue(); // maxAttempts 1
    assertThat(done(q.nackAsync(d.id(), d.receipt(), Nack.kill("bad"))).dead()).isTrue();
    assertThat(failure(q.nackAsync(d.id(), "wrong-receipt", Nack.kill("bad"))))
        .isInstanceOf(StaleReceiptException.class);

    assertThat(done(q.claimAsync(1, null, Duration.ofMillis(50)))).isEmpty();

    DeadLetters<String> dead = q.dead();
    assertThat(done(dead.countAsync())).isEqualTo(2);
    JobPage<String> page = done(dead.listAsync(null, 1));
    assertThat(page.jobs()).hasSize(1);
    JobPage<String> rest = done(dead.listAsync(page.next().orElseThrow(), 10));
    assertThat(rest.jobs()).hasSize(1);
    assertThat(List.of(page.jobs().get(0).payload().value(), rest.jobs().get(0).payload().value()))
        .containsExactlyInAnyOrder("c", "d");
    done(dead.requeueAsync("c"));
    assertThat(failure(dead.requeueAsync("c"))).isInstanceOf(JobStateException.class);
    assertThat(failure(dead.requeueAsync("never"))).isInstanceOf(JobNotFoundException.class);
    assertThat(done(dead.requeueAllAsync())).isEqualTo(1);
    Delivery<String> again = done(q.claimAsync(2, null)).get(0);
    done(q.nackAsync(again, Nack.kill("again")));
    assertThat(done(dead.purgeAsync())).isEqualTo(1);
    assertThat(done(dead.countAsync())).isZero();

    assertThatThrownBy(() -> q.claimAsync(0, null)).isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> dead.listAsync(null, 0)).isInstanceOf(InvalidArgumentException.class);
  }

  @Test
  void listPauseAndDeleteAsync() throws Exception {
    Queue<String> q = manual().queue("async-admin", PayloadCodec.utf8());
    done(q.enqueueAsync(q.spec("r").id("r").build()));
    done(q.enqueueAsync("later", Duration.ofMinutes(30)));

    JobPage<String> ready = done(q.jobsAsync(JobState.READY, 10, null));
    assertThat(ready.jobs()).extracting(JobInfo::id).containsExactly("r");
    assertThat(ready.jobs().get(0).payload().value()).isEqualTo("r");
    assertThat(done(q.dueWithinAsync(List.of(Duration.ofMinutes(1), Duration.ofHours(1)))))
        .containsExactly(0L, 1L);
    assertThatThrownBy(() -> q.jobsAsync(JobState.READY, 0, null))
        .isInstanceOf(InvalidArgumentException.class);

    done(q.pauseAsync());
    assertThat(done(q.claimAsync(1, null))).isEmpty();
    done(q.resumeAsync());
    assertThat(done(q.statsAsync()).paused()).isFalse();

    assertThat(failure(q.deleteAsync())).isInstanceOf(QueueNotEmptyException.class);
    assertThat(done(q.deleteWithJobsAsync())).isEqualTo(2);
    done(q.deleteAsync()); // empty (and recreated by the call itself): deleted
  }

  private static <T> Delivery<T> byId(List<Delivery<T>> got, String id) {
    return got.stream().filter(d -> d.id().equals(id)).findFirst().orElseThrow();
  }
}
