package dev.hourglass.server;

import static dev.hourglass.server.ContractSupport.j;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * A queue's Schedules tab in headless Chromium on a real server and Redis: each schedule's timing
 * in words, time zone, next runs in the browser's zone, paused or active; pause, resume and delete
 * behind the confirmation dialog; what a viewer token may not do.
 */
class DashboardSchedulesTest extends DashboardTestBase {
  /** The browser's zone: not the schedules' one, so that the page must convert the next runs. */
  private static final ZoneId BROWSER_ZONE = ZoneId.of("America/New_York");

  private static final DateTimeFormatter LOCAL =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(BROWSER_ZONE);

  @BeforeEach
  void browserInNewYork() {
    browser.driver.executeCdpCommand(
        "Emulation.setTimezoneOverride", Map.of("timezoneId", BROWSER_ZONE.getId()));
  }

  private JsonNode put(String queue, String id, String body) {
    TestServer.Response r = s.call("PUT", "/v1/queues/" + queue + "/schedules/" + id, j(body));
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json();
  }

  private static By cell(String schedule, String column) {
    return css("tr[data-schedule='" + schedule + "'] td[data-col='" + column + "']");
  }

  private static By button(String schedule, String action) {
    return css("tr[data-schedule='" + schedule + "'] button[data-action='" + action + "']");
  }

  @Test
  void theTabListsEachScheduleWithItsTimingInWordsZoneNextRunsAndState() {
    JsonNode nightly =
        put(
            "reports",
            "nightly-report",
            "{'cron':'30 2 * * *','timeZone':'Europe/Berlin','payload':{'report':'daily'}}");
    put("reports", "heartbeat", "{'every':60000,'payload':'ping'}");
    put(
        "reports",
        "office-hours",
        "{'cron':'15,45 9-17 * * 1-5','timeZone':'America/Chicago','payload':{}}");
    put("reports", "weekdays", "{'cron':'0 8 * * 1-5','timeZone':'Asia/Tokyo','payload':{}}");
    assertThat(s.call("POST", "/v1/queues/reports/schedules/heartbeat/pause", null).status())
        .isEqualTo(200);

    browser.viewport(1280, 1000);
    browser.open(s, "#/queue/reports/schedules");
    browser.textIs(css("tr[data-schedule='nightly-report'] .words"), "at 02:30 every day");
    assertThat(text(css("tr[data-schedule='nightly-report'] .raw"))).isEqualTo("30 2 * * *");
    assertThat(text(cell("nightly-report", "zone"))).isEqualTo("Europe/Berlin");
    assertThat(text(cell("nightly-report", "state"))).isEqualTo("active");
    assertThat(text(button("nightly-report", "pause"))).isEqualTo("Pause");

    List<String> expected = new ArrayList<>();
    nightly
        .get("nextRuns")
        .forEach(t -> expected.add(LOCAL.format(Instant.ofEpochMilli(t.asLong()))));
    assertThat(expected).hasSize(3);
    List<WebElement> runs =
        browser.driver.findElements(css("tr[data-schedule='nightly-report'] ul.runs li"));
    assertThat(runs).hasSize(3);
    for (int i = 0; i < 3; i++) {
      assertThat(runs.get(i).findElement(css(".abs")).getText())
          .as("next run %d in the browser's local time", i)
          .isEqualTo(expected.get(i));
      assertThat(runs.get(i).findElement(css(".rel")).getText()).matches("in \\d+[dhms].*");
    }

    assertThat(text(css("tr[data-schedule='heartbeat'] .words"))).isEqualTo("every 1 minute");
    assertThat(text(cell("heartbeat", "state"))).isEqualTo("paused");
    assertThat(text(button("heartbeat", "resume"))).isEqualTo("Resume");
    assertThat(text(css("tr[data-schedule='weekdays'] .words")))
        .isEqualTo("at 08:00 on Monday to Friday");
    assertThat(text(cell("weekdays", "zone"))).isEqualTo("Asia/Tokyo");
    assertThat(text(css("tr[data-schedule='office-hours'] .words")))
        .as("a form it does not translate is shown as it is")
        .isEqualTo("cron 15,45 9-17 * * 1-5");
    browser.screenshot("schedules");

    browser.viewport(400, 860);
    browser.visible(css("tr[data-schedule='nightly-report'] td[data-col='runs']"));
    assertThat(browser.scrollsSideways()).as("readable on a phone").isFalse();
  }

