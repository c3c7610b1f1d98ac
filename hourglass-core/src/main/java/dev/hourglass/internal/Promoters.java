package dev.hourglass.internal;

import dev.hourglass.HourglassException;
import dev.hourglass.internal.store.Deliveries;
import dev.hourglass.internal.store.Failures;
import dev.hourglass.internal.store.Partition;
import dev.hourglass.internal.store.RedisConnector;
import dev.hourglass.internal.store.Registry;
import dev.hourglass.internal.store.Replies.Promoted;
import dev.hourglass.internal.store.ServerClock;
import dev.hourglass.internal.store.Store;
import io.lettuce.core.RedisException;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The promoters this client runs: one per partition of each queue it consumes (of every queue in
 * Redis with {@code promoteAllQueues}), all on one thread, since a pass is a script call sent
 * without blocking; and the pub/sub connection on which scripts announce promoter work that falls
 * due earlier than known. The subscription is checked every {@value #CHECK_MS} ms; when it had to
 * be made again, every promoter passes at once, for the announcements it may have missed. At the
 * same pace each promoter's partition has its schedules refilled ({@link ScheduleKeeper}).
 */
final class Promoters implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Promoters.class);
  private static final long CHECK_MS = 1000;

  /** How often {@code promoteAllQueues} looks for new queues in the registry. */
  static final long REGISTRY_SCAN_MS = 10_000;

  private final RedisConnector redis;
  private final Deliveries deliveries;
  private final ScheduleKeeper schedules;
  private final ServerClock clock;
  private final Registry registry;
  private final QueueTopologies topologies;
  private final Executor callbacks;
  private final boolean background;
  private final boolean everyQueue;
  // One lock owner per client: its background passes and manual passes never lock each other out.
  private final String owner;
  private final ScheduledThreadPoolExecutor thread;
  private final Map<String, Promoter> byChannel = new ConcurrentHashMap<>();
  private final Object lock = new Object();
  private StatefulRedisPubSubConnection<String, String> pubsub; // guarded by lock
  private boolean closed; // guarded by lock

  /**
   * {@code background}: run promoters at all (else only {@link #promoteNow} passes); {@code
   * everyQueue}: of every queue in the registry, not only those this client consumes.
   */
  Promoters(
      RedisConnector redis,
      Store store,
      ServerClock clock,
      QueueTopologies topologies,
      Executor callbacks,
      String owner,
      boolean background,
      boolean everyQueue) {
    this.redis = redis;
    this.deliveries = store.deliveries();
    this.schedules = new ScheduleKeeper(store.schedules(), clock);
    this.registry = store.registry();
    this.clock = clock;
    this.topologies = topologies;
    this.callbacks = callbacks;
    this.owner = owner;
    this.background = background;
    this.everyQueue = everyQueue;
    this.thread = new ScheduledThreadPoolExecutor(1, DaemonThreads.named("hourglass-promoter"));
    thread.setRemoveOnCancelPolicy(true); // re-planned passes cancel the plan before
  }

  /** Starts the subscription check, and the registry scan when every queue is promoted. */
  void start() {
    if (!background) {
      return;
    }
    thread.scheduleWithFixedDelay(
        this::checkSubscriptionSafely, 0, CHECK_MS, TimeUnit.MILLISECONDS);
    if (everyQueue) {
      thread.scheduleWithFixedDelay(
          () -> callbacks.execute(this::scanRegistry), 0, REGISTRY_SCAN_MS, TimeUnit.MILLISECONDS);
    }
  }

  /** Starts promoters for every partition of the queue unless they run already. */
  void ensure(QueueTopology queue) {
    if (!background) {
      return;
    }
    for (Partition part : queue.snapshot().partitions()) {
      if (byChannel.containsKey(part.channel())) {
        continue;
      }
      synchronized (lock) {
        if (closed || byChannel.containsKey(part.channel())) {
          continue;
        }
        Promoter p = new Promoter(queue, part, deliveries, clock, owner, thread);
        byChannel.put(p.channel(), p);
        if (pubsub != null && pubsub.isOpen()) {
          pubsub.async().subscribe(p.channel());
        }
        p.passSoon();
      }
    }
  }

  private void scanRegistry() {
    try {
      for (String name : registry.queueNames()) {
        ensure(topologies.of(name));
      }
    } catch (HourglassException e) {
      log.debug("cannot read the queue registry now: {}", e.getMessage());
    }
  }

  /**
   * One promotion pass over every partition of the queue, by this client's owner, waiting for each
   * (and passing again while a budget runs out). Tests drive promotion with it.
   */
  long promoteNow(QueueTopology queue) {
    QueueTopology.Snapshot s = queue.snapshot();
    long moved = 0;
    for (Partition part : s.partitions()) {
      Promoter p = byChannel.get(part.channel());
      if (p == null) {
        p = new Promoter(queue, part, deliveries, clock, owner, thread);
      }
      Promoted r;
      do {
        r = Failures.await(deliveries.promote(part, p.request(s.settings(), s.lookaheadMs())));
        moved += r.madeReady();
      } while (r.leader() && r.more());
      Failures.await(schedules.keep(part));
    }
    return moved;
  }

  private void checkSubscriptionSafely() {
    if (byChannel.isEmpty()) {
      return; // no promoter yet: no pub/sub connection either
    }
    try {
      if (checkSubscription()) {
        byChannel.values().forEach(Promoter::passSoon);
      }
    } catch (HourglassException | RedisException e) {
      log.debug("promoters' pub/sub connection is down: {}", e.getMessage());
    }
    // Schedules whose upcoming times run low, or that lost their pending occurrence: refilled and
    // repaired within a second (ScheduleKeeper).
    for (Promoter p : byChannel.values()) {
      schedules
          .keep(p.partition())
          .whenComplete(
              (v, failure) -> {
                if (failure != null) {
                  log.debug(
                      "cannot refill schedules of {} now: {}", p.partition(), failure.getMessage());
                }
              });
    }
  }

  /** Opens the pub/sub connection again if it was lost: true when it did. */
  private boolean checkSubscription() {
    synchronized (lock) {
      if (closed || (pubsub != null && pubsub.isOpen())) {
        return false;
      }
      if (pubsub != null) {
        pubsub.closeAsync();
        pubsub = null;
      }
      StatefulRedisPubSubConnection<String, String> fresh = redis.openPubSub();
      fresh.addListener(
          new RedisPubSubAdapter<>() {
            @Override
            public void message(String channel, String message) {
              Promoter p = byChannel.get(channel);
              if (p != null) {
                try {
                  p.hint(Long.parseLong(message));
                } catch (NumberFormatException e) {
                  log.warn("ignoring malformed announcement '{}' on {}", message, channel);
                }
              }
            }
          });
      if (!byChannel.isEmpty()) {
        fresh.sync().subscribe(byChannel.keySet().toArray(new String[0]));
      }
      pubsub = fresh;
      return true;
    }
  }

  @Override
  public void close() {
    synchronized (lock) {
      closed = true;
      if (pubsub != null) {
        pubsub.close();
      }
    }
    byChannel.values().forEach(Promoter::stop);
    thread.shutdownNow();
  }
}
