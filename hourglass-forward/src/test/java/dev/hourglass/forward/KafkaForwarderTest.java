package dev.hourglass.forward;

import dev.hourglass.testing.FreePorts;
import dev.hourglass.testing.KafkaBroker;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The forwarder against an in-process Kafka broker, started once for the class. */
class KafkaForwarderTest extends ForwarderContract {
  static KafkaBroker broker;

  @BeforeAll
  static void startKafka() {
    broker = KafkaBroker.create();
  }

  @AfterAll
  static void stopKafka() {
    if (broker != null) {
      broker.close();
    }
  }

  @Override
  Target target(String name) {
    // No key: every record of the test goes to the one partition in publish order anyway.
    return KafkaTarget.builder()
        .bootstrapServers(broker.bootstrapServers())
        .topic(name)
        .keyById(false)
        .build();
  }

  @Override
  Sink sink(String name) throws Exception {
    return new KafkaSink(broker.bootstrapServers(), name);
  }

  @Override
  void stopBroker() {
    broker.stop();
  }

  @Override
  void startBroker() {
    broker.start();
  }

  @Override
  Target unreachable(String name) {
    return KafkaTarget.builder()
        .bootstrapServers("127.0.0.1:" + FreePorts.any())
        .topic(name)
        .timeout(Duration.ofMillis(500))
        .build();
  }

  @Override
  String unreachableError() {
    return "Kafka: TimeoutException: Topic fwd-\\w+ not present in metadata after 500 ms\\.";
  }
}
