package dev.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

/**
 * The dashboard's overview in headless Chromium on a real server and Redis: counts and rates follow
 * the jobs without a reload, the page fits a 400-px phone, and the keyboard reaches everything.
 */
class DashboardOverviewTest extends DashboardTestBase {

  @Test
  void countsAndRatesChangeAsJobsFlowWithoutAReload() {
    browser.viewport(1280, 860);
    for (int i = 0; i < 3; i++) {
      enqueue("orders", "o-" + i, 0, "{\"n\":" + i + "}");
    }
    sample(); // the baseline of the queue's rates
    deadJob("billing.invoices", "inv-2031", "HTTP 500: card declined");
    for (int i = 0; i < 4; i++) {
      enqueue("reports", "daily-" + i, (i + 1) * 3_600_000L, "{\"day\":" + i + "}");
    }
    browser.open(s, "#/");
    browser.textIs(overviewCell("orders", "ready"), "3");
    browser.js("window.hgNoReload = 'still here'");

    for (int i = 3; i < 8; i++) {
      enqueue("orders", "o-" + i, 0, "{\"n\":" + i + "}");
    }
    enqueue("emails", "welcome-1", 3_600_000, "{\"to\":\"a@example.com\"}");
    browser.textIs(overviewCell("orders", "ready"), "8");
    browser.textIs(overviewCell("emails", "delayed"), "1");

    JsonNode claimed = claim("orders", 2);
    claimed.forEach(job -> ack("orders", job));
    sample();
    browser.textIs(overviewCell("orders", "ready"), "6");
    // The newest interval (the sample above) holds the acks; an earlier one may show first.
    browser.until(d -> rateShown("orders", "enqueued") && rateShown("orders", "acked"));
    assertThat(browser.js("return window.hgNoReload")).as("no reload").isEqualTo("still here");
    browser.textIs(css("[data-card='queues'] .card-value"), "4");

    browser.screenshot("overview");
  }

  @Test
  void aPhoneWidthNeedsNoSidewaysScrollEvenWithALongQueueName() {
    String longName = "tenant-" + "x".repeat(86) + "-events";
    assertThat(longName).hasSize(100);
    enqueue(longName, "a", 0, "{}");
    enqueue("orders", "b", 60_000, "{}");
    deadJob("billing", "invoice-7", "HTTP 503: upstream unavailable");
    browser.viewport(400, 860);
    try {
      browser.open(s, "#/");
      browser.textIs(overviewCell(longName, "ready"), "1");
      assertThat(browser.scrollsSideways()).as("overview at 400 px").isFalse();
      browser.screenshot("overview-phone");

      browser.open(s, "#/queue/" + longName);
      browser.visible(css("#queueCounts [data-card='ready']"));
      browser.textIs(css("#queueCounts [data-card='ready'] .card-value"), "1");
      assertThat(browser.scrollsSideways()).as("queue page at 400 px").isFalse();

      browser.open(s, "#/queue/billing/dead");
      WebElement dead = browser.visible(css("tr[data-job='invoice-7']"));
      browser.js("arguments[0].scrollIntoView({block: 'center'})", dead);
      assertThat(browser.scrollsSideways()).as("dead jobs at 400 px").isFalse();
      browser.screenshot("queue-phone");
    } finally {
      browser.viewport(1280, 860);
    }
  }

  @Test
  void theKeyboardReachesAQueueItsTabsAndItsActionsAndEscCancels() {
    deadJob("orders", "k-dead", "boom");
    enqueue("orders", "k-1", 0, "{}");
    browser.viewport(1280, 860);
    browser.open(s, "#/");
    browser.textIs(overviewCell("orders", "dead"), "1");

    WebElement link = tabTo("a.qlink");
    assertThat(link.getText()).isEqualTo("orders");
    browser.press(Keys.ENTER);
    browser.until(d -> d.getCurrentUrl().endsWith("#/queue/orders"));

    tabTo("a[data-tab='dead']");
    browser.press(Keys.ENTER);
    browser.visible(css("tr[data-job='k-dead']"));

    tabTo("tr[data-job='k-dead'] button[data-action='requeue']");
    browser.press(Keys.ENTER);
    browser.visible(css("#confirmDialog"));
    assertThat(browser.focused().getAttribute("id"))
        .as("Cancel has the focus")
        .isEqualTo("confirmCancel");
    browser.press(Keys.ESCAPE);
    browser.until(d -> !d.findElement(css("#confirmDialog")).isDisplayed());
    assertThat(stats("orders").dead()).as("Esc changed nothing").isEqualTo(1);

    tabTo("tr[data-job='k-dead'] button[data-action='requeue']");
    browser.press(Keys.ENTER);
    browser.visible(css("#confirmOk"));
    tabTo("#confirmOk");
    browser.press(Keys.ENTER);
    browser.until(d -> browser.find(css("tr[data-job='k-dead']")).isEmpty());
    assertThat(stats("orders").dead()).isZero();
  }

  private boolean rateShown(String queue, String rate) {
    String text = browser.find(overviewCell(queue, "rate-" + rate)).get().getText();
    return !text.equals("0") && !text.equals("—");
  }

  /** Presses Tab until the element matching the selector has the focus (at most 60 times). */
  private WebElement tabTo(String selector) {
    for (int i = 0; i < 60; i++) {
      WebElement f = browser.focused();
      if (Boolean.TRUE.equals(
          browser.js("return arguments[0].matches(arguments[1])", f, selector))) {
        return f;
      }
      browser.press(Keys.TAB);
    }
    throw new AssertionError("Tab never reached " + selector);
  }
}
