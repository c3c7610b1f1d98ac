package dev.hourglass.forward;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads a one-partition topic from its start. Arrival time is the record's timestamp (CreateTime:
 * set by the producer when it sent the record, so the broker had it no earlier).
 */
final class KafkaSink implements Sink {
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final List<Arrival> arrivals = new ArrayList<>();
  private final Thread poller;
  private volatile boolean closed;

  KafkaSink(String bootstrap, String topic) throws Exception {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
      admin.createTopics(Set.of(new NewTopic(topic, Optional.of(1), Optional.empty()))).all().get();
    }
    consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed"),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer());
    TopicPartition p = new TopicPartition(topic, 0);
    consumer.assign(List.of(p));
    consumer.seekToBeginning(List.of(p));
    poller = new Thread(this::poll, "kafka-sink-" + topic);
    poller.start();
  }

  private void poll() {
    try {
      while (!closed) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          Arrival a =
              new Arrival(
                  header(r, "hourglass-job-id"),
                  header(r, "hourglass-queue"),
                  Integer.parseInt(header(r, "hourglass-attempt")),
                  r.timestamp(),
                  new String(r.value(), StandardCharsets.UTF_8));
          synchronized (this) {
            arrivals.add(a);
          }
        }
      }
    } catch (WakeupException e) {
      // closing
    } finally {
      consumer.close();
    }
  }

  static String header(ConsumerRecord<byte[], byte[]> r, String name) {
    Header h = r.headers().lastHeader(name);
    return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
  }

  @Override
  public synchronized List<Arrival> arrivals() {
    return List.copyOf(arrivals);
  }

  @Override
  public void reconnect() {}

  @Override
  public void close() throws Exception {
    closed = true;
    consumer.wakeup();
    poller.join();
  }
}
