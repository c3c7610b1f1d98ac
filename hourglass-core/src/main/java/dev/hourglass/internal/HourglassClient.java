package dev.hourglass.internal;

import dev.hourglass.Hourglass;
import dev.hourglass.HourglassBuilder.Config;
import dev.hourglass.HourglassException;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.Outbox;
import dev.hourglass.Queue;
import dev.hourglass.QueueSettings;
import dev.hourglass.internal.store.Failures;
import dev.hourglass.internal.store.Keys;
import dev.hourglass.internal.store.RedisConnector;
import dev.hourglass.internal.store.ServerClock;
import dev.hourglass.internal.store.ServerVersions;
import dev.hourglass.internal.store.Store;
import dev.hourglass.spi.PayloadCodec;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The {@link Hourglass} implementation: owns the connection, the script registry, queues,
 * promoters, workers.
 */
final class HourglassClient implements Hourglass {
  private final Config config;
  private final RedisConnector redis;
  private final Store store;
  private final Promoters promoters;
  private final QueueTopologies topologies;
  private final RedisOutbox outbox;
  private final Workers workers = new Workers();
  private final QueueServices services;

  /** Runs follow-up work of Redis replies off Lettuce's event loop, where nothing may block. */
  private final ExecutorService callbacks =
      Executors.newCachedThreadPool(DaemonThreads.named("hourglass-callback"));

  /** Fires long-poll deadlines. */
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("hourglass-timer"));

  /** Each queue's engine and its handle of byte payloads. */
  private record Engine(RedisQueue queue, QueueHandle<byte[]> bytes) {}

  private final ConcurrentMap<String, Engine> queues = new ConcurrentHashMap<>();
  private volatile boolean closed;

  private HourglassClient(Config config, RedisConnector redis) {
    this.config = config;
    this.redis = redis;
    ServerClock serverClock = new ServerClock();
    this.store =
        new Store(
            redis,
            new Keys(config.prefix()),
            serverClock,
            config.scriptListener(),
            callbacks,
            config.replicaAckTimeout());
    SettingsVersions versions = new SettingsVersions(store.registry(), config.clock());
    RandomIds random = new RandomIds(config.clock());
    this.topologies = new QueueTopologies(store, versions, config.defaultQueueSettings());
    this.promoters =
        new Promoters(
            redis,
            store,
            serverClock,
            topologies,
            callbacks,
            random.token(), // one lock owner per client: its passes never lock each other out
            config.backgroundPromoter(),
            config.promoteAllQueues());
    this.outbox = new RedisOutbox(store.registry(), store.outboxes(), topologies);
    this.services =
        new QueueServices(
            config,
            store,
            serverClock,
            random,
            config.idGenerator() != null ? config.idGenerator() : random,
            promoters,
            workers,
            callbacks,
            timer,
            redis.commandTimeout());
  }

  /**
   * Connects, refuses a Redis older than the oldest supported, and checks (or writes, on an empty
   * Redis) the layout version.
   */
  static Hourglass connect(Config config) {
    RedisConnector redis =
        new RedisConnector(config.redisUri(), config.commandTimeout(), config.connectTimeout());
    HourglassClient client = null;
    try {
      ServerVersions.check(redis);
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
  /** The client's connections: tests hold its shared connection busy to show what waits. */
  RedisConnector redis() {
    return redis;
  }

  private Engine engine(String name) {
    checkOpen();
    return queues.computeIfAbsent(
        Names.queue(name),
        n -> {
          RedisQueue queue = new RedisQueue(topologies.of(n), services);
          return new Engine(queue, new QueueHandle<>(queue, PayloadCodec.bytes()));
        });
  }

  @Override
  public Outbox outbox() {
    checkOpen();
    return outbox;
  }

  @Override
  public Queue<byte[]> queue(String name) {
    return engine(name).bytes();
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
    return new QueueHandle<>(engine(name).queue(), codec);
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
    Engine engine = engine(name);
    engine.queue().configure(settings);
    return engine.bytes();
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
    workers.close();
    queues.values().forEach(e -> e.queue().close());
    promoters.close();
    redis.close();
    callbacks.shutdown();
    timer.shutdownNow();
  }
}
