package dev.hourglass.examples.orders;

import dev.hourglass.RedisUnavailableException;
import dev.hourglass.spring.HourglassTemplate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * Places, pays and closes orders. Orders live in this process's memory (a {@link
 * ConcurrentHashMap}): a restart forgets them. Each placed order has one Hourglass job, id {@code
 * close-<order id>} on queue {@value #QUEUE}, due when its payment window ends; paying cancels it,
 * and {@link UnpaidOrders} closes the order when it comes. The job is only a timer: the order's
 * status decides, so a job that could not be cancelled does no harm.
 *
 * <p>Every change of an order's status is one atomic step on the map, so a payment and the closing
 * job racing each other end with exactly one winner: the order is PAID (the job finds it paid and
 * does nothing) or CLOSED (the payment is refused).
 */
@Service
public class OrderService {
  /** The queue of the jobs that close unpaid orders. */
  public static final String QUEUE = "unpaid-orders";

  private static final Logger log = LoggerFactory.getLogger(OrderService.class);

  private final Map<String, Order> orders = new ConcurrentHashMap<>();
  private final HourglassTemplate hourglass;
  private final Duration paymentWindow;
  private final Clock clock = Clock.systemUTC();

  public OrderService(HourglassTemplate hourglass, OrdersProperties properties) {
    this.hourglass = hourglass;
    this.paymentWindow = properties.paymentWindow();
  }

  /** Places an order and schedules its closing at the end of the payment window. */
  public Order place() {
    Instant now = clock.instant();
    Order order =
        new Order(UUID.randomUUID().toString(), OrderStatus.PLACED, now, now.plus(paymentWindow));
    // Stored before its job exists, so that even a tiny window cannot close an unknown order.
    orders.put(order.id(), order);
    try {
      hourglass
          .job(QUEUE, new PaymentDue(order.id()))
          .id(jobId(order.id()))
          .delay(paymentWindow)
          .enqueue();
    } catch (RuntimeException e) {
      orders.remove(order.id());
      throw e;
    }
    log.info("Order {} placed; closed at {} unless paid", order.id(), order.payBy());
    return order;
  }

  /**
   * Pays an order: marks it PAID, then cancels its closing job. Paying a paid order again changes
   * nothing.
   *
   * @throws OrderNotFoundException when there is no such order
   * @throws OrderClosedException when the order was closed unpaid
   */
  public Order pay(String id) {
    Order paid =
        orders.computeIfPresent(
            id,
            (key, order) -> {
              if (order.status() == OrderStatus.CLOSED) {
                throw new OrderClosedException(order);
              }
              return order.withStatus(OrderStatus.PAID);
            });
    if (paid == null) {
      throw new OrderNotFoundException(id);
    }
    // False when the job is running right now (or was cancelled by an earlier payment): it will
    // find the order paid and leave it so.
    try {
      boolean cancelled = hourglass.cancel(QUEUE, jobId(id));
      log.info("Order {} paid; closing job cancelled: {}", id, cancelled);
    } catch (RedisUnavailableException e) {
      log.warn(
          "Order {} paid; its closing job could not be cancelled and will find it paid: {}",
          id,
          e.getMessage());
    }
    return paid;
  }

  /**
   * Closes an order that is still unpaid; a paid or closed order is left as it is, so that a job
   * delivered twice closes it once.
   *
   * @return the order as it is now, or empty for an unknown order
   */
  public Optional<Order> closeIfUnpaid(String id) {
    return Optional.ofNullable(
        orders.computeIfPresent(
            id,
            (key, order) ->
                order.status() == OrderStatus.PLACED
                    ? order.withStatus(OrderStatus.CLOSED)
                    : order));
  }

  public Optional<Order> find(String id) {
    return Optional.ofNullable(orders.get(id));
  }

  /** The id of the job that closes order {@code orderId}, so that paying can cancel it. */
  static String jobId(String orderId) {
    return "close-" + orderId;
  }
}
