package dev.hourglass.spring.quickstart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hourglass.Hourglass;
import dev.hourglass.testing.ReadmeBlocks;
import dev.hourglass.testing.RedisExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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

  @Test
  void theReadmeShowsThisSourceAsItIs() throws Exception {
    ReadmeBlocks section =
        ReadmeBlocks.section(MODULE.resolve("../README.md"), "## Spring Boot quick start");
    String source =
        Files.readString(
            MODULE.resolve("src/test/java/dev/hourglass/spring/quickstart/UnpaidOrders.java"));
    String afterPackage = source.substring(source.indexOf(";\n") + 2).stripLeading();
    assertThat(section.block("java")).isEqualTo(afterPackage);
    assertThat(section.block("xml"))
        .contains("<groupId>dev.hourglass</groupId>")
        .contains("<artifactId>hourglass-spring-boot-starter</artifactId>");
    assertThat(section.block("properties"))
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
