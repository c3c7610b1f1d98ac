package dev.hourglass.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.embedded.RedisServer;
import dev.hourglass.embedded.RedisServerException;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;

/** Drives the callbacks directly to check who starts, flushes and closes the server. */
class RedisExtensionLifecycleTest {

  private static ExtensionContext context(String uniqueId) {
    return (ExtensionContext)
        Proxy.newProxyInstance(
            ExtensionContext.class.getClassLoader(),
            new Class<?>[] {ExtensionContext.class},
            (proxy, method, args) -> {
              if (method.getName().equals("getUniqueId")) {
                return uniqueId;
              }
              throw new UnsupportedOperationException(method.getName());
            });
  }

  @Test
  void classLevelServerLivesFromBeforeAllToAfterAll() {
    RedisExtension extension = RedisExtension.standalone();
    ExtensionContext classContext = context("[class:A]");
    ExtensionContext methodContext = context("[class:A]/[method:m()]");
    assertThatThrownBy(extension::server).isInstanceOf(IllegalStateException.class);

    extension.beforeAll(classContext);
    RedisServer server = extension.server();
    server.command("SET", "k", "v");
    extension.beforeEach(methodContext);
    assertThat(server.command("DBSIZE")).isEqualTo("0");
    extension.afterEach(methodContext);
    assertThat(server.isRunning()).isTrue();

    extension.afterAll(classContext);

    assertThat(server.isRunning()).isFalse();
    assertThat(server.dataDir()).doesNotExist();
    assertThatThrownBy(extension::server).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void nestedClassDoesNotCloseTheOuterServer() {
    RedisExtension extension = RedisExtension.standalone();
    ExtensionContext outer = context("[class:A]");
    ExtensionContext nested = context("[class:A]/[nested-class:B]");

    extension.beforeAll(outer);
    RedisServer server = extension.server();
    extension.beforeAll(nested);
    extension.afterAll(nested);
    assertThat(server.isRunning()).isTrue();
    extension.afterAll(outer);
    assertThat(server.isRunning()).isFalse();
  }

  @Test
  void instanceLevelServerLivesFromBeforeEachToAfterEach() {
    RedisExtension extension = RedisExtension.standalone();
    ExtensionContext methodContext = context("[class:A]/[method:m()]");

    extension.beforeEach(methodContext);
    RedisServer server = extension.server();
    assertThat(server.isRunning()).isTrue();
    extension.afterEach(methodContext);

    assertThat(server.isRunning()).isFalse();
  }

  @Test
  void withoutFlushKeepsData() {
    RedisExtension extension = RedisExtension.standalone().withoutFlush();
    ExtensionContext classContext = context("[class:A]");
    extension.beforeAll(classContext);
    try {
      extension.server().command("SET", "k", "v");
      extension.beforeEach(context("[class:A]/[method:m()]"));
      assertThat(extension.server().command("GET", "k")).isEqualTo("v");
    } finally {
      extension.afterAll(classContext);
    }
  }

  @Test
  void aServerThatFailsToStartIsClosedAndTheErrorPropagates() {
    RedisExtension extension =
        RedisExtension.of(() -> RedisServer.builder().args("--no-such-directive", "x").build());

    assertThatThrownBy(() -> extension.beforeAll(context("[class:A]")))
        .isInstanceOf(RedisServerException.class)
        .hasMessageContaining("Bad directive");
    assertThatThrownBy(extension::server).isInstanceOf(IllegalStateException.class);
  }
}
