package dev.hourglass.examples.orders;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ResponseStatus;

/** The order was closed unpaid when its payment window passed; it cannot be paid (409). */
@ResponseStatus(HttpStatus.CONFLICT)
public class OrderClosedException extends RuntimeException {
  public OrderClosedException(Order order) {
    super("Order " + order.id() + " was closed unpaid at the end of its window, " + order.payBy());
  }
}
