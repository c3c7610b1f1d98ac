package dev.hourglass.server;

import static dev.hourglass.server.ContractSupport.j;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.openqa.selenium.By;

/**
 * The dashboard tests' frame: the contract tests' Redis and fresh server per test, one headless
 * Chromium per class, and jobs made through the HTTP API as any client makes them.
 */
abstract class DashboardTestBase extends ContractTestBase {
  static DashboardBrowser browser;

  @BeforeAll
  static void startBrowser() {
    browser = new DashboardBrowser();
  }

  @AfterAll
  static void stopBrowser() {
    if (browser != null) {
      browser.close();
    }
  }

  /**
   * Stops the server's 10-s sampling loop so that the test decides when each interval ends (with
   * {@code sample()}): a loop's sample between two of the test's would show an empty interval.
   */
  @BeforeEach
  void samplesWhenTheTestSays() {
    s.server().series().close();
  }

  /** Ends an interval of the queue series now. */
  void sample() {
    s.server().series().sample();
  }

  static By css(String selector) {
    return By.cssSelector(selector);
  }

  /** Selector of one cell of the overview's row of this queue. */
  static By overviewCell(String queue, String column) {
    return css("tr[data-queue='" + queue + "'] td[data-col='" + column + "']");
  }

  void enqueue(String queue, String id, long delayMs, String payloadJson) {
    TestServer.Response r =
        s.post(
            "/v1/queues/" + queue + "/jobs",
            "{\"id\":\"" + id + "\",\"delayMs\":" + delayMs + ",\"payload\":" + payloadJson + "}");
    assertThat(r.status()).as(r.body()).isEqualTo(201);
  }

  /** Claims up to {@code max} jobs; returns the claimed ones. */
  JsonNode claim(String queue, int max) {
    TestServer.Response r =
        s.post("/v1/queues/" + queue + "/claim", j("{'max':" + max + ",'waitMs':0}"));
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return r.json().get("jobs");
  }

  /**
   * A job of this id in the queue's dead letters, with a last error: enqueued, claimed and nacked
   * as dead. Call it while the queue has no other ready job, so that the claim gets this one.
   */
  void deadJob(String queue, String id, String error) {
    enqueue(queue, id, 0, "{\"order\":\"" + id + "\",\"total\":42.5}");
    JsonNode job = claim(queue, 1).get(0);
    assertThat(job.get("id").asText()).as("the only ready job").isEqualTo(id);
    TestServer.Response r =
        s.post(
            "/v1/queues/" + queue + "/jobs/" + id + "/nack",
            j(
                "{'receipt':'"
                    + job.get("receipt").asText()
                    + "','error':'"
                    + error
                    + "','dead':true}"));
    assertThat(r.status()).as(r.body()).isEqualTo(204);
  }

  void ack(String queue, JsonNode job) {
    TestServer.Response r =
        s.post(
            "/v1/queues/" + queue + "/jobs/" + job.get("id").asText() + "/ack",
            "{\"receipt\":\"" + job.get("receipt").asText() + "\"}");
    assertThat(r.status()).as(r.body()).isEqualTo(204);
  }
}
