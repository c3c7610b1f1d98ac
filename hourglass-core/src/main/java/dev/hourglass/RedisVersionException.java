package dev.hourglass;

/**
 * The Redis server (or, on a Redis Cluster, one of its nodes) is older than the oldest version
 * Hourglass supports, {@value #MINIMUM}: thrown by {@link HourglassBuilder#build()} when it
 * connects, before anything is written. Valkey and other servers are judged by the Redis version
 * they report ({@code redis_version} in {@code INFO server}). Upgrade the server; {@code
 * docs/COMPATIBILITY.md} lists the versions tested.
 */
public class RedisVersionException extends HourglassException {
  private static final long serialVersionUID = 1L;

  /** The oldest Redis version Hourglass supports, as {@code major.minor}. */
  public static final String MINIMUM = "6.2";

  /** What the server said it is, e.g. {@code "Redis 6.0.20"}. */
  private final String server;

  /** Where it runs, e.g. {@code "127.0.0.1:6379"}. */
  private final String address;

  /**
   * A server too old to run Hourglass.
   *
   * @param server its product and version, e.g. {@code "Redis 6.0.20"}
   * @param address where it runs, e.g. {@code "127.0.0.1:6379"}
   */
  public RedisVersionException(String server, String address) {
    super(
        server
            + " at "
            + address
            + " is older than "
            + MINIMUM
            + ", the oldest Hourglass supports; upgrade it (docs/COMPATIBILITY.md)");
    this.server = server;
    this.address = address;
  }

  /**
   * What the server said it is.
   *
   * @return its product and version, e.g. {@code "Redis 6.0.20"}
   */
  public String server() {
    return server;
  }

  /**
   * Where the server runs.
   *
   * @return its address, e.g. {@code "127.0.0.1:6379"}
   */
  public String address() {
    return address;
  }
}
