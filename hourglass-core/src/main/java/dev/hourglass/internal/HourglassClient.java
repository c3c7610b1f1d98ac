package dev.hourglass.internal;

import dev.hourglass.Hourglass;
import dev.hourglass.HourglassException;
import dev.hourglass.JobHandler;
import dev.hourglass.Queue;
import dev.hourglass.QueueSettings;
import dev.hourglass.Worker;
import dev.hourglass.WorkerOptions;
import dev.hourglass.internal.store.Deliveries;
import dev.hourglass.internal.store.Failures;
import dev.hourglass.internal.store.Keys;
import dev.hourglass.internal.store.RedisConnector;
import dev.hourglass.internal.store.ServerClock;
import dev.hourglass.internal.store.Store;
import dev.hourglass.spi.IdGenerator;
import dev.hourglass.spi.ScriptListener;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Hourglass} implementation: owns the connection, the script registry, queues,
 * promoters, workers.
 */
public final class HourglassClient implements Hourglass {
  private static final Logger log = LoggerFactory.getLogger(HourglassClient.class);

  /** Validated client configuration (see {@code HourglassBuilder}). */
  public record Config(
      String redisUri,
      String prefix,
      Duration commandTimeout,
      Duration connectTimeout,
      int maxPayloadBytes,
      Clock clock,
      IdGenerator idGenerator,
      QueueSettings defaultQueueSettings,
      boolean backgroundPromoter,
      boolean promoteAllQueues,
      ScriptListener scriptListener) {}

  final Config config;
  final RedisConnector redis;
  final Store store;
  final Deliveries deliveries;
  final ServerClock serverClock;
  final SettingsVersions settingsVersions;
  final RandomIds random;
  final IdGenerator ids;
  final Promoters promoters;

  /** Runs follow-up work of Redis replies off Lettuce's event loop, where nothing may block. */
  final ExecutorService callbacks =
      Executors.newCachedThreadPool(DaemonThreads.named("hourglass-callback"));

  /** Fires long-poll deadlines. */
  final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("hourglass-timer"));

  private final ConcurrentMap<String, RedisQueue> queues = new ConcurrentHashMap<>();
  private final Set<WorkerImpl> workers = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  private HourglassClient(Config config, RedisConnector redis) {
    this.config = config;
    this.redis = redis;
    this.serverClock = new ServerClock(config.clock());
    this.store =
        new Store(
            redis, new Keys(config.prefix()), serverClock, config.scriptListener(), callbacks);
    this.deliveries = store.deliveries();
    this.settingsVersions = new SettingsVersions(store.registry(), config.clock());
    this.random = new RandomIds(config.clock());
    this.ids = config.idGenerator() != null ? config.idGenerator() : random;
    this.promoters = new Promoters(this);
  }

  /** Connects and checks (or writes, on an empty Redis) the layout version. */
  public static Hourglass connect(Config config) {
    RedisConnector redis =
        new RedisConnector(config.redisUri(), config.commandTimeout(), config.connectTimeout());
    HourglassClient client = null;
    try {
      client = new HourglassClient(config, redis);
      client.store.registry().checkLayout();
      client.promoters.start();
      return client;
    } catch (RuntimeException e) {
      if (client != null) {
        client.close();
      } else {
        redis.close();
      }
      throw e;
    }
  }

  @Override
  public RedisQueue queue(String name) {
    checkOpen();
    return queues.computeIfAbsent(Names.queue(name), n -> new RedisQueue(this, n));
  }

  @Override
  public Queue configureQueue(String name, QueueSettings settings) {
    RedisQueue queue = queue(name);
    queue.configure(settings);
    return queue;
  }

  @Override
  public QueueSettings defaultQueueSettings() {
    return config.defaultQueueSettings();
  }

  @Override
  public boolean queueExists(String name) {
    checkOpen();
    return store.registry().queueExists(Names.queue(name));
  }

  @Override
  public List<String> queueNames() {
    checkOpen();
    return store.registry().queueNames();
  }

  @Override
  public long settingsVersion() {
    checkOpen();
    return Failures.await(store.registry().settingsVersion());
  }

  @Override
  public Worker worker(String queue, JobHandler handler, WorkerOptions options) {
    checkOpen();
    if (handler == null) {
      throw new dev.hourglass.InvalidArgumentException("handler", "is required");
    }
    WorkerImpl worker = new WorkerImpl(this, queue(queue), handler, options);
    workers.add(worker);
    worker.start();
    return worker;
  }

  void workerClosed(WorkerImpl worker) {
    workers.remove(worker);
  }

  private void checkOpen() {
    if (closed) {
      throw new HourglassException("this Hourglass client is closed");
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (WorkerImpl w : List.copyOf(workers)) {
      try {
        w.close();
      } catch (RuntimeException e) {
        log.warn("closing worker of queue {} failed", w.queue(), e);
      }
    }
    queues.values().forEach(RedisQueue::close);
    promoters.close();
    redis.close();
    callbacks.shutdown();
    timer.shutdownNow();
  }
}