  @Test
  void timingInWordsCoversTheCommonCronFormsAndFallsBackToTheExpression() {
    browser.open(s, "#/");
    browser.visible(css("#overview"));
    Map<String, String> cases =
        Map.ofEntries(
            Map.entry("* * * * *", "every minute"),
            Map.entry("*/5 * * * *", "every 5 minutes"),
            Map.entry("*/7 * * * *", "cron */7 * * * *"), // not an even gap at the full hour
            Map.entry("5 * * * *", "every hour at :05"),
            Map.entry("0 */6 * * *", "every 6 hours at :00"),
            Map.entry("30 2 * * *", "at 02:30 every day"),
            Map.entry("0 9 * * 1", "at 09:00 every Monday"),
            Map.entry("0 9 * * SUN", "at 09:00 every Sunday"),
            Map.entry("0 9 * * 7", "at 09:00 every Sunday"),
            Map.entry("0 9 * * MON-FRI", "at 09:00 on Monday to Friday"),
            Map.entry("0 18 * * 1,3,5", "at 18:00 on Monday, Wednesday and Friday"),
            Map.entry("0 0 1 * *", "at 00:00 on day 1 of every month"),
            Map.entry("0 0 1 1 *", "cron 0 0 1 1 *"),
            Map.entry("0 0 13 * 5", "cron 0 0 13 * 5"),
            Map.entry("0 9,17 * * *", "cron 0 9,17 * * *"));
    cases.forEach(
        (cron, words) ->
            assertThat(browser.js("return HG.schedules.words({cron: arguments[0]})", cron))
                .as(cron)
                .isEqualTo(words));
    assertThat(browser.js("return HG.schedules.words({every: 60000})")).isEqualTo("every 1 minute");
    assertThat(browser.js("return HG.schedules.words({every: 7200000})"))
        .isEqualTo("every 2 hours");
    assertThat(browser.js("return HG.schedules.words({every: 90000})"))
        .isEqualTo("every 90 seconds");
    assertThat(browser.js("return HG.schedules.words({every: 1500})")).isEqualTo("every 1,500 ms");
  }

  @Test
  void pauseResumeAndDeleteWithConfirmation() {
    put("reports", "nightly-report", "{'cron':'30 2 * * *','payload':1}");
    browser.viewport(1280, 1000);
    browser.open(s, "#/queue/reports/schedules");
    browser.textIs(cell("nightly-report", "state"), "active");
    assertThat(stats("reports").delayed()).as("its pending occurrence").isEqualTo(1);

    browser.visible(button("nightly-report", "pause")).click();
    browser.textIs(css("#confirmTitle"), "Pause schedule nightly-report?");
    browser.visible(css("#confirmOk")).click();
    browser.textIs(cell("nightly-report", "state"), "paused");
    assertThat(schedule("nightly-report").get("paused").asBoolean()).isTrue();
    assertThat(stats("reports").delayed()).as("pausing removed the pending occurrence").isZero();

    browser.visible(button("nightly-report", "resume")).click();
    browser.textIs(css("#confirmTitle"), "Resume schedule nightly-report?");
    browser.visible(css("#confirmOk")).click();
    browser.textIs(cell("nightly-report", "state"), "active");
    assertThat(schedule("nightly-report").get("paused").asBoolean()).isFalse();
    assertThat(stats("reports").delayed()).isEqualTo(1);

    browser.visible(button("nightly-report", "delete")).click();
    browser.textIs(css("#confirmTitle"), "Delete schedule nightly-report?");
    browser.visible(css("#confirmCancel")).click();
    browser.until(d -> !browser.find(css("#confirmDialog[open]")).isPresent());
    assertThat(s.get("/v1/queues/reports/schedules/nightly-report").status())
        .as("cancelled: nothing deleted")
        .isEqualTo(200);

    browser.visible(button("nightly-report", "delete")).click();
    browser.visible(css("#confirmOk")).click();
    browser.until(d -> browser.find(css("tr[data-schedule='nightly-report']")).isEmpty());
    browser.textIs(
        css("#tabBody .empty"),
        "No schedules. Put one with PUT /v1/queues/{queue}/schedules/{id} or hourglass schedules put.");
    TestServer.Response gone = s.get("/v1/queues/reports/schedules/nightly-report");
    assertThat(gone.status()).isEqualTo(404);
    assertThat(gone.errorCode()).isEqualTo("schedule_not_found");
    assertThat(stats("reports").delayed()).as("its pending occurrence went with it").isZero();
  }

  @Test
  void aViewerTokenSeesTheSchedulesButIsRefusedPausingOne() {
    String viewer = ContractSupport.VIEWER_TOKEN;
    try (TestServer secured = ContractSupport.adminAndViewer(redis.uri(), "*")) {
      secured.call(
          "PUT",
          "/v1/queues/reports/schedules/nightly-report",
          j("{'cron':'30 2 * * *','payload':1}"),
          ContractSupport.ADMIN_TOKEN);
      browser.viewport(1280, 900);
      browser.open(secured, "#/queue/reports/schedules");
      browser.visible(css("#tokenDialog"));
      browser.find(css("#tokenInput")).get().sendKeys(viewer + "\n");
      browser.textIs(cell("nightly-report", "state"), "active");

      browser.visible(button("nightly-report", "pause")).click();
      browser.visible(css("#confirmOk")).click();
      WebElement toast = browser.visible(css(".toast.error"));
      assertThat(toast.getText()).startsWith("Not allowed with this token");
      JsonNode after =
          secured.call("GET", "/v1/queues/reports/schedules/nightly-report", null, viewer).json();
      assertThat(after.get("paused").asBoolean()).isFalse();
    }
  }

  private JsonNode schedule(String id) {
    TestServer.Response r = s.get("/v1/queues/reports/schedules/" + id);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return r.json();
  }

  private static String text(By by) {
    return browser.visible(by).getText();
  }
}
