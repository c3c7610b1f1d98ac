package dev.hourglass.spring.autoconfigure;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

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

  public String getRedisUri() {
    return redisUri;
  }

  public void setRedisUri(String redisUri) {
    this.redisUri = redisUri;
  }

  public String getPrefix() {
    return prefix;
  }

  public void setPrefix(String prefix) {
    this.prefix = prefix;
  }

  public Duration getCommandTimeout() {
    return commandTimeout;
  }

  public void setCommandTimeout(Duration commandTimeout) {
    this.commandTimeout = commandTimeout;
  }

  public Duration getConnectTimeout() {
    return connectTimeout;
  }

  public void setConnectTimeout(Duration connectTimeout) {
    this.connectTimeout = connectTimeout;
  }

  public int getMaxPayloadBytes() {
    return maxPayloadBytes;
  }

  public void setMaxPayloadBytes(int maxPayloadBytes) {
    this.maxPayloadBytes = maxPayloadBytes;
  }

  public int getCompressAbove() {
    return compressAbove;
  }

  public void setCompressAbove(int compressAbove) {
    this.compressAbove = compressAbove;
  }

  public Defaults getDefaults() {
    return defaults;
  }

  public Worker getWorker() {
    return worker;
  }

  public Listeners getListeners() {
    return listeners;
  }

  public Health getHealth() {
    return health;
  }

  public Metrics getMetrics() {
    return metrics;
  }

  /** Settings of the queues this application creates. */
  public static class Defaults {
    /** Attempts before a failing job goes to the dead letters. */
    private int maxAttempts = 5;

    /** Lease of a delivered job: not acked within it, the job is delivered again. */
    private Duration visibility = Duration.ofSeconds(30);

    /** Time a job may wait before it runs; past it, it leaves unrun. When unset, no limit. */
    private Duration ttl;

    /**
     * Waits between attempts, as a schedule such as "15s 3m 10m 30m 1h" (the n-th failure waits the
     * n-th step, later ones the last). When unset, exponential from 1s to 1h with 20% jitter.
     */
    private String backoff;

    public int getMaxAttempts() {
      return maxAttempts;
    }

    public void setMaxAttempts(int maxAttempts) {
      this.maxAttempts = maxAttempts;
    }

    public Duration getVisibility() {
      return visibility;
    }

    public void setVisibility(Duration visibility) {
      this.visibility = visibility;
    }

    public Duration getTtl() {
      return ttl;
    }

    public void setTtl(Duration ttl) {
      this.ttl = ttl;
    }

    public String getBackoff() {
      return backoff;
    }

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

    public int getConcurrency() {
      return concurrency;
    }

    public void setConcurrency(int concurrency) {
      this.concurrency = concurrency;
    }

    public int getPrefetch() {
      return prefetch;
    }

    public void setPrefetch(int prefetch) {
      this.prefetch = prefetch;
    }

    public Duration getShutdownTimeout() {
      return shutdownTimeout;
    }

    public void setShutdownTimeout(Duration shutdownTimeout) {
      this.shutdownTimeout = shutdownTimeout;
    }
  }

  /** Startup of listener methods. */
  public static class Listeners {
    /** Whether listener methods start consuming when the application context has started. */
    private boolean autoStartup = true;

    public boolean isAutoStartup() {
      return autoStartup;
    }

    public void setAutoStartup(boolean autoStartup) {
      this.autoStartup = autoStartup;
    }
  }

  /** The health indicator. */
  public static class Health {
    /** Longest wait for Redis's answer before the indicator reports DOWN. */
    private Duration timeout = Duration.ofSeconds(2);

    public Duration getTimeout() {
      return timeout;
    }

    public void setTimeout(Duration timeout) {
      this.timeout = timeout;
    }
  }

  /** Queue meters. */
  public static class Metrics {
    /** How often the list of queues is read again, so that new queues get meters. */
    private Duration queueRefresh = Duration.ofSeconds(10);

    public Duration getQueueRefresh() {
      return queueRefresh;
    }

    public void setQueueRefresh(Duration queueRefresh) {
      this.queueRefresh = queueRefresh;
    }
  }
}
