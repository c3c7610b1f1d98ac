package dev.hourglass.examples.orders;

import dev.hourglass.Job;
import dev.hourglass.spring.HourglassListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Closes the orders whose payment window has passed. Hourglass delivers a job at least once (a
 * crash before the ack delivers it again), so closing is idempotent: an order already closed, or
 * paid meanwhile, is left as it is. Returning acks the job; an exception would retry it.
 */
@Component
public class UnpaidOrders {
  private static final Logger log = LoggerFactory.getLogger(UnpaidOrders.class);

  private final OrderService orders;

  public UnpaidOrders(OrderService orders) {
    this.orders = orders;
  }

  @HourglassListener(queue = OrderService.QUEUE)
  void paymentDue(PaymentDue due, Job<?> job) {
    orders
        .closeIfUnpaid(due.orderId())
        .ifPresentOrElse(
            order ->
                log.info(
                    "Payment window of order {} over (job {}, attempt {}): order is {}",
                    order.id(),
                    job.id(),
                    job.attempt(),
                    order.status()),
            () ->
                // Orders live in memory: after a restart on a Redis that kept its jobs, an order
                // can be gone. There is nothing to close, and retrying would not bring it back.
                log.warn(
                    "Payment window of unknown order {} over; nothing to close", due.orderId()));
  }
}
