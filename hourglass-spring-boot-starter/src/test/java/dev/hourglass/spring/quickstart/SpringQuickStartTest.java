package dev.hourglass.spring.quickstart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hourglass.Hourglass;
import dev.hourglass.testing.RedisExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The README's "Spring Boot quick start" runs as printed: its Java block is {@code
 * UnpaidOrders.java} of this package (everything after the package line), its property is the one
 * this test sets, and its dependency is this module.
 */
class SpringQuickStartTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  private static final Path MODULE = Path.of("..", "hourglass-spring-boot-starter");

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  @Import(UnpaidOrders.class)
  static class App {
    @Bean
    OrderService orderService() {
      return new OrderService();
    }
  }

  private static String section() throws Exception {
    String readme = Files.readString(MODULE.resolve("../README.md"));
    int start = readme.indexOf("## Spring Boot quick start");
    assertThat(start).as("README section").isNotNegative();
    int end = readme.indexOf("\n## ", start + 1);
    return readme.substring(start, end < 0 ? readme.length() : end);
  }

  private static String block(String section, String language) {
    Matcher m = Pattern.compile("```" + language + "\n(.*?)```", Pattern.DOTALL).matcher(section);
    assertThat(m.find()).as("a ```%s block", language).isTrue();
    return m.group(1);
  }

  @Test
  void theReadmeShowsThisSourceAsItIs() throws Exception {
    String section = section();
    String source =
        Files.readString(
            MODULE.resolve("src/test/java/dev/hourglass/spring/quickstart/UnpaidOrders.java"));
    String afterPackage = source.substring(source.indexOf(";\n") + 2).stripLeading();
    assertThat(block(section, "java")).isEqualTo(afterPackage);
    assertThat(block(section, "xml"))
        .contains("<groupId>dev.hourglass</groupId>")
        .contains("<artifactId>hourglass-spring-boot-starter</artifactId>");
    assertThat(block(section, "properties"))
        .isEqualTo("spring.data.redis.url=redis://localhost:6379\n");
  }

  @Test
  void anUnpaidOrderIsClosedAndAPaidOneIsNot() {
    try (ConfigurableApplicationContext app =
        new SpringApplicationBuilder(App.class)
            .properties(
                "spring.data.redis.url=" + redis.uri(), "spring.main.web-application-type=none")
            .run()) {
      UnpaidOrders unpaid = app.getBean(UnpaidOrders.class);
      unpaid.placed(1);
      unpaid.placed(2);
      unpaid.paid(2);

      // Not in the README: bring order 1's job forward so that the test need not wait 30 minutes.
      app.getBean(Hourglass.class).queue("unpaid-orders").reschedule("order-1", Duration.ZERO);
      OrderService orders = app.getBean(OrderService.class);
      await().atMost(Duration.ofSeconds(30)).until(() -> orders.closed.contains(1L));
      assertThat(orders.closed).containsExactly(1L);
      assertThat(app.getBean(Hourglass.class).queue("unpaid-orders").get("order-2")).isEmpty();
    }
  }
}
