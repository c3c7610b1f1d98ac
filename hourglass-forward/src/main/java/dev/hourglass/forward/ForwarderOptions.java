package dev.hourglass.forward;

import dev.hourglass.Delivery;
import dev.hourglass.InvalidArgumentException;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * How a {@link Forwarder} runs. Immutable; {@link #defaults()} or {@link #builder()}.
 *
 * @param concurrency publishes awaiting the broker's confirm at most, 1 to 1024 (default 256)
 * @param reconnectMin the first wait after a broker failure (default 250 ms), doubling per failure
 * @param reconnectMax the longest wait between failures (default 5 s)
 * @param shutdownTimeout how long {@link Forwarder#close()} waits for confirms (default 10 s)
 * @param onPublished called on the forwarder's thread for each job just before it is published
 *     (e.g. to count deliveries); must not block
 */
public record ForwarderOptions(
    int concurrency,
    Duration reconnectMin,
    Duration reconnectMax,
    Duration shutdownTimeout,
    Consumer<Delivery<?>> onPublished) {
  /** Publishes awaiting the broker's confirm at most, by default. */
  public static final int DEFAULT_CONCURRENCY = 256;

  /**
   * Checks every option.
   *
   * @param concurrency 1 to 1024
   * @param reconnectMin positive
   * @param reconnectMax positive, at least {@code reconnectMin}
   * @param shutdownTimeout zero or positive
   * @param onPublished required ({@code d -> {}} for none)
   * @throws InvalidArgumentException naming the option that is out of range
   */
  public ForwarderOptions {
    if (concurrency < 1 || concurrency > 1024) {
      throw new InvalidArgumentException("concurrency", "must be from 1 to 1024");
    }
    positive("reconnectMin", reconnectMin);
    positive("reconnectMax", reconnectMax);
    if (reconnectMax.compareTo(reconnectMin) < 0) {
      throw new InvalidArgumentException("reconnectMax", "must not be less than reconnectMin");
    }
    if (shutdownTimeout == null || shutdownTimeout.isNegative()) {
      throw new InvalidArgumentException("shutdownTimeout", "must not be negative");
    }
    if (onPublished == null) {
      throw new InvalidArgumentException("onPublished", "is required (d -> {} for none)");
    }
  }

  private static void positive(String field, Duration d) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new InvalidArgumentException(field, "must be positive");
    }
  }

  /**
   * Concurrency {@value #DEFAULT_CONCURRENCY}, reconnect backoff 250 ms to 5 s, shutdown timeout 10
   * s, no publish listener.
   *
   * @return the defaults
   */
  public static ForwarderOptions defaults() {
    return builder().build();
  }

  /**
   * A builder holding the {@link #defaults()}.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds {@link ForwarderOptions}; {@link #build()} checks every option. */
  public static final class Builder {
    private int concurrency = DEFAULT_CONCURRENCY;
    private Duration reconnectMin = Duration.ofMillis(250);
    private Duration reconnectMax = Duration.ofSeconds(5);
    private Duration shutdownTimeout = Duration.ofSeconds(10);
    private Consumer<Delivery<?>> onPublished = d -> {};

    private Builder() {}

    /**
     * Publishes awaiting the broker's confirm at most (default {@value
     * ForwarderOptions#DEFAULT_CONCURRENCY}).
     *
     * @param concurrency 1 to 1024, checked by {@link #build()}
     * @return this builder
     */
    public Builder concurrency(int concurrency) {
      this.concurrency = concurrency;
      return this;
    }

    /**
     * The wait after a broker failure: {@code min} first, doubling per failure up to {@code max}
     * (default 250 ms to 5 s); a confirm resets it.
     *
     * @param min positive, checked by {@link #build()}
     * @param max at least {@code min}, checked by {@link #build()}
     * @return this builder
     */
    public Builder reconnectBackoff(Duration min, Duration max) {
      this.reconnectMin = min;
      this.reconnectMax = max;
      return this;
    }

    /**
     * How long {@link Forwarder#close()} waits for the confirms in flight (default 10 s).
     *
     * @param timeout zero or positive, checked by {@link #build()}
     * @return this builder
     */
    public Builder shutdownTimeout(Duration timeout) {
      this.shutdownTimeout = timeout;
      return this;
    }

    /**
     * Called on the forwarder's thread for each job just before it is published (e.g. to count
     * deliveries); must not block.
     *
     * @param listener required, checked by {@link #build()}
     * @return this builder
     */
    public Builder onPublished(Consumer<Delivery<?>> listener) {
      this.onPublished = listener;
      return this;
    }

    /**
     * Validates and builds.
     *
     * @return the options
     * @throws InvalidArgumentException naming the option that is out of range
     */
    public ForwarderOptions build() {
      return new ForwarderOptions(
          concurrency, reconnectMin, reconnectMax, shutdownTimeout, onPublished);
    }
  }
}
