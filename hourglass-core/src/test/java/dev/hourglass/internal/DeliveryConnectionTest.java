package dev.hourglass.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hourglass.Delivery;
import dev.hourglass.Hourglass;
import dev.hourglass.JobSpec;
import dev.hourglass.Nack;
import dev.hourglass.Queue;
import dev.hourglass.testing.RedisExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The consumers' path (promote, claim, ack, nack, extend, release) runs on a connection of its own:
 * Redis answers one connection's commands strictly in order, so on the shared connection a claim
 * would wait behind everything a producer of the same client has sent. The test holds the shared
 * connection with a BLPOP on a key nobody pushes to and drives the whole consumers' path meanwhile.
 */
class DeliveryConnectionTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  private static final byte[] HOLD =
      "delivery-connection-test:hold".getBytes(StandardCharsets.UTF_8);

  private final dev.hourglass.MovableClock clock = new dev.hourglass.MovableClock();

  @Test
  void theConsumersPathDoesNotWaitBehindTheSharedConnection() throws Exception {
    try (Hourglass h =
        Hourglass.builder()
            .redisUri(redis.uri())
            .backgroundPromoter(false)
            .commandTimeout(Duration.ofSeconds(30)) // the held BLPOP and the enqueue behind it wait
            .clock(clock)
            .build()) {
      HourglassClient client = (HourglassClient) h;
      Queue<byte[]> q = h.queue("lanes");
      for (String id : List.of("a", "b", "c")) {
        q.enqueue(JobSpec.builder().id(id).payload("payload-" + id).build());
      }
      Promotions.now(
          q); // loads the queue's settings and the scripts while the shared connection is free

      CompletableFuture<?> held =
          client
              .redis()
              .async()
              .blpop(25, HOLD)
              .toCompletableFuture(); // holds the shared connection
      awaitBlockedClients(client, 1);
      CompletableFuture<?> enqueue =
          q.enqueueAsync(JobSpec.builder().id("d").payload("payload-d").build());

      // The queue's settings are re-read once the client's copy is 30 s old; that read is on the
      // consumers' path too.
      clock.advance(Duration.ofSeconds(31));
      List<Delivery<byte[]>> got = q.claim(3, Duration.ofSeconds(30));
      assertThat(got).extracting(Delivery::id).containsExactlyInAnyOrder("a", "b", "c");
      q.extend(got.get(0).id(), got.get(0).receipt(), Duration.ofSeconds(60));
      q.ack(got.get(0).id(), got.get(0).receipt());
      q.nack(got.get(1).id(), got.get(1).receipt(), Nack.retryAfter(Duration.ofHours(1), "later"));
      q.releaseAsync(got.get(2).id(), got.get(2).receipt()).get(10, TimeUnit.SECONDS);
      Promotions.now(q);

      assertThat(held).as("the shared connection is still held by its BLPOP").isNotDone();
      assertThat(enqueue)
          .as("an enqueue does wait behind it: it uses the shared connection")
          .isNotDone();

      client.redis().deliveryAsync().lpush(HOLD, "go".getBytes(StandardCharsets.UTF_8));
      held.get(10, TimeUnit.SECONDS);
      enqueue.get(10, TimeUnit.SECONDS);
      assertThat(q.get("d")).isPresent();
    }
  }

  private static void awaitBlockedClients(HourglassClient client, int n) {
    await("the BLPOP reaches Redis")
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(10))
        .until(
            () ->
                client
                    .redis()
                    .deliveryAsync()
                    .info("clients")
                    .get(10, TimeUnit.SECONDS)
                    .contains("blocked_clients:" + n + "\r"));
  }
}
