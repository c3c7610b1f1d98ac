package dev.hourglass.forward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hourglass.JobInfo;
import dev.hourglass.Queue;
import dev.hourglass.testing.FreePorts;
import dev.hourglass.testing.RabbitMqBroker;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The forwarder against a real RabbitMQ node, started once for the class. */
class AmqpForwarderTest extends ForwarderContract {
  static RabbitMqBroker broker;

  @BeforeAll
  static void startRabbit() {
    broker = RabbitMqBroker.create();
  }

  @AfterAll
  static void stopRabbit() {
    if (broker != null) {
      broker.close();
    }
  }

  @Override
  Target target(String name) {
    return AmqpTarget.builder().uri(broker.uri()).exchange(name).routingKey("close").build();
  }

  @Override
  Sink sink(String name) throws Exception {
    return new AmqpSink(broker.uri(), name, "close");
  }

  @Override
  void stopBroker() {
    broker.stop();
  }

  @Override
  void startBroker() {
    broker.start();
  }

  private static int closedPort;

  @Override
  Target unreachable(String name) {
    closedPort = FreePorts.any();
    return AmqpTarget.builder()
        .uri("amqp://guest:guest@127.0.0.1:" + closedPort + "/%2f")
        .exchange(name)
        .build();
  }

  @Override
  String unreachableError() {
    return "connection refused: 127\\.0\\.0\\.1:" + closedPort;
  }

  @Test
  void unroutableMessageIsNackedWithTheReturnReason() throws Exception {
    AmqpSink.declareUnbound(broker.uri(), name);
    Queue<byte[]> queue = hourglass.queue(name);
    String id = queue.enqueue(queue.spec("{\"n\":1}".getBytes()).maxAttempts(1).build()).id();
    try (Forwarder f = Forwarder.start(queue, target(name))) {
      await().atMost(Duration.ofMinutes(1)).until(() -> queue.stats().dead() == 1);
    }
    JobInfo<byte[]> job = queue.get(id).orElseThrow();
    assertThat(job.lastError())
        .contains("AMQP 312 NO_ROUTE: exchange " + name + ", routing key close");
  }

  @Test
  void aHungBrokerTimesThePublishOut() throws Exception {
    Queue<byte[]> queue = hourglass.queue(name);
    AmqpTarget target =
        AmqpTarget.builder()
            .uri(broker.uri())
            .exchange(name)
            .routingKey("close")
            .timeout(Duration.ofMillis(1000))
            .build();
    try (Sink sink = sink(name);
        Forwarder f = Forwarder.start(queue, target)) {
      String first = queue.enqueue(queue.spec("{\"n\":1}".getBytes()).build()).id();
      await().atMost(Duration.ofMinutes(1)).until(() -> ids(sink).containsKey(first));
      broker.freeze(true);
      try {
        String hung = queue.enqueue(queue.spec("{\"n\":2}".getBytes()).maxAttempts(1).build()).id();
        await().atMost(Duration.ofMinutes(1)).until(() -> queue.stats().dead() == 1);
        assertThat(queue.get(hung).orElseThrow().lastError())
            .contains("timeout after 1000 ms waiting for the broker's confirm");
      } finally {
        broker.freeze(false);
      }
    }
  }

  @Test
  void missingExchangeIsNamedInTheLastError() {
    Queue<byte[]> queue = hourglass.queue(name);
    String id = queue.enqueue(queue.spec("{\"n\":1}".getBytes()).maxAttempts(1).build()).id();
    try (Forwarder f = Forwarder.start(queue, target(name))) {
      await().atMost(Duration.ofMinutes(1)).until(() -> queue.stats().dead() == 1);
    }
    assertThat(queue.get(id).orElseThrow().lastError())
        .hasValueSatisfying(e -> assertThat(e).startsWith("AMQP 404 NOT_FOUND").contains(name));
  }
}
