package dev.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hourglass.Delivery;
import dev.hourglass.JobSpec;
import dev.hourglass.Nack;
import dev.hourglass.Queue;
import dev.hourglass.testing.Postgres;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The queue page's History tab on a server with an archive: finished jobs, newest first. */
class DashboardHistoryTest extends DashboardTestBase {
  @RegisterExtension static Postgres pg = Postgres.perClass();

  @Test
  void theHistoryTabShowsFinishedJobsWithTheirOutcomeAndLastError() {
    try (TestServer archived = TestServer.startWithArchive(redis.uri(), pg)) {
      Queue<byte[]> q = archived.server().hourglass().queue("shop");
      q.enqueue(JobSpec.builder().id("paid-1").payload("{\"sum\":12}").build());
      q.enqueue(JobSpec.builder().id("refund-1").payload("{\"sum\":-3}").build());
      int settled = 0;
      while (settled < 2) {
        for (Delivery<byte[]> d : q.claim(2, Duration.ofMinutes(1))) {
          if (d.id().equals("paid-1")) {
            q.ack(d);
          } else {
            q.nack(d, Nack.kill("card declined"));
          }
          settled++;
        }
      }
      await("both archived")
          .atMost(Duration.ofSeconds(30))
          .until(() -> archived.get("/v1/queues/shop/history").json().get("jobs").size() == 2);

      browser.viewport(1280, 1000);
      browser.open(archived, "#/queue/shop/history");
      browser.visible(css("tr[data-job='paid-1']"));
      browser.textIs(css("tr[data-job='paid-1'] td[data-label='Outcome']"), "acked");
      browser.textIs(css("tr[data-job='refund-1'] td[data-label='Outcome']"), "dead");
      assertThat(
              browser
                  .find(css("tr[data-job='refund-1'] td[data-label='Last error']"))
                  .get()
                  .getText())
          .contains("card declined");
      assertThat(
              browser.find(css("tr[data-job='paid-1'] td[data-label='Payload']")).get().getText())
          .contains("12");
      browser.screenshot("history");
    }
  }
}
