package dev.hourglass.forward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.InvalidArgumentException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class TargetsTest {
  @Test
  void amqpUriPasswordIsMaskedEverywhereItIsShown() {
    AmqpTarget t =
        AmqpTarget.builder().uri("amqp://app:s3cret@rabbit:5672/prod").exchange("orders").build();
    assertThat(t.maskedUri()).isEqualTo("amqp://app:***@rabbit:5672/prod");
    assertThat(t.toString()).doesNotContain("s3cret").contains("amqp://app:***@rabbit:5672/prod");
    assertThat(t.address()).isEqualTo("rabbit:5672");
  }

  @Test
  void badArgumentsAreRefusedAtOnceNamingTheField() {
    assertThatThrownBy(() -> AmqpTarget.builder().uri("http://x/").exchange("e").build())
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageStartingWith("uri: ");
    assertThatThrownBy(() -> AmqpTarget.builder().uri("amqp://u:pw@h:1/%2f").build())
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageStartingWith("exchange: ");
    assertThatThrownBy(() -> AmqpTarget.builder().uri("amqp://u:pw@ h/").exchange("e"))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageNotContaining("pw");
    assertThatThrownBy(() -> KafkaTarget.builder().bootstrapServers("nohostport"))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageStartingWith("bootstrapServers: ");
    assertThatThrownBy(() -> KafkaTarget.builder().bootstrapServers("h:9092").topic("a b"))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageStartingWith("topic: ");
    assertThatThrownBy(() -> KafkaTarget.builder().timeout(Duration.ZERO))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageStartingWith("timeout: ");
    assertThatThrownBy(() -> ForwarderOptions.builder().concurrency(0).build())
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageStartingWith("concurrency: ");
    assertThatThrownBy(() -> Forwarder.start(null, null))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageStartingWith("queue: ");
  }
}
