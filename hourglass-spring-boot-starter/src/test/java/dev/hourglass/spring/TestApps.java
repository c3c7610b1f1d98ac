package dev.hourglass.spring;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Starts real applications for the tests, with the same calls on Boot 3.5 and Boot 4 (these sources
 * are compiled against both): {@link SpringApplicationBuilder}, a real web server on a free port
 * read from {@code local.server.port}, and {@link HttpClient} for the actuator.
 */
final class TestApps {
  /** How long a test waits for something that should happen soon (a liveness bound only). */
  static final Duration LIVENESS = Duration.ofSeconds(30);

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private TestApps() {}

  /**
   * Runs an application made of {@code sources} with the test defaults (web server on port 0,
   * health details and the prometheus endpoint exposed) and then {@code properties}.
   */
  static ConfigurableApplicationContext run(List<Class<?>> sources, String... properties) {
    List<String> all = new ArrayList<>();
    all.add("server.port=0");
    all.add("spring.main.banner-mode=off");
    all.add("management.endpoints.web.exposure.include=health,prometheus");
    all.add("management.endpoint.health.show-details=always");
    all.addAll(List.of(properties));
    return new SpringApplicationBuilder(sources.toArray(Class<?>[]::new))
        .properties(all.toArray(String[]::new))
        .run();
  }

  /** A GET on the application's web server: status and body. */
  static HttpResponse<String> get(ConfigurableApplicationContext app, String path)
      throws IOException, InterruptedException {
    String port = app.getEnvironment().getRequiredProperty("local.server.port");
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET().build();
    return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
  }
}
