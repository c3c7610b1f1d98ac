package dev.hourglass.server;

import static dev.hourglass.server.ContractSupport.j;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.WebElement;

/**
 * A queue's page in headless Chromium on a real server and Redis: charts, jobs by state, finding a
 * job by id, requeueing a dead job, pausing, and what a viewer token may not do.
 */
class DashboardQueueTest extends DashboardTestBase {

  /** Jobs in every state, a few intervals of rates and lateness, for the page and its pictures. */
  private void traffic() {
    deadJob("orders", "order-7", "HTTP 503: upstream unavailable");
    sample(); // the baseline of the queue's rates
    for (int i = 0; i < 12; i++) {
      enqueue("orders", "order-" + (1000 + i), 0, "{\"order\":" + (1000 + i) + ",\"total\":19.9}");
    }
    enqueue(
        "orders",
        "order-42",
        30_000,
        // over 256 bytes: stored compressed, shown as enqueued
        "{\"order\":42,\"customer\":\"c-17\",\"items\":[\"book\",\"pen\"],\"lines\":["
            + "\"one book, hardcover, gift wrapped\",".repeat(8)
            + "\"one pen, blue\"]}");
    enqueue("orders", "order-43", 20 * 60_000, "{\"order\":43}");
    enqueue("orders", "order-44", 5 * 3_600_000, "{\"order\":44}");
    enqueue("orders", "order-45", 3 * 86_400_000L, "{\"order\":45}");
    TestServer.Response urgent =
        s.post(
            "/v1/queues/orders/jobs",
            j("{'id':'order-46','delayMs':2400000,'priority':8,'payload':{'order':46}}"));
    assertThat(urgent.status()).as(urgent.body()).isEqualTo(201);
    sample();
    claim("orders", 5).forEach(job -> ack("orders", job));
    claim("orders", 2);
    sample();
  }

  @Test
  void showsTheQueueWithChartsAndFindsAJobById() {
    traffic();
    browser.viewport(1280, 1000);
    browser.open(s, "#/queue/orders");
    browser.textIs(css("#queueCounts [data-card='delayed'] .card-value"), "5");
    browser.visible(css("#chartThroughput svg path.series"));
    browser.visible(css("tr[data-job='order-42']"));
    // The job list shows each job's priority: a badge above 0.
    browser.textIs(css("tr[data-job='order-46'] td.prio .badge.prio"), "8");
    browser.textIs(css("tr[data-job='order-43'] td.prio"), "0");
    browser.screenshot("queue");

    browser.find(css("#findId")).get().sendKeys("order-42\n");
    browser.until(d -> d.getCurrentUrl().endsWith("#/queue/orders/job/order-42"));
    browser.textIs(css("#jobState"), "delayed");
    assertThat(browser.find(css("#jobPayload")).get().getText()).contains("\"customer\": \"c-17\"");
    browser.textIs(
        org.openqa.selenium.By.xpath(
            "//dl[@id='jobFields']/dt[.='Priority']/following-sibling::dd[1]"),
        "0");
    browser.screenshot("job");

    browser.visible(css("#jobActions button[data-action='run-now']")).click();
    browser.visible(css("#confirmOk")).click();
    browser.textIs(css("#jobState"), "ready");
    assertThat(s.get("/v1/queues/orders/jobs/order-42").json().get("state").asText())
        .isEqualTo("ready");

    browser.open(s, "#/queue/orders/job/no-such-job");
    browser.textIs(css("#jobState"), "not found");

    browser.open(s, "#/queue/orders/history");
    browser.textIs(
        css("#tabBody .empty"),
        "No archive configured: finished jobs are not kept on this server.");
  }

  @Test
  void deletingAQueueWithJobsAsksAgainThenRemovesItAndItsJobs() {
    enqueue("scratch", "s-1", 60_000, "{}");
    browser.viewport(1280, 1000);
    browser.open(s, "#/queue/scratch");
    browser.textIs(css("#queueCounts [data-card='delayed'] .card-value"), "1");
    browser.visible(css("#deleteQueueButton")).click();
    browser.visible(css("#confirmOk")).click();
    browser.textIs(css("#confirmTitle"), "Queue scratch still has jobs");
    browser.visible(css("#confirmOk")).click();
    browser.until(d -> d.getCurrentUrl().endsWith("#/"));
    browser.until(d -> browser.find(css("tr[data-queue='scratch']")).isEmpty());
    assertThat(s.get("/v1/queues/scratch").status()).isEqualTo(404);
  }

