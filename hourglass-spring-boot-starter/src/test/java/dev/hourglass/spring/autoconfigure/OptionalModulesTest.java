package dev.hourglass.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Forwarding or the archive asked for without its module, or archive settings with the archive off,
 * fail naming the property (the tests' class path has both modules, so absence is given).
 */
class OptionalModulesTest {
  private static final HourglassQueueProperties.Forward FORWARD =
      new HourglassQueueProperties.Forward();

  @Test
  void forwardingWithoutHourglassForwardFails() {
    HourglassProperties p = new HourglassProperties();
    HourglassQueueProperties q = new HourglassQueueProperties();
    q.setForward(FORWARD);
    p.getQueues().put("orders", q);
    assertThatThrownBy(() -> OptionalModules.check(p, name -> false))
        .isInstanceOf(InvalidConfigurationPropertyValueException.class)
        .hasMessageContaining("hourglass.queues.orders.forward")
        .hasMessageContaining("dev.hourglass:hourglass-forward");
    assertThatCode(() -> OptionalModules.check(p, OptionalModules.FORWARDER::equals))
        .doesNotThrowAnyException();
  }

  @Test
  void theArchiveWithoutHourglassArchiveFails() {
    HourglassProperties p = new HourglassProperties();
    p.getArchive().setEnabled(true);
    assertThatThrownBy(() -> OptionalModules.check(p, name -> false))
        .hasMessageContaining("hourglass.archive.enabled")
        .hasMessageContaining("dev.hourglass:hourglass-archive");
  }

  @Test
  void archiveSettingsWithTheArchiveOffFail() {
    HourglassProperties p = new HourglassProperties();
    p.getArchive().setPassword("s3cret");
    assertThatThrownBy(() -> OptionalModules.check(p, name -> true))
        .hasMessageContaining("hourglass.archive.password")
        .hasMessageNotContaining("s3cret");
  }
}
