package dev.hourglass.examples.orders;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * The {@code orders.*} properties; an unknown key under {@code orders.} fails startup.
 *
 * @param paymentWindow how long a placed order waits for its payment before it is closed ({@code
 *     30m}, {@code 3s}, ...)
 */
@ConfigurationProperties(prefix = "orders", ignoreUnknownFields = false)
public record OrdersProperties(@DefaultValue("30m") Duration paymentWindow) {

  public OrdersProperties {
    if (paymentWindow.isNegative() || paymentWindow.isZero()) {
      throw new InvalidConfigurationPropertyValueException(
          "orders.payment-window", paymentWindow, "must be positive, e.g. 30m or 3s");
    }
  }
}
