package dev.hourglass.spring.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * The {@code hourglass.*} properties. An unknown key under {@code hourglass.} in the application's
 * configuration fails startup (environment variables and system properties are not checked, so an
 * {@code HOURGLASS_TOKEN} meant for the command-line client does no harm).
 */
@ConfigurationProperties(prefix = "hourglass", ignoreUnknownFields = false)
public class HourglassProperties {

  /**
   * Redis URI for Hourglass: redis://, rediss://, redis-sentinel://host:port,host:port/db#master or
   * redis-cluster://host:port,host:port. When unset, it is built from spring.data.redis.*.
   */
  private String redisUri;

  /** Prefix of every Redis key Hourglass writes (1 to 32 of A-Z a-z 0-9 . _ -). */
  private String prefix = "hg";

  /** Longest wait for one Redis command. */
  private Duration commandTimeout = Duration.ofSeconds(5);

  /**
   * Longest wait for a Redis connection to open. When unset, spring.data.redis.connect-timeout,
   * else 2s.
   */
  private Duration connectTimeout;

  /** Largest payload accepted, in bytes, after encoding. */
  private int maxPayloadBytes = 1048576;

  /**
   * Payloads of at least this many bytes are stored compressed (zstd, with a dictionary trained per
   * queue) when that makes them smaller; 0: never.
   */
  private int compressAbove = 128;

  /** Settings of queues this application creates (a queue created before keeps its own). */
  private final Defaults defaults = new Defaults();

  /** How @HourglassListener methods are run. */
  private final Worker worker = new Worker();

  /** Startup of @HourglassListener methods. */
  private final Listeners listeners = new Listeners();

  /** The "hourglass" health indicator. */
  private final Health health = new Health();

  /** Queue meters, when the application has a MeterRegistry. */
  private final Metrics metrics = new Metrics();

  /**
   * What this application runs for each queue, by queue name: forwarding its due jobs to RabbitMQ
   * or Kafka (module hourglass-forward).
   */
  private final Map<String, HourglassQueueProperties> queues = new LinkedHashMap<>();

  /** The archive of finished jobs in PostgreSQL (module hourglass-archive). */
  @NestedConfigurationProperty
  private final HourglassArchiveProperties archive = new HourglassArchiveProperties();

  /**
   * The Redis URI; null builds it from {@code spring.data.redis.*}.
   *
   * @return the value bound from {@code hourglass.redis-uri}
   */
  public String getRedisUri() {
    return redisUri;
  }

  /**
   * Binds {@code hourglass.redis-uri}.
   *
   * @param redisUri the value from the configuration
   */
  public void setRedisUri(String redisUri) {
    this.redisUri = redisUri;
  }

  /**
   * Prefix of every Redis key Hourglass writes.
   *
   * @return the value bound from {@code hourglass.prefix}
   */
  public String getPrefix() {
    return prefix;
  }

  /**
   * Binds {@code hourglass.prefix}.
   *
   * @param prefix the value from the configuration
   */
  public void setPrefix(String prefix) {
    this.prefix = prefix;
  }

  /**
   * Longest wait for one Redis command.
   *
   * @return the value bound from {@code hourglass.command-timeout}
   */
  public Duration getCommandTimeout() {
    return commandTimeout;
  }

  /**
   * Binds {@code hourglass.command-timeout}.
   *
   * @param commandTimeout the value from the configuration
   */
  public void setCommandTimeout(Duration commandTimeout) {
    this.commandTimeout = commandTimeout;
  }

  /**
   * Longest wait for a Redis connection to open; null takes {@code
   * spring.data.redis.connect-timeout}, else 2 s.
   *
   * @return the value bound from {@code hourglass.connect-timeout}
   */
  public Duration getConnectTimeout() {
    return connectTimeout;
  }

  /**
   * Binds {@code hourglass.connect-timeout}.
   *
   * @param connectTimeout the value from the configuration
   */
  public void setConnectTimeout(Duration connectTimeout) {
    this.connectTimeout = connectTimeout;
  }