  @Test
  void aDeadJobRequeuedFromTheQueuePageLeavesTheDeadList() {
    traffic();
    browser.viewport(1280, 1000);
    browser.open(s, "#/queue/orders/dead");
    WebElement row = browser.visible(css("tr[data-job='order-7']"));
    assertThat(row.getText()).contains("HTTP 503: upstream unavailable");
    browser.screenshot("queue-dead");

    row.findElement(css("button[data-action='requeue']")).click();
    browser.visible(css("#confirmOk")).click();
    browser.until(d -> browser.find(css("tr[data-job='order-7']")).isEmpty());
    browser.visible(css(".toast"));
    assertThat(stats("orders").dead()).isZero();
    assertThat(s.get("/v1/queues/orders/jobs/order-7").json().get("state").asText())
        .isEqualTo("ready");
  }

  @Test
  void pausingAQueueShowsItPausedAndClaimsGetNothing() {
    enqueue("orders", "p-1", 0, "{}");
    browser.viewport(1280, 1000);
    browser.open(s, "#/queue/orders");
    browser.textIs(css("#queueCounts [data-card='ready'] .card-value"), "1");
    browser.visible(css("#pauseButton")).click();
    browser.visible(css("#confirmOk")).click();
    browser.visible(css("#queuePaused"));
    browser.textIs(css("#pauseButton"), "Resume");
    assertThat(claim("orders", 1)).as("a paused queue hands out nothing").isEmpty();

    browser.open(s, "#/");
    browser.visible(css("tr[data-queue='orders'] .badge"));
  }

  @Test
  void showsTheQueuesLimitsAndTheReadyJobsTheyHoldBack() {
    assertThat(
            s.call(
                    "PUT",
                    "/v1/queues/limited",
                    "{\"limits\":{\"rate\":{\"max\":100,\"periodMs\":1000},\"concurrency\":1}}")
                .status())
        .isEqualTo(201);
    for (int i = 0; i < 4; i++) {
      enqueue("limited", "l-" + i, 0, "{}");
    }
    assertThat(claim("limited", 4)).hasSize(1);
    browser.viewport(1280, 1000);
    browser.open(s, "#/queue/limited");
    browser.textIs(
        css("#queueLimitsText"), "Limits: at most 100 deliveries per 1s, at most 1 inflight.");
    browser.textIs(css("#queueHeldBack"), "Held back now: 3 ready jobs.");
    browser.screenshot("queue-limits");

    s.call("PUT", "/v1/queues/limited", "{\"limits\":null}");
    browser.textIs(css("#queueLimitsText"), "No flow-control limits.");
    browser.textIs(css("#queueHeldBack"), "");
  }

  @Test
  void aViewerTokenSeesThePageButIsRefusedAnAction() {
    String viewer = ContractSupport.VIEWER_TOKEN;
    try (TestServer secured = ContractSupport.adminAndViewer(redis.uri(), "*")) {
      TestServer previous = s;
      s = secured;
      try {
        s.call("POST", "/v1/queues/orders/jobs", "{\"payload\":1}", ContractSupport.ADMIN_TOKEN);
        browser.viewport(1280, 900);
        browser.open(s, "#/queue/orders");
        browser.visible(css("#tokenDialog"));
        browser.find(css("#tokenInput")).get().sendKeys(viewer + "\n");
        browser.textIs(css("#queueCounts [data-card='ready'] .card-value"), "1");

        browser.visible(css("#requeueAllButton")).click();
        browser.visible(css("#confirmOk")).click();
        WebElement toast = browser.visible(css(".toast.error"));
        assertThat(toast.getText()).startsWith("Not allowed with this token").contains("viewer");
        assertThat(
                s.call("GET", "/v1/queues/orders", null, viewer).json().path("paused").asBoolean())
            .isFalse();
      } finally {
        s = previous;
      }
    }
  }
}
