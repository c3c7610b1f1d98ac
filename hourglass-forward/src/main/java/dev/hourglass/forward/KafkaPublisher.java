package dev.hourglass.forward;

import dev.hourglass.Delivery;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Sends through one idempotent producer ({@code acks=all}, {@code enable.idempotence=true}, at most
 * 5 requests in flight, which keeps order), {@code delivery.timeout.ms} and {@code max.block.ms}
 * from the target's timeout. Any failure fails the job; the loop then replaces the producer.
 */
final class KafkaPublisher implements Publisher {
  private final KafkaTarget target;
  private final String queue;
  private KafkaProducer<byte[], byte[]> producer;

  KafkaPublisher(KafkaTarget target, String queue) {
    this.target = target;
    this.queue = queue;
  }

  @Override
  public void connect() throws PublishException {
    if (producer != null) {
      return;
    }
    long timeout = target.timeout().toMillis();
    Map<String, Object> config = new HashMap<>();
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, target.bootstrapServers());
    config.put(ProducerConfig.CLIENT_ID_CONFIG, "hourglass-forward-" + queue);
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    config.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
    config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    // delivery.timeout.ms must be at least linger.ms + request.timeout.ms.
    config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.max(1, timeout / 2));
    config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) timeout);
    config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeout);
    config.put(ProducerConfig.RECONNECT_BACKOFF_MS_CONFIG, 100);
    config.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000);
    try {
      producer = new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    } catch (KafkaException e) {
      throw new PublishException(ForwardFailures.kafka(e), true);
    }
  }

  @Override
  public CompletableFuture<Void> publish(Delivery<?> job) {
    CompletableFuture<Void> acked = new CompletableFuture<>();
    List<Header> headers =
        List.of(
            header("hourglass-job-id", job.id()),
            header("hourglass-queue", job.queue()),
            header("hourglass-attempt", Integer.toString(job.attempt())));
    byte[] key = target.keyById() ? job.id().getBytes(StandardCharsets.UTF_8) : null;
    ProducerRecord<byte[], byte[]> record =
        new ProducerRecord<>(target.topic(), null, key, job.payload().bytes(), headers);
    try {
      producer.send(
          record,
          (metadata, e) -> {
            if (e == null) {
              acked.complete(null);
            } else {
              acked.completeExceptionally(new PublishException(ForwardFailures.kafka(e), true));
            }
          });
    } catch (KafkaException | IllegalStateException e) {
      acked.completeExceptionally(new PublishException(ForwardFailures.kafka(e), true));
    }
    return acked;
  }

  private static Header header(String name, String value) {
    return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public void close() {
    KafkaProducer<byte[], byte[]> p = producer;
    producer = null;
    if (p != null) {
      p.close(Duration.ZERO); // fails what it still holds: those jobs are settled by the loop
    }
  }
}
