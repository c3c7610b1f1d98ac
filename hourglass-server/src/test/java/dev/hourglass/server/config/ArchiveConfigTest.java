package dev.hourglass.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code archive-*} settings: off by default, checked, and the password never shown. */
class ArchiveConfigTest {
  @TempDir Path dir;

  @Test
  void noArchiveByDefault() {
    assertThat(ConfigLoader.load(Map.of(), Map.of(), null).archive()).isEmpty();
  }

  @Test
  void theArchiveComesFromTheFileTheEnvironmentAndFlags() throws Exception {
    Path file = dir.resolve("hourglass.yaml");
    Files.writeString(
        file,
        "archive-url: jdbc:postgresql://db:5432/app\n"
            + "archive-user: app\n"
            + "archive-retention-days: 7\n");
    ServerConfig c =
        ConfigLoader.load(
            Map.of("archive-outbox-max", "500"),
            Map.of("HOURGLASS_ARCHIVE_PASSWORD", "s3cret-pass"),
            file);
    ArchiveConfig a = c.archive().orElseThrow();
    assertThat(a.url()).isEqualTo("jdbc:postgresql://db:5432/app");
    assertThat(a.user()).contains("app");
    assertThat(a.password()).contains("s3cret-pass");
    assertThat(a.retention()).isEqualTo(Duration.ofDays(7));
    assertThat(a.outboxMax()).isEqualTo(500);
    assertThat(a.toString()).doesNotContain("s3cret-pass");
    assertThat(c.toString()).doesNotContain("s3cret-pass");
  }

  @Test
  void badArchiveSettingsAreRefusedWithoutShowingThePassword() {
    assertThatThrownBy(
            () -> ConfigLoader.load(Map.of("archive-url", "postgres://db/app"), Map.of(), null))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("--archive-url")
        .hasMessageContaining("jdbc:postgresql://");
    assertThatThrownBy(
            () ->
                ConfigLoader.load(
                    Map.of("archive-url", "mysql://db/app?password=hunter22"), Map.of(), null))
        .isInstanceOf(ConfigException.class)
        .hasMessageNotContaining("hunter22");
    assertThatThrownBy(
            () ->
                ConfigLoader.load(
                    Map.of(
                        "archive-url", "jdbc:postgresql://db/app", "archive-retention-days", "0"),
                    Map.of(),
                    null))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("--archive-retention-days");
    assertThatThrownBy(() -> ConfigLoader.load(Map.of("archive-password", "x"), Map.of(), null))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("without --archive-url");
  }

  @Test
  void anUnknownArchiveKeyInTheFileIsAnError() throws Exception {
    Path file = dir.resolve("hourglass.yaml");
    Files.writeString(file, "archive-pasword: x\n");
    assertThatThrownBy(() -> ConfigLoader.load(Map.of(), Map.of(), file))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("unknown setting 'archive-pasword'");
  }
}
