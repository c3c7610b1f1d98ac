package dev.hourglass.examples.orders;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ResponseStatus;

/** No order has this id (answered 404). */
@ResponseStatus(HttpStatus.NOT_FOUND)
public class OrderNotFoundException extends RuntimeException {
  public OrderNotFoundException(String id) {
    super("No order " + id);
  }
}
