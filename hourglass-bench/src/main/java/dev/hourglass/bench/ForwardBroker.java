package dev.hourglass.bench;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import dev.hourglass.forward.AmqpTarget;
import dev.hourglass.forward.KafkaTarget;
import dev.hourglass.forward.Target;
import dev.hourglass.testing.KafkaBroker;
import dev.hourglass.testing.RabbitMqBroker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The forward workload's broker, started the way the tests start it (hourglass-testing's fixtures),
 * with one consumer that reports each message's job id and the wall clock it was received at.
 */
abstract class ForwardBroker implements AutoCloseable {
  static final String NAME = "hourglass-bench";

  static ForwardBroker start(String kind) throws Exception {
    return kind.equals("kafka") ? new Kafka() : new Amqp();
  }

  abstract String describe();

  abstract Target target();

  /** Starts consuming; {@code received} gets (job id, receive wall clock ms) on one thread. */
  abstract void consume(BiConsumer<String, Long> received) throws Exception;

  @Override
  public abstract void close() throws Exception;

  private static final class Amqp extends ForwardBroker {
    private final RabbitMqBroker broker = RabbitMqBroker.create();
    private Connection connection;

    @Override
    String describe() {
      return "RabbitMQ on port " + broker.port() + " (" + RabbitMqBroker.SERVER + ")";
    }

    @Override
    Target target() {
      return AmqpTarget.builder().uri(broker.uri()).exchange(NAME).routingKey(NAME).build();
    }

    @Override
    void consume(BiConsumer<String, Long> received) throws Exception {
      ConnectionFactory f = new ConnectionFactory();
      f.setUri(broker.uri());
      connection = f.newConnection("bench-consumer");
      Channel ch = connection.createChannel();
      ch.exchangeDeclare(NAME, "direct", true);
      ch.queueDeclare(NAME, true, false, false, null);
      ch.queueBind(NAME, NAME, NAME);
      ch.basicQos(1000);
      ch.basicConsume(
          NAME,
          false,
          new DefaultConsumer(ch) {
            @Override
            public void handleDelivery(
                String tag, Envelope envelope, AMQP.BasicProperties props, byte[] body)
                throws java.io.IOException {
              received.accept(props.getMessageId(), System.currentTimeMillis());
              getChannel().basicAck(envelope.getDeliveryTag(), false);
            }
          });
    }

    @Override
    public void close() throws Exception {
      if (connection != null) {
        connection.abort();
      }
      broker.close();
    }
  }

  private static final class Kafka extends ForwardBroker {
    private final KafkaBroker broker = KafkaBroker.create();
    private KafkaConsumer<byte[], byte[]> consumer;
    private Thread poller;
    private volatile boolean closed;

    @Override
    String describe() {
      return "Kafka (in-process KRaft) at " + broker.bootstrapServers();
    }

    @Override
    Target target() {
      return KafkaTarget.builder()
          .bootstrapServers(broker.bootstrapServers())
          .topic(NAME)
          .keyById(true)
          .build();
    }

    @Override
    void consume(BiConsumer<String, Long> received) throws Exception {
      try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
        admin
            .createTopics(Set.of(new NewTopic(NAME, Optional.of(1), Optional.empty())))
            .all()
            .get();
      }
      consumer =
          new KafkaConsumer<>(
              Map.of("bootstrap.servers", broker.bootstrapServers(), "fetch.max.wait.ms", 5),
              new ByteArrayDeserializer(),
              new ByteArrayDeserializer());
      TopicPartition p = new TopicPartition(NAME, 0);
      consumer.assign(List.of(p));
      consumer.seekToBeginning(List.of(p));
      poller =
          new Thread(
              () -> {
                try {
                  while (!closed) {
                    for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                      long now = System.currentTimeMillis();
                      received.accept(
                          new String(
                              r.headers().lastHeader("hourglass-job-id").value(),
                              StandardCharsets.UTF_8),
                          now);
                    }
                  }
                } catch (WakeupException e) {
                  // closing
                } finally {
                  consumer.close();
                }
              },
              "bench-kafka-consumer");
      poller.start();
    }

    @Override
    public void close() throws Exception {
      closed = true;
      if (consumer != null) {
        consumer.wakeup();
        poller.join();
      }
      broker.close();
    }
  }
}
