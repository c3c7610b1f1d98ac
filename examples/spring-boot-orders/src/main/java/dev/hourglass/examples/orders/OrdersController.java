package dev.hourglass.examples.orders;

import dev.hourglass.RedisUnavailableException;
import java.net.URI;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** The HTTP API: place, pay and read orders, as JSON. */
@RestController
@RequestMapping("/orders")
public class OrdersController {
  private final OrderService orders;

  public OrdersController(OrderService orders) {
    this.orders = orders;
  }

  /** Places an order: 201 with the order, status PLACED. */
  @PostMapping
  ResponseEntity<Order> place() {
    Order order = orders.place();
    return ResponseEntity.created(URI.create("/orders/" + order.id())).body(order);
  }

  /** Pays an order: 200 with status PAID; 404 for an unknown order, 409 for a closed one. */
  @PostMapping("/{id}/pay")
  Order pay(@PathVariable String id) {
    return orders.pay(id);
  }

  /** Reads an order: 200, or 404 for an unknown one. */
  @GetMapping("/{id}")
  Order get(@PathVariable String id) {
    return orders.find(id).orElseThrow(() -> new OrderNotFoundException(id));
  }

  /** Redis cannot be reached to schedule a new order's closing: 503, the order is not placed. */
  @ExceptionHandler(RedisUnavailableException.class)
  ProblemDetail redisUnavailable(RedisUnavailableException e) {
    return ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, e.getMessage());
  }
}
