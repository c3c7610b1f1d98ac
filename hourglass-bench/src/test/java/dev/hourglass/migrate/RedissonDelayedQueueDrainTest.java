package dev.hourglass.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.hourglass.Delivery;
import dev.hourglass.JobInfo;
import dev.hourglass.Queue;
import dev.hourglass.QueueStats;
import dev.hourglass.testing.OrderDocuments;
import io.netty.buffer.Unpooled;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.redisson.api.RBlockingQueue;
import org.redisson.api.RDelayedQueue;
import org.redisson.client.codec.ByteArrayCodec;
import org.redisson.client.handler.State;
import org.redisson.client.protocol.ScoredEntry;

/**
 * The guide's drain: 200 elements, 20 already in Redisson's destination queue and 180 still delayed
 * (some past due, equal elements among both), move into Hourglass once, with Redisson's due times,
 * also when runs stop between their steps and are run again.
 */
@Timeout(120) // a take() whose element never comes would block for ever
@SuppressWarnings("deprecation") // RDelayedQueue, the subject of the guide
class RedissonDelayedQueueDrainTest extends RedissonAndHourglass {
  private static final String[] KEYS = {
    "redisson_delay_queue_timeout:{orders}",
    "redisson_delay_queue:{orders}",
    "orders",
    "hourglass_drain:{orders}"
  };

  /** Hourglass id -> element and due ms of each delayed element, read from Redisson's zset. */
  private final Map<String, String> delayedElements = new HashMap<>();

  private final Map<String, Long> delayedDueMs = new HashMap<>();
  private List<String> transferred;

  @BeforeEach
  void fillRedisson() throws Exception {
    RBlockingQueue<String> destination = redisson.getBlockingQueue("orders");
    RDelayedQueue<String> delayed = redisson.getDelayedQueue(destination);
    for (int i = 0; i < 20; i++) {
      delayed.offer(i < 2 ? "twice-due" : "due-" + i, 0, TimeUnit.MILLISECONDS);
    }
    await().atMost(LIVENESS).until(() -> destination.size() == 20);
    delayed.destroy(); // no transfer from now on: what follows stays delayed, some of it past due
    // Order documents of about 1 KB: Hourglass stores them compressed, with a dictionary once it
    // trained one, and hands them out as Redisson held them.
    OrderDocuments docs = new OrderDocuments(42);
    for (int i = 0; i < 180; i++) {
      long delayMs = (long) i * i * 337 % Duration.ofHours(3).toMillis();
      String element = i < 3 ? "thrice-delayed" : new String(docs.next(), StandardCharsets.UTF_8);
      delayed.offer(element, i < 3 ? 5000 : delayMs, TimeUnit.MILLISECONDS);
    }
    transferred = destination.readAll();
    for (ScoredEntry<byte[]> e :
        redisson.<byte[]>getScoredSortedSet(KEYS[0], ByteArrayCodec.INSTANCE).entryRange(0, -1)) {
      String id =
          "redisson-"
              + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(e.getValue()));
      delayedElements.put(id, element(e.getValue()));
      delayedDueMs.put(id, e.getScore().longValue());
    }
    assertThat(delayedElements).hasSize(180);
    assertThat(transferred).hasSize(20);
  }

  @Test
  void movesEveryElementOnceWithItsDueTimeAndEmptiesRedisson() {
    Queue<String> orders = hourglass.queue("orders", String.class);
    RedissonDelayedQueueDrain<String> drain =
        new RedissonDelayedQueueDrain<>(
            redisson, redisson.getConfig().getCodec(), "orders", orders, 50);
    long created = drain.drain();

    assertThat(created).isEqualTo(200);
    assertThat(drain.drain()).as("a second run").isZero();

    assertMovedOnce(orders);
  }

  @Test
  void runsStoppedAfterOrBeforeEnqueueingAndRunAgainLoseAndDuplicateNothing() {
    Queue<String> orders = hourglass.queue("orders", String.class);
    var codec = redisson.getConfig().getCodec();

    var afterEnqueue =
        new RedissonDelayedQueueDrain<>(redisson, codec, "orders", crashing(orders, 2, true), 50);
    assertThatThrownBy(afterEnqueue::drain).hasMessage("stopped after enqueueAll");
    assertThat(redisson.getMap(KEYS[3]).size()).as("staged and enqueued").isEqualTo(50);
    assertThat(orders.stats().counters().enqueued()).isEqualTo(100);

    var beforeEnqueue =
        new RedissonDelayedQueueDrain<>(redisson, codec, "orders", crashing(orders, 2, false), 50);
    assertThatThrownBy(beforeEnqueue::drain).hasMessage("stopped before enqueueAll");
    assertThat(redisson.getMap(KEYS[3]).size()).as("staged, not enqueued").isEqualTo(50);
    assertThat(orders.stats().counters().enqueued()).isEqualTo(100);

    var complete = new RedissonDelayedQueueDrain<>(redisson, codec, "orders", orders, 50);
    assertThat(complete.drain()).isEqualTo(100);
    assertMovedOnce(orders);
  }

  private void assertMovedOnce(Queue<String> orders) {
    QueueStats stats = orders.stats();
    assertThat(stats.total()).isEqualTo(200);
    assertThat(stats.counters().enqueued()).as("jobs ever created").isEqualTo(200);
    assertThat(redisson.getKeys().countExists(KEYS)).as("Redisson keys and staging left").isZero();

    delayedElements.forEach(
        (id, element) -> {
          JobInfo<String> job = orders.get(id).orElseThrow();
          assertThat(job.payload().value()).isEqualTo(element);
          assertThat(job.runAt()).isEqualTo(Instant.ofEpochMilli(delayedDueMs.get(id)));
        });

    Instant drainedBy = redisNow();
    List<String> readyFromDestination = new ArrayList<>();
    for (Delivery<String> d : orders.claim(1000, Duration.ofMinutes(5))) {
      if (!delayedElements.containsKey(d.id())) {
        readyFromDestination.add(d.payload().value());
        assertThat(d.dueAt()).isBeforeOrEqualTo(drainedBy);
      }
    }
    assertThat(readyFromDestination).containsExactlyInAnyOrderElementsOf(transferred);
  }

  /** A queue whose {@code call}-th enqueueAll stops the run, before or after it wrote. */
  @SuppressWarnings("unchecked")
  private static Queue<String> crashing(Queue<String> real, int call, boolean afterEnqueue) {
    AtomicInteger calls = new AtomicInteger();
    return (Queue<String>)
        Proxy.newProxyInstance(
            Queue.class.getClassLoader(),
            new Class<?>[] {Queue.class},
            (proxy, method, args) -> {
              boolean stop =
                  method.getName().equals("enqueueAll") && calls.incrementAndGet() == call;
              if (stop && !afterEnqueue) {
                throw new IllegalStateException("stopped before enqueueAll");
              }
              Object result;
              try {
                result = method.invoke(real, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
              if (stop) {
                throw new IllegalStateException("stopped after enqueueAll");
              }
              return result;
            });
  }

  /** The element in a member of Redisson's zset: struct 'Bc0Lc0' (random id, then element). */
  private String element(byte[] member) throws Exception {
    ByteBuffer b = ByteBuffer.wrap(member).order(ByteOrder.LITTLE_ENDIAN);
    int randomIdLength = b.get() & 0xff;
    b.position(1 + randomIdLength);
    int length = Math.toIntExact(b.getLong());
    return (String)
        redisson
            .getConfig()
            .getCodec()
            .getValueDecoder()
            .decode(Unpooled.wrappedBuffer(member, b.position(), length), new State());
  }
}