  /**
   * Largest payload accepted, in bytes, after encoding.
   *
   * @return the value bound from {@code hourglass.max-payload-bytes}
   */
  public int getMaxPayloadBytes() {
    return maxPayloadBytes;
  }

  /**
   * Binds {@code hourglass.max-payload-bytes}.
   *
   * @param maxPayloadBytes the value from the configuration
   */
  public void setMaxPayloadBytes(int maxPayloadBytes) {
    this.maxPayloadBytes = maxPayloadBytes;
  }

  /**
   * Payload size from which payloads are stored compressed; 0: never.
   *
   * @return the value bound from {@code hourglass.compress-above}
   */
  public int getCompressAbove() {
    return compressAbove;
  }

  /**
   * Binds {@code hourglass.compress-above}.
   *
   * @param compressAbove the value from the configuration
   */
  public void setCompressAbove(int compressAbove) {
    this.compressAbove = compressAbove;
  }

  /**
   * Settings of the queues this application creates.
   *
   * @return the nested properties under {@code hourglass.defaults}
   */
  public Defaults getDefaults() {
    return defaults;
  }

  /**
   * How listener methods are run.
   *
   * @return the nested properties under {@code hourglass.worker}
   */
  public Worker getWorker() {
    return worker;
  }

  /**
   * Startup of listener methods.
   *
   * @return the nested properties under {@code hourglass.listeners}
   */
  public Listeners getListeners() {
    return listeners;
  }

  /**
   * The health indicator.
   *
   * @return the nested properties under {@code hourglass.health}
   */
  public Health getHealth() {
    return health;
  }

  /**
   * Queue meters.
   *
   * @return the nested properties under {@code hourglass.metrics}
   */
  public Metrics getMetrics() {
    return metrics;
  }

  /**
   * What this application runs for each queue.
   *
   * @return the queues under {@code hourglass.queues}, by name
   */
  public Map<String, HourglassQueueProperties> getQueues() {
    return queues;
  }

  /**
   * The archive of finished jobs.
   *
   * @return the nested properties under {@code hourglass.archive}
   */
  public HourglassArchiveProperties getArchive() {
    return archive;
  }

  /** Settings of the queues this application creates. */
  public static class Defaults {
    /** Attempts before a failing job goes to the dead letters. */
    private int maxAttempts = 5;

    /** Lease of a delivered job: not acked within it, the job is delivered again. */
    private Duration visibility = Duration.ofSeconds(30);

    /**
     * Time from a job's creation within which it must be acked: past it, the job is dropped
     * whatever its state. When unset, no limit.
     */
    private Duration ttl;

    /**
     * Waits between attempts, as a schedule such as "15s 3m 10m 30m 1h" (the n-th failure waits the
     * n-th step, later ones the last). When unset, exponential from 1s to 1h with 20% jitter.
     */
    private String backoff;

    /**
     * Attempts before a failing job goes to the dead letters.
     *
     * @return the value bound from {@code hourglass.defaults.max-attempts}
     */
    public int getMaxAttempts() {
      return maxAttempts;
    }

    /**
     * Binds {@code hourglass.defaults.max-attempts}.
     *
     * @param maxAttempts the value from the configuration
     */
    public void setMaxAttempts(int maxAttempts) {
      this.maxAttempts = maxAttempts;
    }

    /**
     * Lease of a delivered job.
     *
     * @return the value bound from {@code hourglass.defaults.visibility}
     */
    public Duration getVisibility() {
      return visibility;
    }

    /**
     * Binds {@code hourglass.defaults.visibility}.
     *
     * @param visibility the value from the configuration
     */
    public void setVisibility(Duration visibility) {
      this.visibility = visibility;
    }

    /**
     * Time from a job's creation within which it must be acked; null for no limit.
     *
     * @return the value bound from {@code hourglass.defaults.ttl}
     */
    public Duration getTtl() {
      return ttl;
    }

    /**
     * Binds {@code hourglass.defaults.ttl}.
     *
     * @param ttl the value from the configuration
     */
    public void setTtl(Duration ttl) {
      this.ttl = ttl;
    }

