package dev.hourglass.internal;

import dev.hourglass.Hourglass;
import dev.hourglass.HourglassException;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.JobHandler;
import dev.hourglass.Outbox;
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
import dev.hourglass.spi.PayloadCodec;
import dev.hourglass.spi.PayloadCodecFactory;
import dev.hourglass.spi.ScriptListener;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
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
      ScriptListener scriptListener,
      PayloadCodecFactory codecs,
      int replicaAcks,
      Duration replicaAckTimeout,
      int compressAbove) {}

  final Config config;
  final RedisConnector redis;
  final Store store;
  final Deliveries deliveries;
  final ServerClock serverClock;
  final SettingsVersions settingsVersions;
  final RandomIds random;
  final IdGenerator ids;
  final Promoters promoters;
  private final RedisOutbox outbox = new RedisOutbox(this);

  /** Runs follow-up work of Redis replies off Lettuce's event loop, where nothing may block. */
  final ExecutorService callbacks =
      Executors.newCachedThreadPool(DaemonThreads.named("hourglass-callback"));

  /** Fires long-poll deadlines. */
  final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("hourglass-timer"));

  private final ConcurrentMap<String, RedisQueue> queues = new ConcurrentHashMap<>();
  private final Set<WorkerImpl<?>> workers = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  private HourglassClient(Config config, RedisConnector redis) {
    this.config = config;
    this.redis = redis;
    this.serverClock = new ServerClock();
    this.store =
        new Store(
            redis,
            new Keys(config.prefix()),
            serverClock,
            config.scriptListener(),
            callbacks,
            config.replicaAckTimeout());
    this.deliveries = store.deliveries();
    this.settingsVersions = new SettingsVersions(store.registry(), config.clock());
    this.random = new RandomIds(config.clock());
    this.ids = config.idGenerator() != null ? config.idGenerator() : random;
    this.promoters = new Promoters(this);
  }

  /**
   * How many replicas must confirm a write of a queue with these settings: the queue's own setting,
   * else the client's default (0: no WAIT at all).
   */
  int replicaAcks(QueueSettings settings) {
    return settings.replicaAcks().orElse(config.replicaAcks());
  }

  /**
   * The payload size from which a queue with these settings stores payloads compressed: the queue's
   * own setting, else the client's (0: never).
   */
  int compressAbove(QueueSettings settings) {
    return settings.compressAbove().orElse(config.compressAbove());
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

  /** The engine of a queue, shared by its handles. */
  RedisQueue engine(String name) {
    checkOpen();
    return queues.computeIfAbsent(Names.queue(name), n -> new RedisQueue(this, n));
  }

  @Override
  public Outbox outbox() {
    checkOpen();
    return outbox;
  }

  @Override
  public Queue<byte[]> queue(String name) {
    return engine(name).bytes;
  }

  @Override
  public <T> Queue<T> queue(String name, Class<T> type) {
    if (type == null) {
      throw new InvalidArgumentException("type", "is required");
    }
    return queue(name, codecFor(type));
  }

  @Override
  public <T> Queue<T> queue(String name, PayloadCodec<T> codec) {
    if (codec == null) {
      throw new InvalidArgumentException("codec", "is required");
    }
    return new QueueHandle<>(engine(name), codec);
  }

  @SuppressWarnings("unchecked")
  private <T> PayloadCodec<T> codecFor(Class<T> type) {
    if (type == byte[].class) {
      return (PayloadCodec<T>) PayloadCodec.bytes();
    }
    if (type == String.class) {
      return (PayloadCodec<T>) PayloadCodec.utf8();
    }
    Optional<PayloadCodec<T>> codec =
        config.codecs() == null ? Optional.empty() : config.codecs().codecFor(type);
    return codec.orElseThrow(
        () ->
            new InvalidArgumentException(
                "type",
                "no codec for "
                    + type.getName()
                    + ": byte[] and String are built in; set a codec factory on the builder"
                    + " (e.g. hourglass-jackson's) or pass a PayloadCodec"));
  }

  @Override
  public Queue<byte[]> configureQueue(String name, QueueSettings settings) {
    RedisQueue queue = engine(name);
    queue.configure(settings);
    return queue.bytes;
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
  public CompletableFuture<List<String>> queueNamesAsync() {
    checkOpen();
    return store.registry().queueNamesAsync();
  }

  @Override
  public long settingsVersion() {
    checkOpen();
    return Failures.await(store.registry().settingsVersion());
  }

  <T> Worker startWorker(
      RedisQueue queue, PayloadCodec<T> codec, JobHandler<T> handler, WorkerOptions options) {
    checkOpen();
    if (handler == null) {
      throw new InvalidArgumentException("handler", "is required");
    }
    if (options == null) {
      throw new InvalidArgumentException("options", "is required");
    }
    WorkerImpl<T> worker = new WorkerImpl<>(this, queue, codec, handler, options);
    workers.add(worker);
    worker.start();
    return worker;
  }

  void workerClosed(WorkerImpl<?> worker) {
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
    for (WorkerImpl<?> w : List.copyOf(workers)) {
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
