package dev.hourglass.internal;

import dev.hourglass.HourglassException;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The promoters this client runs, one per partition of each queue it consumes, and the pub/sub
 * connection on which enqueues announce earlier due times. A lost subscription only costs the
 * safety sweep; it is re-established from the promoter loops.
 */
final class Promoters implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Promoters.class);

  private final HourglassClient client;
  // One lock owner per client: its background loops and manual passes never lock each other out.
  private final String owner;
  private final Map<String, Promoter> byChannel = new ConcurrentHashMap<>();
  private final Object lock = new Object();
  private StatefulRedisPubSubConnection<String, String> pubsub;
  private boolean closed;

  Promoters(HourglassClient client) {
    this.client = client;
    this.owner = client.random.token();
  }

  /** Starts promoters for every partition of the queue unless they run already. */
  void ensure(RedisQueue queue) {
    if (!client.config.backgroundPromoter()) {
      return;
    }
    for (PartitionRef part : queue.layout().partitions()) {
      if (byChannel.containsKey(part.channel())) {
        continue;
      }
      synchronized (lock) {
        if (closed || byChannel.containsKey(part.channel())) {
          continue;
        }
        Promoter p = new Promoter(client, queue, part, owner);
        byChannel.put(p.channel(), p);
        if (pubsub != null && pubsub.isOpen()) {
          pubsub.async().subscribe(p.channel());
        }
        p.start();
      }
    }
  }

  /**
   * One promotion pass over every partition of the queue, by a one-off owner; see {@code
   * Queue.promote()}.
   */
  long promoteNow(RedisQueue queue) {
    long moved = 0;
    for (PartitionRef part : queue.layout().partitions()) {
      Promoter running = byChannel.get(part.channel());
      Promoter p = running != null ? running : new Promoter(client, queue, part, owner);
      Promoter.PromoteReply r;
      do {
        r = p.promoteOnce();
        moved += r.moved();
      } while (r.leader() && r.more());
    }
    return moved;
  }

  /** Opens the pub/sub connection again if it was lost, and subscribes every promoter's channel. */
  void checkSubscription() {
    StatefulRedisPubSubConnection<String, String> c = pubsub;
    if (c != null && c.isOpen()) {
      return;
    }
    synchronized (lock) {
      if (closed || (pubsub != null && pubsub.isOpen())) {
        return;
      }
      if (pubsub != null) {
        pubsub.closeAsync();
      }
      try {
        StatefulRedisPubSubConnection<String, String> fresh = client.redis.openPubSub();
        fresh.addListener(
            new RedisPubSubAdapter<>() {
              @Override
              public void message(String channel, String message) {
                Promoter p = byChannel.get(channel);
                if (p != null) {
                  try {
                    p.hint(Long.parseLong(message));
                  } catch (NumberFormatException e) {
                    log.warn("ignoring malformed wake-up '{}' on {}", message, channel);
                  }
                }
              }
            });
        if (!byChannel.isEmpty()) {
          fresh.sync().subscribe(byChannel.keySet().toArray(new String[0]));
        }
        pubsub = fresh;
      } catch (HourglassException | io.lettuce.core.RedisException e) {
        pubsub = null;
        throw Failures.translate(e);
      }
    }
  }

  @Override
  public void close() {
    synchronized (lock) {
      closed = true;
    }
    byChannel.values().forEach(Promoter::stop);
    synchronized (lock) {
      if (pubsub != null) {
        pubsub.close();
      }
    }
  }
}
