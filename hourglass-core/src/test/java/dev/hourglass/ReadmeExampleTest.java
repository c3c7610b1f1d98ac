package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The README's quick start, as printed there, runs against a real Redis. */
class ReadmeExampleTest extends HourglassTestBase {
  final List<String> closed = new CopyOnWriteArrayList<>();

  void closeOrder(String payload) {
    closed.add(payload);
  }

  @Test
  void quickStartRunsAsPrinted() throws Exception {
    String readme = Files.readString(Path.of("..", "README.md"));
    assertThat(readme)
        .contains(
            ".delay(Duration.ofMinutes(30))", "hourglass.worker(\"orders\", job -> closeOrder");

    try (Hourglass hourglass = Hourglass.builder().redisUri(redis.uri()).build()) {
      Queue<byte[]> orders = hourglass.queue("orders");
      orders.enqueue(
          JobSpec.builder()
              .id("close-order-42") // optional; a second live job with this id is refused
              .payload("{\"order\":42}")
              .delay(Duration.ofMinutes(30))
              .backoff(Backoff.parseSchedule("15s 3m 10m 30m 1h"))
              .build());
      hourglass.worker(
          "orders",
          job -> closeOrder(job.payloadAsString()), // return = ack, throw = retry
          WorkerOptions.builder().concurrency(8).build());

      // Not in the README: bring the job forward so the test need not wait 30 minutes.
      orders.reschedule("close-order-42", Duration.ofMillis(100));
      await().atMost(RedisProbe.LIVENESS).until(() -> closed.contains("{\"order\":42}"));
      await().atMost(RedisProbe.LIVENESS).until(() -> orders.stats().counters().acked() == 1);
    }
  }
}
