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
  public static final int DEFAULT_CONCURRENCY = 256;

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

  public static ForwarderOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  public static final class Builder {
    private int concurrency = DEFAULT_CONCURRENCY;
    private Duration reconnectMin = Duration.ofMillis(250);
    private Duration reconnectMax = Duration.ofSeconds(5);
    private Duration shutdownTimeout = Duration.ofSeconds(10);
    private Consumer<Delivery<?>> onPublished = d -> {};

    private Builder() {}

    public Builder concurrency(int concurrency) {
      this.concurrency = concurrency;
      return this;
    }

    public Builder reconnectBackoff(Duration min, Duration max) {
      this.reconnectMin = min;
      this.reconnectMax = max;
      return this;
    }

    public Builder shutdownTimeout(Duration timeout) {
      this.shutdownTimeout = timeout;
      return this;
    }

    public Builder onPublished(Consumer<Delivery<?>> listener) {
      this.onPublished = listener;
      return this;
    }

    public ForwarderOptions build() {
      return new ForwarderOptions(
          concurrency, reconnectMin, reconnectMax, shutdownTimeout, onPublished);
    }
  }
}
