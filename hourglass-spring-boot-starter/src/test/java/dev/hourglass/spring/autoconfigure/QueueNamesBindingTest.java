package dev.hourglass.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** Queue names under {@code hourglass.queues} as SPRING.md says to write them. */
class QueueNamesBindingTest {
  @Test
  void namesWithDotsOrUnderscoresGoInBracketsAndCapitalsStay() {
    Map<String, String> values =
        Map.of(
            "hourglass.queues[orders.v2].forward.kafka.topic", "a",
            "hourglass.queues[late_fees].forward.kafka.topic", "b",
            "hourglass.queues.Reminders.forward.kafka.topic", "c");
    HourglassProperties p =
        new Binder(new MapConfigurationPropertySource(values))
            .bind("hourglass", Bindable.of(HourglassProperties.class))
            .get();
    assertThat(p.getQueues()).containsOnlyKeys("orders.v2", "late_fees", "Reminders");
    assertThat(p.getQueues().get("orders.v2").getForward().getKafka().getTopic()).isEqualTo("a");
    assertThat(p.getQueues().get("orders.v2").getForward().getAmqp()).isNull();
  }
}
