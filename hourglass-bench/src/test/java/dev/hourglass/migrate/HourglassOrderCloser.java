package dev.hourglass.migrate;

import dev.hourglass.Hourglass;
import dev.hourglass.Queue;
import dev.hourglass.Worker;
import dev.hourglass.WorkerOptions;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import java.util.function.Consumer;

/** The guide's Hourglass consumer bean: a worker, started by @PostConstruct. */
class HourglassOrderCloser {
  private final Queue<String> orders;
  private final Consumer<String> handler;
  private Worker worker;

  HourglassOrderCloser(Hourglass hourglass, Consumer<String> handler) {
    this.orders = hourglass.queue("orders", String.class);
    this.handler = handler;
  }

  @PostConstruct
  void start() {
    worker =
        orders.worker(
            job -> handler.accept(job.payload()), WorkerOptions.builder().concurrency(4).build());
  }

  @PreDestroy
  void stop() {
    worker.close(); // waits for running handlers; nothing is acked unprocessed
  }
}
