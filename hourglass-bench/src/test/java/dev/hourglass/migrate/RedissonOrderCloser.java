package dev.hourglass.migrate;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import java.util.function.Consumer;
import org.redisson.api.RBlockingQueue;
import org.redisson.api.RDelayedQueue;
import org.redisson.api.RedissonClient;

/** The guide's Redisson consumer bean: a thread looping on take(), started by @PostConstruct. */
@SuppressWarnings("deprecation") // RDelayedQueue, the subject of the guide
class RedissonOrderCloser {
  private final RBlockingQueue<String> destination;
  private final RDelayedQueue<String> delayed;
  private final Consumer<String> handler;
  private Thread consumer;

  RedissonOrderCloser(RedissonClient redisson, Consumer<String> handler) {
    this.destination = redisson.getBlockingQueue("orders");
    this.delayed = redisson.getDelayedQueue(destination); // moves due elements while it lives
    this.handler = handler;
  }

  @PostConstruct
  void start() {
    consumer =
        new Thread(
            () -> {
              while (!Thread.currentThread().isInterrupted()) {
                try {
                  handler.accept(destination.take());
                } catch (InterruptedException e) {
                  return;
                }
              }
            });
    consumer.start();
  }

  @PreDestroy
  void stop() throws InterruptedException {
    consumer.interrupt();
    consumer.join();
    delayed.destroy();
  }
}
