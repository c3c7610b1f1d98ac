package dev.hourglass.spring.quickstart;

import dev.hourglass.spring.HourglassListener;
import dev.hourglass.spring.HourglassTemplate;
import java.time.Duration;
import org.springframework.stereotype.Component;

record OrderPlaced(long orderId) {}

@Component
class UnpaidOrders {
  private final HourglassTemplate hourglass;
  private final OrderService orders;

  UnpaidOrders(HourglassTemplate hourglass, OrderService orders) {
    this.hourglass = hourglass;
    this.orders = orders;
  }

  void placed(long orderId) { // close the order in 30 minutes unless it is paid by then
    hourglass
        .job("unpaid-orders", new OrderPlaced(orderId))
        .id("order-" + orderId)
        .delay(Duration.ofMinutes(30))
        .enqueue();
  }

  void paid(long orderId) {
    hourglass.cancel("unpaid-orders", "order-" + orderId);
  }

  @HourglassListener(queue = "unpaid-orders", concurrency = "8")
  void closeUnpaid(OrderPlaced order) { // return = ack, throw = retry by the backoff
    orders.close(order.orderId());
  }
}
