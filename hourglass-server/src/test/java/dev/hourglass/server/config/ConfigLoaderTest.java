package dev.hourglass.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.server.auth.Role;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
  @TempDir Path dir;

  private Path yaml(String text) throws Exception {
    Path file = dir.resolve("hourglass.yaml");
    Files.writeString(file, text);
    return file;
  }

  @Test
  void defaultsAreTheEmbeddedLoopbackServer() {
    ServerConfig c = ConfigLoader.load(Map.of(), Map.of(), null);
    assertThat(c.bind()).isEqualTo("127.0.0.1");
    assertThat(c.port()).isEqualTo(8080);
    assertThat(c.redisUri()).isEmpty();
    assertThat(c.dataDir()).isEqualTo(Path.of("./data"));
    assertThat(c.tokens()).isEmpty();
    assertThat(c.logFormat()).isEqualTo("auto");
    assertThat(c.maxPayloadBytes()).isEqualTo(1024 * 1024);
    assertThat(c.limits()).isEqualTo(new Limits(4096, 2048, 512));
  }

  @Test
  void limitsAreReadAndCheckedLikeEveryNumber() {
    ServerConfig c =
        ConfigLoader.load(
            Map.of("max-connections", "100"),
            Map.of(
                "HOURGLASS_MAX_WAITING_CLAIMS",
                "50",
                "HOURGLASS_MAX_WAITING_CLAIMS_PER_CLIENT",
                "5"),
            null);
    assertThat(c.limits()).isEqualTo(new Limits(100, 50, 5));
    assertThatThrownBy(() -> ConfigLoader.load(Map.of("max-waiting-claims", "0"), Map.of(), null))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("--max-waiting-claims / HOURGLASS_MAX_WAITING_CLAIMS")
        .hasMessageContaining("between 1 and 1000000");
  }

  @Test
  void logFormatIsAutoJsonOrText() {
    assertThat(ConfigLoader.load(Map.of("log-format", "AUTO"), Map.of(), null).logFormat())
        .isEqualTo("auto");
    assertThat(
            ConfigLoader.load(Map.of(), Map.of("HOURGLASS_LOG_FORMAT", "json"), null).logFormat())
        .isEqualTo("json");
    assertThatThrownBy(() -> ConfigLoader.load(Map.of("log-format", "xml"), Map.of(), null))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("--log-format")
        .hasMessageContaining("auto, json, text");
  }

  @Test
  void aFlagWinsOverTheEnvironmentWhichWinsOverTheFile() throws Exception {
    Path file = yaml("port: 7001\nprefix: fromfile\nlog-format: text\n");
    ServerConfig c =
        ConfigLoader.load(
            Map.of("port", "7003"),
            Map.of("HOURGLASS_PORT", "7002", "HOURGLASS_PREFIX", "fromenv"),
            file);
    assertThat(c.port()).isEqualTo(7003);
    assertThat(c.prefix()).isEqualTo("fromenv");
    assertThat(c.logFormat()).isEqualTo("text");
  }

  @Test
  void tokensComeFromTheFileAndTheAdminTokenSetting() throws Exception {
    Path file =
        yaml(
            "tokens:\n"
                + "  - name: billing\n"
                + "    token: billing-token-0123456789\n"
                + "    role: producer\n"
                + "    queues: [\"billing.*\"]\n");
    ServerConfig c =
        ConfigLoader.load(
            Map.of(), Map.of("HOURGLASS_ADMIN_TOKEN", "admin-token-0123456789"), file);
    assertThat(c.tokens()).hasSize(2);
    assertThat(c.tokens().get(0).role()).isEqualTo(Role.PRODUCER);
    assertThat(c.tokens().get(0).allowsQueue("billing.eu")).isTrue();
    assertThat(c.tokens().get(0).allowsQueue("orders")).isFalse();
    assertThat(c.tokens().get(1).role()).isEqualTo(Role.ADMIN);
  }

  @Test
  void badValuesNameTheSetting() throws Exception {
    assertThatThrownBy(() -> ConfigLoader.load(Map.of("port", "http"), Map.of(), null))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("--port / HOURGLASS_PORT / port:")
        .hasMessageContaining("'http'");
    assertThatThrownBy(
            () -> ConfigLoader.load(Map.of(), Map.of("HOURGLASS_LOG_LEVEL", "loud"), null))
        .hasMessageContaining("HOURGLASS_LOG_LEVEL");
    assertThatThrownBy(() -> ConfigLoader.load(Map.of(), Map.of(), yaml("prot: 8080\n")))
        .hasMessageContaining("unknown setting 'prot'");
    assertThatThrownBy(() -> ConfigLoader.load(Map.of("redis", "http://x:1"), Map.of(), null))
        .hasMessageContaining("--redis");
    assertThatThrownBy(
            () ->
                ConfigLoader.load(
                    Map.of(), Map.of(), yaml("tokens:\n  - token: short\n    role: admin\n")))
        .hasMessageContaining("tokens[0].token")
        .hasMessageContaining("16 characters")
        .hasMessageNotContaining("short");
    assertThatThrownBy(
            () ->
                ConfigLoader.load(
                    Map.of(),
                    Map.of(),
                    yaml("tokens:\n  - token: long-enough-token-0123\n    role: root\n")))
        .hasMessageContaining("tokens[0].role");
  }

  @Test
  void aNonLoopbackBindNeedsTokensOrAnExplicitAllowance() {
    assertThatThrownBy(() -> ConfigLoader.load(Map.of("bind", "0.0.0.0"), Map.of(), null))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("--bind")
        .hasMessageContaining("--allow-unauthenticated");
    assertThat(
            ConfigLoader.load(
                    Map.of("bind", "0.0.0.0", "allow-unauthenticated", "true"), Map.of(), null)
                .allowUnauthenticated())
        .isTrue();
    assertThat(
            ConfigLoader.load(
                    Map.of("bind", "0.0.0.0", "admin-token", "admin-token-0123456789"),
                    Map.of(),
                    null)
                .tokens())
        .hasSize(1);
  }

  @Test
  void externalRedisUrisAreAccepted() {
    for (String uri :
        new String[] {
          "redis://h:6379",
          "rediss://h:6380",
          "redis-sentinel://h:26379#mymaster",
          "redis-cluster://h:7000,h:7001"
        }) {
      assertThat(ConfigLoader.load(Map.of("redis", uri), Map.of(), null).redisUri()).contains(uri);
    }
  }
}
