package dev.hourglass;

import dev.hourglass.spi.IdGenerator;
import dev.hourglass.spi.PayloadCodecFactory;
import dev.hourglass.spi.ScriptListener;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.regex.Pattern;

/**
 * Configures and connects a {@link Hourglass} client. {@link #build()} validates the settings,
 * connects to Redis, and checks the layout version stored under the key prefix.
 */
public final class HourglassBuilder {
  private static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9._-]{1,32}");

  private String redisUri = "redis://127.0.0.1:6379";
  private String prefix = "hg";
  private Duration commandTimeout = Duration.ofSeconds(5);
  private Duration connectTimeout = Duration.ofSeconds(2);
  private int maxPayloadBytes = 1024 * 1024;
  private Clock clock = Clock.systemUTC();
  private IdGenerator idGenerator;
  private QueueSettings defaultQueueSettings = QueueSettings.defaults();
  private boolean backgroundPromoter = true;
  private boolean promoteAllQueues = false;
  private ScriptListener scriptListener = ScriptListener.NONE;
  private PayloadCodecFactory codecs;
  private int replicaAcks;
  private int compressAbove = QueueSettings.DEFAULT_COMPRESS_ABOVE;
  private Duration replicaAckTimeout; // null: min(1 s, commandTimeout / 2)

  HourglassBuilder() {}

  /**
   * The Redis to use, e.g. {@code redis://host:6379/0} or {@code rediss://user:pass@host:6380}, or
   * a Redis Cluster by some of its nodes: {@code redis-cluster://host1:6379,host2:6379}. Default
   * {@code redis://127.0.0.1:6379}.
   *
   * @param redisUri the URI, checked when {@link #build()} connects
   * @return this builder
   */
  public HourglassBuilder redisUri(String redisUri) {
    this.redisUri = redisUri;
    return this;
  }

  /**
   * Prefix of every key, so several independent Hourglass installations can share one Redis.
   * Default {@code hg}.
   *
   * @param prefix 1 to 32 of {@code A-Z a-z 0-9 . _ -}, checked by {@link #build()}
   * @return this builder
   */
  public HourglassBuilder prefix(String prefix) {
    this.prefix = prefix;
    return this;
  }

  /**
   * How long a Redis command may take before it fails with {@link RedisUnavailableException}
   * (default 5 s).
   *
   * @param commandTimeout positive, checked by {@link #build()}
   * @return this builder
   */
  public HourglassBuilder commandTimeout(Duration commandTimeout) {
    this.commandTimeout = commandTimeout;
    return this;
  }

  /**
   * How long connecting to Redis may take (default 2 s).
   *
   * @param connectTimeout positive, checked by {@link #build()}
   * @return this builder
   */
  public HourglassBuilder connectTimeout(Duration connectTimeout) {
    this.connectTimeout = connectTimeout;
    return this;
  }

  /**
   * The largest payload accepted, in bytes (default 1 MiB); a larger one is refused with {@link
   * PayloadTooLargeException} before anything is sent.
   *
   * @param maxPayloadBytes 1 byte to 64 MiB, checked by {@link #build()}
   * @return this builder
   */
  public HourglassBuilder maxPayloadBytes(int maxPayloadBytes) {
    this.maxPayloadBytes = maxPayloadBytes;
    return this;
  }

  /**
   * The client's clock, for its own timers (the settings version check) and the time part of the
   * ids it makes; due times themselves always follow the Redis server clock. Default the system
   * clock in UTC.
   *
   * @param clock required, checked by {@link #build()}
   * @return this builder
   */
  public HourglassBuilder clock(Clock clock) {
    this.clock = clock;
    return this;
  }

  /**
   * How ids are generated for jobs enqueued without one. By default the client makes ids of 21
   * characters whose last names the job's pool; ids of a plug-in generator are checked and looked
   * up like ids the caller gives.
   *
   * @param idGenerator the generator, or null for the client's own ids
   * @return this builder
   */
  public HourglassBuilder idGenerator(IdGenerator idGenerator) {
    this.idGenerator = idGenerator;
    return this;
  }

  /**
   * Settings of queues this client creates implicitly on first use (default {@link
   * QueueSettings#defaults()}).
   *
   * @param settings required, checked by {@link #build()}
   * @return this builder
   */
  public HourglassBuilder defaultQueueSettings(QueueSettings settings) {
    this.defaultQueueSettings = settings;
    return this;
  }

  /**
   * Whether this client runs promoters in the background for the queues it consumes (default true).
   * Turn it off for a client that only produces or inspects: a job's state follows the Redis clock
   * without a promoter, and a claim or a stats call catches up by itself; promoters make the timing
   * (wake-ups when jobs fall due, slot lists loaded ahead).
   *
   * @param backgroundPromoter false for no promoter
   * @return this builder
   */
  public HourglassBuilder backgroundPromoter(boolean backgroundPromoter) {
    this.backgroundPromoter = backgroundPromoter;
    return this;
  }

  /**
   * Whether the background promoter serves every queue in Redis, found at start and again every few
   * seconds, rather than only the queues this client consumes (default false). A service that
   * answers other processes' claims and reports every queue's state, such as the Hourglass server,
   * turns it on so that ttl expiry, lapsed leases, slot loading and dead-letter retention run for
   * every queue. An idle queue costs one short script call per partition every ten seconds or so
   * (docs/ARCHITECTURE.md, "Promoters").
   *
   * @param promoteAllQueues true to promote every queue under the prefix
   * @return this builder
   */
  public HourglassBuilder promoteAllQueues(boolean promoteAllQueues) {
    this.promoteAllQueues = promoteAllQueues;
    return this;
  }

  /**
   * Observes every script call, e.g. to record Redis latency as a metric (default: none).
   *
   * @param scriptListener required ({@link ScriptListener#NONE} for none), checked by {@link
   *     #build()}
   * @return this builder
   */
  public HourglassBuilder scriptListener(ScriptListener scriptListener) {
    this.scriptListener = scriptListener;
    return this;
  }

  /**
   * Replica-acknowledged writes by default for every queue (a queue's {@link
   * QueueSettings.Builder#replicaAcks} overrides it): enqueues (single and batch), acks, nacks and
   * cancels answer only once {@code replicas} replicas confirmed them ({@code WAIT replicas
   * timeout} on the connection that carried the write, after it); when fewer confirm within {@code
   * timeout} the call fails with {@link ReplicaAckException}, whose outcome is unknown. Default 0:
   * no WAIT, nothing added to a write. The timeout must be shorter than {@link #commandTimeout};
   * queues that turn the mode on by their own setting use it too (unset: 1 s, or half the command
   * timeout if that is shorter).
   *
   * @param replicas 0 to {@value QueueSettings#MAX_REPLICA_ACKS}, checked by {@link #build()}
   * @param timeout positive and shorter than the command timeout, or null for the default; checked
   *     by {@link #build()}
   * @return this builder
   */
  public HourglassBuilder replicaAcks(int replicas, Duration timeout) {
    this.replicaAcks = replicas;
    this.replicaAckTimeout = timeout;
    return this;
  }

  /**
   * Payloads of at least this many bytes are stored compressed with zstd when that makes them
   * smaller (default {@value QueueSettings#DEFAULT_COMPRESS_ABOVE}; 0: never), with a dictionary
   * trained on the queue's payloads once it has one; a queue's {@link
   * QueueSettings.Builder#compressAbove} overrides it. Every reader gets payloads back as they were
   * enqueued. zstd-jni's native library does the work where it loads; elsewhere a pure-Java zstd
   * compresses without a dictionary (docs/ARCHITECTURE.md, "Compressed payloads").
   *
   * @param bytes 0 to {@value QueueSettings#MAX_COMPRESS_ABOVE}, checked by {@link #build()}
   * @return this builder
   */
  public HourglassBuilder compressAbove(int bytes) {
    this.compressAbove = bytes;
    return this;
  }

  /**
   * Connects a client: what {@link #build()} calls, implemented by Hourglass's own client, which
   * registers itself with {@link ServiceLoader}; not for applications to implement.
   */
  public interface Connector {
    /**
     * A connected client with these settings.
     *
     * @param config the validated settings
     * @return the connected client
     * @throws RedisUnavailableException when Redis cannot be reached
     */
    Hourglass connect(Config config);
  }

  /**
   * The validated settings of a client, as {@link #build()} hands them to the client
   * implementation; read by it, not made by applications.
   *
   * @param replicaAckTimeout the wait for replica confirmations (see {@link #replicaAcks(int,
   *     Duration)}), resolved from its default
   */
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
      int compressAbove) {

    /**
     * How many replicas must confirm a write of a queue with these settings: the queue's own
     * setting, else the client's default (0: no WAIT at all).
     *
     * @param settings the queue's settings
     * @return 0 to {@link QueueSettings#MAX_REPLICA_ACKS}
     */
    public int replicaAcksFor(QueueSettings settings) {
      return settings.replicaAcks().orElse(replicaAcks);
    }

    /**
     * The payload size from which a queue with these settings stores payloads compressed: the
     * queue's own setting, else the client's (0: never).
     *
     * @param settings the queue's settings
     * @return bytes, or 0 for never
     */
    public int compressAboveFor(QueueSettings settings) {
      return settings.compressAbove().orElse(compressAbove);
    }
  }

  private static Connector connector() {
    return ServiceLoader.load(Connector.class, HourglassBuilder.class.getClassLoader())
        .findFirst()
        .orElseThrow(
            () ->
                new HourglassException(
                    "no Hourglass client implementation on the class path (hourglass-core's"
                        + " META-INF/services entry is missing: a repackaged jar must keep it)"));
  }

  /**
   * Validates, connects, checks the Redis version and the layout version.
   *
   * @return the connected client; close it at the end
   * @throws InvalidArgumentException naming a bad setting
   * @throws NullPointerException when the clock or the script listener is null
   * @throws RedisUnavailableException when Redis cannot be reached
   * @throws RedisVersionException when Redis (or a node of a Redis Cluster) is older than {@value
   *     RedisVersionException#MINIMUM}, the oldest Hourglass supports
   * @throws LayoutVersionException when the prefix holds data of another layout version
   */
  public Hourglass build() {
    if (redisUri == null || redisUri.isBlank()) {
      throw new InvalidArgumentException("redisUri", "is required");
    }
    if (prefix == null || !PREFIX.matcher(prefix).matches()) {
      throw new InvalidArgumentException("prefix", "must be 1 to 32 of A-Z a-z 0-9 . _ -");
    }
    positive("commandTimeout", commandTimeout);
    positive("connectTimeout", connectTimeout);
    if (maxPayloadBytes < 1 || maxPayloadBytes > 64 * 1024 * 1024) {
      throw new InvalidArgumentException("maxPayloadBytes", "must be between 1 and 64 MiB");
    }
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(scriptListener, "scriptListener");
    if (replicaAcks < 0 || replicaAcks > QueueSettings.MAX_REPLICA_ACKS) {
      throw new InvalidArgumentException(
          "replicaAcks", "must be between 0 and " + QueueSettings.MAX_REPLICA_ACKS);
    }
    Duration ackTimeout = replicaAckTimeout;
    if (ackTimeout == null) {
      Duration half = commandTimeout.dividedBy(2);
      ackTimeout = half.compareTo(Duration.ofSeconds(1)) < 0 ? half : Duration.ofSeconds(1);
    }
    positive("replicaAckTimeout", ackTimeout);
    if (ackTimeout.compareTo(commandTimeout) >= 0) {
      throw new InvalidArgumentException(
          "replicaAckTimeout", "must be shorter than commandTimeout (" + commandTimeout + ")");
    }
    if (compressAbove < 0 || compressAbove > QueueSettings.MAX_COMPRESS_ABOVE) {
      throw new InvalidArgumentException(
          "compressAbove", "must be between 0 and " + QueueSettings.MAX_COMPRESS_ABOVE);
    }
    if (defaultQueueSettings == null) {
      throw new InvalidArgumentException("defaultQueueSettings", "is required");
    }
    return connector()
        .connect(
            new Config(
                redisUri,
                prefix,
                commandTimeout,
                connectTimeout,
                maxPayloadBytes,
                clock,
                idGenerator,
                defaultQueueSettings,
                backgroundPromoter,
                promoteAllQueues,
                scriptListener,
                codecs,
                replicaAcks,
                ackTimeout,
                compressAbove));
  }

  /**
   * Where {@link Hourglass#queue(String, Class)} finds codecs for payload types other than {@code
   * byte[]} and {@code String}, e.g. {@code JacksonCodecs.of(objectMapper)} from {@code
   * hourglass-jackson}.
   *
   * @param codecs the factory, or null for the built-in codecs only
   * @return this builder
   */
  public HourglassBuilder codecs(PayloadCodecFactory codecs) {
    this.codecs = codecs;
    return this;
  }

  private static void positive(String field, Duration d) {
    if (d == null || d.isZero() || d.isNegative()) {
      throw new InvalidArgumentException(field, "must be positive");
    }
  }
}
