package dev.hourglass.examples.orders;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The orders service: {@code POST /orders} places an order, {@code POST /orders/{id}/pay} pays it,
 * {@code GET /orders/{id}} reads it; an order still unpaid when its payment window ({@code
 * orders.payment-window}, 30 minutes) has passed is closed by an Hourglass job. With no Redis
 * configured it runs on an embedded one ({@link EmbeddedRedis}).
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class OrdersApplication {

  /** The application as {@link #main} runs it; tests start it the same way. */
  public static SpringApplicationBuilder application() {
    return new SpringApplicationBuilder(OrdersApplication.class).initializers(new EmbeddedRedis());
  }

  public static void main(String[] args) {
    application().run(args);
  }
}
