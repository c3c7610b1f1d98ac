package dev.hourglass.examples.orders;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.Hourglass;
import dev.hourglass.QueueStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.json.JsonMapper;

/**
 * The example started as {@code main} starts it ({@link OrdersApplication#application()}), with its
 * web server on a free port, and an HTTP client for its API.
 */
final class RunningOrders implements AutoCloseable {
  /** How long a test waits for something that should happen soon: a liveness bound only. */
  static final Duration LIVENESS = Duration.ofSeconds(30);

  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final JsonMapper JSON = JsonMapper.builder().build();

  final ConfigurableApplicationContext context;
  private final URI base;

  private RunningOrders(ConfigurableApplicationContext context) {
    this.context = context;
    this.base =
        URI.create(
            "http://127.0.0.1:"
                + context.getEnvironment().getRequiredProperty("local.server.port"));
  }

  /**
   * Starts the application with these properties given as command-line arguments ({@code
   * --key=value}), after a free port and no banner.
   */
  static RunningOrders start(String... properties) {
    return start(OrdersApplication.application(), properties);
  }

  /** Starts {@code application} as {@link #start(String...)} does. */
  static RunningOrders start(SpringApplicationBuilder application, String... properties) {
    List<String> args =
        new ArrayList<>(List.of("--server.port=0", "--spring.main.banner-mode=off"));
    for (String property : properties) {
      args.add("--" + property);
    }
    return new RunningOrders(application.run(args.toArray(String[]::new)));
  }

  Order place() {
    HttpResponse<String> response = send("POST", "/orders");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    return JSON.readValue(response.body(), Order.class);
  }

  Order pay(String id) {
    HttpResponse<String> response = send("POST", "/orders/" + id + "/pay");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readValue(response.body(), Order.class);
  }

  Order get(String id) {
    HttpResponse<String> response = send("GET", "/orders/" + id);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readValue(response.body(), Order.class);
  }

  HttpResponse<String> send(String method, String path) {
    HttpRequest request =
        HttpRequest.newBuilder(base.resolve(path))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .build();
    try {
      return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The counters of the queue of closing jobs, read from Redis. */
  QueueStats.Counters counters() {
    return context.getBean(Hourglass.class).queue(OrderService.QUEUE).stats().counters();
  }

  @Override
  public void close() {
    context.close();
  }
}
