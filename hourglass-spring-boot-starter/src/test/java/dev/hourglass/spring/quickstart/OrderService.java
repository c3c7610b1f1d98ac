package dev.hourglass.spring.quickstart;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** The application's own service that the README's snippet calls; here it records the calls. */
class OrderService {
  final List<Long> closed = new CopyOnWriteArrayList<>();

  void close(long orderId) {
    closed.add(orderId);
  }
}
