package dev.hourglass.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hourglass.Delivery;
import dev.hourglass.Queue;
import dev.hourglass.Worker;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.redisson.api.RBlockingQueue;
import org.redisson.api.RDelayedQueue;

/**
 * The guide's consume snippets: a polling loop, async receipt, a listener, and a consumer bean, on
 * Redisson and on Hourglass, each receiving what was offered no earlier than its delay.
 */
@Timeout(120) // a take() whose element never comes would block for ever
@SuppressWarnings("deprecation") // RDelayedQueue, the subject of the guide
class ConsumeTest extends RedissonAndHourglass {
  private volatile boolean running = true;
  private final List<Thread> loops = new ArrayList<>();

  interface Loop {
    void run() throws Exception;
  }

  @Test
  void pollingLoopsReceiveAnElementAfterItsDelay() throws Exception {
    RBlockingQueue<String> destination = redisson.getBlockingQueue("orders");
    RDelayedQueue<String> delayed = redisson.getDelayedQueue(destination);
    Queue<String> orders = hourglass.queue("orders", String.class);
    start(
        () -> {
          while (running) {
            String order = destination.poll(5, TimeUnit.SECONDS);
            if (order != null) {
              handle(order);
            }
          }
        });
    start(
        () -> {
          while (running) {
            for (Delivery<String> delivery :
                orders.claim(10, Duration.ofMinutes(1), Duration.ofSeconds(5))) {
              handle(delivery.payload().value());
              orders.ack(delivery);
            }
          }
        });

    Instant before = Instant.now();
    delayed.offer("order-7", 1, TimeUnit.SECONDS);
    orders.enqueue("order-8", Duration.ofSeconds(1));

    await().atMost(LIVENESS).until(() -> received.size() == 2);
    assertThat(receivedOrders()).containsExactlyInAnyOrder("order-7", "order-8");
    for (Received r : received) {
      assertThat(r.at()).isAfterOrEqualTo(before.plusSeconds(1).minus(CLOCK_TOLERANCE));
    }
    assertThat(orders.stats().counters().acked()).isEqualTo(1);
    delayed.destroy();
  }

  @Test
  void asyncReceiptInBoth() {
    RBlockingQueue<String> destination = redisson.getBlockingQueue("orders");
    Queue<String> orders = hourglass.queue("orders", String.class);
    destination.add("order-9");
    orders.enqueue("order-10", Duration.ZERO);

    destination.takeAsync().thenAccept(this::handle);
    orders
        .claimAsync(10, Duration.ofMinutes(1), Duration.ofSeconds(5))
        .thenAccept(
            deliveries ->
                deliveries.forEach(
                    delivery -> {
                      handle(delivery.payload().value());
                      orders.ackAsync(delivery);
                    }));

    await().atMost(LIVENESS).until(() -> received.size() == 2);
    assertThat(receivedOrders()).containsExactlyInAnyOrder("order-9", "order-10");
    await().atMost(LIVENESS).until(() -> orders.stats().counters().acked() == 1);
  }

  @Test
  void listenerAndWorkerReceiveEveryElement() {
    RBlockingQueue<String> destination = redisson.getBlockingQueue("orders");
    RDelayedQueue<String> delayed = redisson.getDelayedQueue(destination);
    Queue<String> orders = hourglass.queue("orders", String.class);

    int listener =
        destination.subscribeOnElements(
            order -> {
              return CompletableFuture.runAsync(() -> handle(order));
            });
    Worker worker = orders.worker(job -> handle(job.payload()));

    for (int i = 0; i < 5; i++) {
      delayed.offer("redisson-" + i, 100L * i, TimeUnit.MILLISECONDS);
      orders.enqueue("hourglass-" + i, Duration.ofMillis(100L * i));
    }
    await().atMost(LIVENESS).until(() -> received.size() == 10);
    assertThat(receivedOrders())
        .containsExactlyInAnyOrder(
            "redisson-0",
            "redisson-1",
            "redisson-2",
            "redisson-3",
            "redisson-4",
            "hourglass-0",
            "hourglass-1",
            "hourglass-2",
            "hourglass-3",
            "hourglass-4");
    destination.unsubscribe(listener);
    worker.close();
    delayed.destroy();
    await().atMost(LIVENESS).until(() -> orders.stats().counters().acked() == 5);
  }

  @Test
  void consumerBeansStartedByPostConstructReceiveAfterTheDelay() throws Exception {
    RedissonOrderCloser redissonCloser = new RedissonOrderCloser(redisson, this::handle);
    HourglassOrderCloser hourglassCloser = new HourglassOrderCloser(hourglass, this::handle);
    redissonCloser.start();
    hourglassCloser.start();

    Instant before = Instant.now();
    redisson
        .getDelayedQueue(redisson.<String>getBlockingQueue("orders"))
        .offer("order-11", 1, TimeUnit.SECONDS);
    hourglass.queue("orders", String.class).enqueue("order-12", Duration.ofSeconds(1));

    await().atMost(LIVENESS).until(() -> received.size() == 2);
    assertThat(receivedOrders()).containsExactlyInAnyOrder("order-11", "order-12");
    for (Received r : received) {
      assertThat(r.at()).isAfterOrEqualTo(before.plusSeconds(1).minus(CLOCK_TOLERANCE));
    }
    hourglassCloser.stop();
    redissonCloser.stop();
  }

  private void start(Loop loop) {
    Thread t =
        new Thread(
            () -> {
              try {
                loop.run();
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    t.start();
    loops.add(t);
  }

  @AfterEach
  void stopLoops() throws InterruptedException {
    running = false;
    for (Thread t : loops) {
      t.join();
    }
  }
}
