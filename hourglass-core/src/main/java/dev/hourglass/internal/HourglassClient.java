package dev.hourglass.internal;

import dev.hourglass.Hourglass;
import dev.hourglass.HourglassException;
import dev.hourglass.JobHandler;
import dev.hourglass.LayoutVersionException;
import dev.hourglass.Queue;
import dev.hourglass.QueueSettings;
import dev.hourglass.Worker;
import dev.hourglass.WorkerOptions;
import dev.hourglass.spi.IdGenerator;
import dev.hourglass.spi.ScriptListener;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.RejectedExecutionException;
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
      ScriptListener scriptListener) {}

  final Config config;
  final RedisConnector redis;
  final ScriptRegistry scripts = new ScriptRegistry();
  final Keys keys;
  final ServerClock serverClock;
  final RandomIds random;
  final IdGenerator ids;
  final Promoters promoters;

  /** Runs follow-up work of Redis replies off Lettuce's event loop, where nothing may block. */
  final java.util.concurrent.ExecutorService callbacks =
      java.util.concurrent.Executors.newCachedThreadPool(DaemonThreads.named("hourglass-callback"));

  /** Fires long-poll deadlines. */
  final java.util.concurrent.ScheduledExecutorService timer =
      java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
          DaemonThreads.named("hourglass-timer"));

  private final ConcurrentMap<String, RedisQueue> queues = new ConcurrentHashMap<>();
  private final Set<WorkerImpl> workers = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  private HourglassClient(Config config, RedisConnector redis) {
    this.config = config;
    this.redis = redis;
    this.keys = new Keys(config.prefix());
    this.serverClock = new ServerClock(config.clock());
    this.random = new RandomIds(config.clock());
    this.ids = config.idGenerator() != null ? config.idGenerator() : random;
    this.promoters = new Promoters(this);
  }

  /** Connects and checks (or writes, on an empty Redis) the layout version. */
  public static Hourglass connect(Config config) {
    RedisConnector redis =
        new RedisConnector(config.redisUri(), config.commandTimeout(), config.connectTimeout());
    try {
      HourglassClient client = new HourglassClient(config, redis);
      client.checkLayout();
      return client;
    } catch (RuntimeException e) {
      redis.close();
      throw e;
    }
  }

  private void checkLayout() {
    byte[] key = keys.layout().getBytes(StandardCharsets.UTF_8);
    byte[] want = Keys.LAYOUT_VERSION.getBytes(StandardCharsets.UTF_8);
    var async = redis.async();
    Failures.await(async.setnx(key, want).toCompletableFuture());
    byte[] stored = Failures.await(async.get(key).toCompletableFuture());
    String version = stored == null ? null : new String(stored, StandardCharsets.UTF_8);
    if (Keys.LAYOUT_1.equals(version)
        || Keys.LAYOUT_2.equals(version)
        || Keys.LAYOUT_3.equals(version)) {
      if (Keys.LAYOUT_1.equals(version)) {
        upgradeFromLayout1();
      }
      // From 2 or 3 nothing moves: the queues layout 2 created have no poolMap setting and keep
      // even pools, and a partition's slot entries become bare ids once a promoter of this layout
      // has made older promoters stand down there (prelude.lua, stand_down_older).
      Failures.await(async.set(key, want).toCompletableFuture());
      version = Keys.LAYOUT_VERSION;
    }
    if (!Keys.LAYOUT_VERSION.equals(version)) {
      throw new LayoutVersionException(
          "Redis key "
              + keys.layout()
              + " says layout version "
              + version
              + ", this Hourglass writes version "
              + Keys.LAYOUT_VERSION
              + "; migrate the data or use another prefix");
    }
    List<byte[]> time = Failures.await(async.time().toCompletableFuture());
    serverClock.observe(
        Long.parseLong(new String(time.get(0), StandardCharsets.US_ASCII)) * 1000
            + Long.parseLong(new String(time.get(1), StandardCharsets.US_ASCII)) / 1000);
  }

  /**
   * Layout 1 moved due jobs from near to a ready set; layout 2 claims them straight from near, and
   * a full promoter pass folds what layout-1 clients left in ready back into near. Asking every
   * partition of every queue for a full pass (meta.due = 0) is all the upgrade needs: the data
   * stays where it is. A layout-1 client still running keeps working beside this one until a
   * promoter of this layout has run on a partition: its promoter then stands down there (see
   * prelude.lua, stand_down_older), so its consumers, which claim from ready, get nothing more.
   */
  private void upgradeFromLayout1() {
    var async = redis.async();
    byte[] due = "due".getBytes(StandardCharsets.UTF_8);
    byte[] atOnce = "0".getBytes(StandardCharsets.UTF_8);
    for (String name : queueNames()) {
      for (PartitionRef part : queue(name).layout().partitions()) {
        byte[] meta = part.keys.meta().getBytes(StandardCharsets.UTF_8);
        Failures.await(async.hset(meta, due, atOnce).toCompletableFuture());
      }
    }
  }

  /**
   * Runs a script on the shared connection, or on the delivery connection when it is one of the
   * consumers' path ({@link Script#delivery}); failures arrive translated through {@link Failures}.
   */
  CompletableFuture<List<Object>> run(Script script, Args keys, Args argv) {
    if (!redis.isOpen(script.delivery())) {
      // Using it would connect first, which blocks until connected: not on the caller's thread,
      // which may be one of Lettuce's event loops running the follow-up of another reply, and the
      // one the new connection needs.
      try {
        return CompletableFuture.supplyAsync(() -> send(script, keys, argv), callbacks)
            .thenCompose(reply -> reply);
      } catch (RejectedExecutionException e) {
        // closed: send() reports it
      }
    }
    return send(script, keys, argv);
  }

  private CompletableFuture<List<Object>> send(Script script, Args keys, Args argv) {
    long started = System.nanoTime();
    CompletableFuture<List<Object>> reply;
    try {
      var commands = script.delivery() ? redis.deliveryAsync() : redis.async();
      reply =
          scripts
              .run(commands, script, keys.toArray(), argv.toArray())
              .exceptionallyCompose(t -> CompletableFuture.failedFuture(Failures.translate(t)));
    } catch (RuntimeException e) {
      reply = CompletableFuture.failedFuture(Failures.translate(e));
    }
    if (config.scriptListener() != ScriptListener.NONE) {
      reply.whenComplete((r, failure) -> observe(script, started, failure));
    }
    return reply;
  }

  private void observe(Script script, long startedNanos, Throwable failure) {
    try {
      config
          .scriptListener()
          .scriptCalled(
              script.scriptName(), Duration.ofNanos(System.nanoTime() - startedNanos), failure);
    } catch (RuntimeException e) {
      log.warn("script listener failed", e);
    }
  }

  /** Runs a script and waits for it. */
  List<Object> call(Script script, Args keys, Args argv) {
    return Failures.await(run(script, keys, argv));
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
    byte[] member = Names.queue(name).getBytes(StandardCharsets.UTF_8);
    return Failures.await(
        redis
            .async()
            .sismember(keys.queueRegistry().getBytes(StandardCharsets.UTF_8), member)
            .toCompletableFuture());
  }

  @Override
  public List<String> queueNames() {
    checkOpen();
    Set<byte[]> members =
        Failures.await(
            redis
                .async()
                .smembers(keys.queueRegistry().getBytes(StandardCharsets.UTF_8))
                .toCompletableFuture());
    List<String> names = new ArrayList<>();
    for (byte[] m : members) {
      names.add(new String(m, StandardCharsets.UTF_8));
    }
    names.sort(null);
    return names;
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
