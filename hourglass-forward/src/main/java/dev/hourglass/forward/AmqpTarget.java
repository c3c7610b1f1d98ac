package dev.hourglass.forward;

import dev.hourglass.InvalidArgumentException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;

/**
 * An AMQP 0-9-1 exchange (RabbitMQ): each job is published to {@link #exchange()} with {@link
 * #routingKey()}, persistent and mandatory, and counts as delivered when the broker confirms it.
 *
 * <pre>{@code
 * AmqpTarget.builder().uri("amqp://app:secret@rabbit:5672/%2f").exchange("orders")
 *     .routingKey("close").build()
 * }</pre>
 */
public final class AmqpTarget implements Target {
  /** What stands in for a password wherever a URI is shown. */
  public static final String MASK = "***";

  private final URI uri;
  private final String exchange;
  private final String routingKey;
  private final Duration timeout;

  private AmqpTarget(Builder b) {
    this.uri = b.uri;
    this.exchange = b.exchange;
    this.routingKey = b.routingKey;
    this.timeout = b.timeout;
  }

  /**
   * A builder with the routing key {@code ""} and the timeout {@link Target#DEFAULT_TIMEOUT}; the
   * URI and the exchange are required.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The broker's URI, password included: pass it to the client only, never to a log.
   *
   * @return the URI as given
   */
  public URI uri() {
    return uri;
  }

  /**
   * The URI with its password, if any, as {@value #MASK}: for logs and display.
   *
   * @return the masked URI
   */
  public String maskedUri() {
    return mask(uri.toString());
  }

  /**
   * {@code amqp://user:***@host/vhost} for {@code amqp://user:pass@host/vhost}.
   *
   * @param uri any text; only an {@code amqp://} or {@code amqps://} URI's password is replaced
   * @return the text with the password masked
   */
  public static String mask(String uri) {
    return uri.replaceFirst("^(amqps?://[^:/@]*:)[^@/]*@", "$1" + MASK + "@");
  }

  /**
   * The exchange every job is published to.
   *
   * @return the exchange name; {@code ""} is the default exchange
   */
  public String exchange() {
    return exchange;
  }

  /**
   * The routing key of every message.
   *
   * @return the key, {@code ""} when not set
   */
  public String routingKey() {
    return routingKey;
  }

  @Override
  public Duration timeout() {
    return timeout;
  }

  /**
   * Host and port, as failures name them: {@code localhost:5672}.
   *
   * @return {@code host:port}, the port defaulting to 5672 (5671 for {@code amqps})
   */
  public String address() {
    boolean tls = "amqps".equalsIgnoreCase(uri.getScheme());
    return uri.getHost() + ":" + (uri.getPort() > 0 ? uri.getPort() : tls ? 5671 : 5672);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AmqpTarget t
        && uri.equals(t.uri)
        && exchange.equals(t.exchange)
        && routingKey.equals(t.routingKey)
        && timeout.equals(t.timeout);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(uri, exchange, routingKey, timeout);
  }

  @Override
  public String toString() {
    return "AmqpTarget{uri="
        + maskedUri()
        + ", exchange="
        + exchange
        + ", routingKey="
        + routingKey
        + ", timeout="
        + timeout.toMillis()
        + " ms}";
  }

  /** Checks every field when built: {@link InvalidArgumentException} names the one to fix. */
  public static final class Builder {
    private URI uri;
    private String exchange;
    private String routingKey = "";
    private Duration timeout = DEFAULT_TIMEOUT;

    private Builder() {}

    /**
     * {@code amqp://user:pass@host:port/vhost} (or {@code amqps://}); the vhost {@code /} is %2f.
     *
     * @param uri the broker's URI
     * @return this builder
     * @throws InvalidArgumentException when the URI is missing, not {@code amqp} or {@code amqps},
     *     or has more than one path segment (the message masks the password)
     */
    public Builder uri(String uri) {
      this.uri = parse(uri);
      return this;
    }

    /**
     * The exchange to publish to; {@code ""} is the default exchange (routing key = queue name).
     *
     * @param exchange at most 255 characters
     * @return this builder
     * @throws InvalidArgumentException when it is null or longer
     */
    public Builder exchange(String exchange) {
      if (exchange == null) {
        throw new InvalidArgumentException(
            "exchange", "is required (\"\" is the default exchange)");
      }
      if (exchange.length() > 255) {
        throw new InvalidArgumentException("exchange", "must be at most 255 characters");
      }
      this.exchange = exchange;
      return this;
    }

    /**
     * The routing key of every message; {@code ""} when not set.
     *
     * @param routingKey at most 255 characters
     * @return this builder
     * @throws InvalidArgumentException when it is null or longer
     */
    public Builder routingKey(String routingKey) {
      if (routingKey == null || routingKey.length() > 255) {
        throw new InvalidArgumentException(
            "routingKey", "must be a text of at most 255 characters");
      }
      this.routingKey = routingKey;
      return this;
    }

    /**
     * See {@link Target#timeout()}: 1 ms to 5 min, default 10 s.
     *
     * @param timeout the confirm timeout
     * @return this builder
     * @throws InvalidArgumentException when it is null or out of range
     */
    public Builder timeout(Duration timeout) {
      this.timeout = Targets.timeout(timeout);
      return this;
    }

    /**
     * Builds the target.
     *
     * @return the target
     * @throws InvalidArgumentException when the URI or the exchange is not set
     */
    public AmqpTarget build() {
      if (uri == null) {
        throw new InvalidArgumentException("uri", "is required");
      }
      if (exchange == null) {
        throw new InvalidArgumentException(
            "exchange", "is required (\"\" is the default exchange)");
      }
      return new AmqpTarget(this);
    }

    private static URI parse(String text) {
      if (text == null || text.isBlank()) {
        throw new InvalidArgumentException("uri", "is required");
      }
      URI u;
      try {
        u = new URI(text);
      } catch (URISyntaxException e) {
        // The message would quote the URI, password and all.
        throw new InvalidArgumentException("uri", "is not a valid URI: " + mask(text));
      }
      String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
      if (!(scheme.equals("amqp") || scheme.equals("amqps")) || u.getHost() == null) {
        throw new InvalidArgumentException(
            "uri", "must be amqp://user:pass@host:port/vhost or amqps://..., not " + mask(text));
      }
      String path = u.getRawPath();
      if (path != null && path.length() > 1 && path.indexOf('/', 1) >= 0) {
        throw new InvalidArgumentException(
            "uri", "has more than one path segment: the vhost / is written %2f");
      }
      return u;
    }
  }
}