    /**
     * Waits between attempts as a schedule text; null for exponential from 1 s to 1 h.
     *
     * @return the value bound from {@code hourglass.defaults.backoff}
     */
    public String getBackoff() {
      return backoff;
    }

    /**
     * Binds {@code hourglass.defaults.backoff}.
     *
     * @param backoff the value from the configuration
     */
    public void setBackoff(String backoff) {
      this.backoff = backoff;
    }
  }

  /** How listener methods are run. */
  public static class Worker {
    /** Handler threads per listener method that does not set its own concurrency. */
    private int concurrency = 4;

    /** Most jobs a listener holds leased beyond its handler threads. */
    private int prefetch = 1000;

    /**
     * Longest wait on shutdown for running handlers; jobs not started are handed back at once. When
     * unset, 90% of spring.lifecycle.timeout-per-shutdown-phase (30s when that is unset).
     */
    private Duration shutdownTimeout;

    /**
     * Handler threads per listener method that does not set its own.
     *
     * @return the value bound from {@code hourglass.worker.concurrency}
     */
    public int getConcurrency() {
      return concurrency;
    }

    /**
     * Binds {@code hourglass.worker.concurrency}.
     *
     * @param concurrency the value from the configuration
     */
    public void setConcurrency(int concurrency) {
      this.concurrency = concurrency;
    }

    /**
     * Most jobs a listener holds leased beyond its handler threads.
     *
     * @return the value bound from {@code hourglass.worker.prefetch}
     */
    public int getPrefetch() {
      return prefetch;
    }

    /**
     * Binds {@code hourglass.worker.prefetch}.
     *
     * @param prefetch the value from the configuration
     */
    public void setPrefetch(int prefetch) {
      this.prefetch = prefetch;
    }

    /**
     * Longest wait on shutdown for running handlers; null for 90% of the shutdown phase timeout.
     *
     * @return the value bound from {@code hourglass.worker.shutdown-timeout}
     */
    public Duration getShutdownTimeout() {
      return shutdownTimeout;
    }

    /**
     * Binds {@code hourglass.worker.shutdown-timeout}.
     *
     * @param shutdownTimeout the value from the configuration
     */
    public void setShutdownTimeout(Duration shutdownTimeout) {
      this.shutdownTimeout = shutdownTimeout;
    }
  }

  /** Startup of listener methods. */
  public static class Listeners {
    /** Whether listener methods start consuming when the application context has started. */
    private boolean autoStartup = true;

    /**
     * Whether listener methods start consuming when the context has started.
     *
     * @return the value bound from {@code hourglass.listeners.auto-startup}
     */
    public boolean isAutoStartup() {
      return autoStartup;
    }

    /**
     * Binds {@code hourglass.listeners.auto-startup}.
     *
     * @param autoStartup the value from the configuration
     */
    public void setAutoStartup(boolean autoStartup) {
      this.autoStartup = autoStartup;
    }
  }

  /** The health indicator. */
  public static class Health {
    /** Longest wait for Redis's answer before the indicator reports DOWN. */
    private Duration timeout = Duration.ofSeconds(2);

    /**
     * Longest wait for Redis's answer before the indicator reports DOWN.
     *
     * @return the value bound from {@code hourglass.health.timeout}
     */
    public Duration getTimeout() {
      return timeout;
    }

    /**
     * Binds {@code hourglass.health.timeout}.
     *
     * @param timeout the value from the configuration
     */
    public void setTimeout(Duration timeout) {
      this.timeout = timeout;
    }
  }

  /** Queue meters. */
  public static class Metrics {
    /** How often the list of queues is read again, so that new queues get meters. */
    private Duration queueRefresh = Duration.ofSeconds(10);

    /**
     * How often the list of queues is read again for meters.
     *
     * @return the value bound from {@code hourglass.metrics.queue-refresh}
     */
    public Duration getQueueRefresh() {
      return queueRefresh;
    }

    /**
     * Binds {@code hourglass.metrics.queue-refresh}.
     *
     * @param queueRefresh the value from the configuration
     */
    public void setQueueRefresh(Duration queueRefresh) {
      this.queueRefresh = queueRefresh;
    }
  }
}
