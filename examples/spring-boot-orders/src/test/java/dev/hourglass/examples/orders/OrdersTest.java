package dev.hourglass.examples.orders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.hourglass.QueueStats;
import dev.hourglass.embedded.RedisServer;
import dev.hourglass.spring.HourglassTemplate;
import dev.hourglass.testing.RedisExtension;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The orders API on a real Redis from hourglass-testing. */
class OrdersTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  private RunningOrders start(String paymentWindow) {
    return RunningOrders.start(
        "hourglass.redis-uri=" + redis.uri(), "orders.payment-window=" + paymentWindow);
  }

  @Test
  void anUnpaidOrderIsClosedAndAPaidOneIsNot() {
    try (RunningOrders app = start("2s")) {
      Order paid = app.place();
      assertThat(paid.status()).isEqualTo(OrderStatus.PLACED);
      assertThat(app.pay(paid.id()).status()).isEqualTo(OrderStatus.PAID);
      Order unpaid = app.place();
      assertThat(unpaid.payBy()).isEqualTo(unpaid.placedAt().plusSeconds(2));

      await().atMost(RunningOrders.LIVENESS).until(() -> app.counters().acked() == 1);
      assertThat(app.get(unpaid.id()).status()).isEqualTo(OrderStatus.CLOSED);
      assertThat(app.get(paid.id()).status()).isEqualTo(OrderStatus.PAID);
      QueueStats.Counters counters = app.counters();
      assertThat(counters.enqueued()).isEqualTo(2);
      assertThat(counters.cancelled()).as("the paid order's job").isEqualTo(1);
      assertThat(counters.delivered()).as("only the unpaid order's job").isEqualTo(1);
      assertThat(counters.acked()).isEqualTo(1);
      assertThat(counters.retried() + counters.dead()).isZero();

      HttpResponse<String> late = app.send("POST", "/orders/" + unpaid.id() + "/pay");
      assertThat(late.statusCode()).as("a closed order cannot be paid").isEqualTo(409);
      assertThat(late.body()).contains("was closed unpaid");
      assertThat(app.get(unpaid.id()).status()).isEqualTo(OrderStatus.CLOSED);
      assertThat(app.context.getBeansOfType(RedisServer.class))
          .as("no embedded Redis when hourglass.redis-uri is set")
          .isEmpty();
    }
  }

  @Test
  void aJobDeliveredAgainOrLateChangesNothing() {
    try (RunningOrders app = start("1s")) {
      Order closed = app.place();
      await().atMost(RunningOrders.LIVENESS).until(() -> app.counters().acked() == 1);
      Order closedOnce = app.get(closed.id());
      assertThat(closedOnce.status()).isEqualTo(OrderStatus.CLOSED);
      Order paid = app.place();
      app.pay(paid.id());

      // What an at-least-once delivery can bring: the closing job of a closed order once more,
      // and the closing job of an order paid while it was running.
      HourglassTemplate template = app.context.getBean(HourglassTemplate.class);
      template.enqueue(OrderService.QUEUE, new PaymentDue(closed.id()), Duration.ZERO);
      template.enqueue(OrderService.QUEUE, new PaymentDue(paid.id()), Duration.ZERO);

      await().atMost(RunningOrders.LIVENESS).until(() -> app.counters().acked() == 3);
      assertThat(app.get(closed.id())).isEqualTo(closedOnce);
      assertThat(app.get(paid.id()).status()).isEqualTo(OrderStatus.PAID);
      assertThat(app.counters().retried() + app.counters().dead()).isZero();
    }
  }

  @Test
  void theJobOfAnUnknownOrderIsAckedNotRetried() {
    try (RunningOrders app = start("30m")) {
      app.context
          .getBean(HourglassTemplate.class)
          .enqueue(OrderService.QUEUE, new PaymentDue("forgotten-by-a-restart"), Duration.ZERO);

      await().atMost(RunningOrders.LIVENESS).until(() -> app.counters().acked() == 1);
      assertThat(app.counters().retried() + app.counters().dead()).isZero();
    }
  }

  @Test
  void unknownOrdersAre404() {
    try (RunningOrders app = start("30m")) {
      HttpResponse<String> unknown = app.send("GET", "/orders/nope");
      assertThat(unknown.statusCode()).isEqualTo(404);
      assertThat(unknown.body()).contains("No order nope");
      assertThat(app.send("POST", "/orders/nope/pay").statusCode()).isEqualTo(404);
    }
  }

  @Test
  void payingTwiceIsPaidOnce() {
    try (RunningOrders app = start("30m")) {
      Order order = app.place();
      assertThat(app.pay(order.id()).status()).isEqualTo(OrderStatus.PAID);
      assertThat(app.pay(order.id()).status()).isEqualTo(OrderStatus.PAID);
      assertThat(app.counters().cancelled()).isEqualTo(1);
    }
  }

  @Test
  void aPaymentWindowThatIsNotPositiveFailsStartup() {
    assertThatThrownBy(() -> start("0s").close())
        .hasRootCauseMessage(
            "Property orders.payment-window with value 'PT0S' is invalid: must be positive, e.g."
                + " 30m or 3s");
  }

  @Test
  void anUnknownOrdersPropertyFailsStartup() {
    assertThatThrownBy(
            () ->
                RunningOrders.start("hourglass.redis-uri=" + redis.uri(), "orders.payment-windw=3s")
                    .close())
        .hasStackTraceContaining("orders.payment-windw");
  }
}
