package dev.hourglass.server.push;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.forward.AmqpTarget;
import dev.hourglass.forward.KafkaTarget;
import dev.hourglass.forward.Target;
import dev.hourglass.server.json.ApiException;
import dev.hourglass.server.json.Fields;
import java.net.URI;
import java.time.Duration;

/**
 * The {@code amqp} and {@code kafka} delivery types (API.md "Forwarding to a broker"): read from
 * the API's {@code delivery} object into a {@link Target}, and written back. An AMQP URI's password
 * is shown as {@value DeliveryConfig#MASK}; a PUT that sends the masked URI back keeps the stored
 * password.
 */
final class ForwardSettings {
  private ForwardSettings() {}

  /**
   * @throws ApiException 400 naming the field
   */
  static Target read(String type, Fields f, DeliveryConfig current) {
    if ("amqp".equals(type)) {
      f.only("type", "uri", "exchange", "routingKey", "concurrency", "timeoutMs");
    } else {
      f.only("type", "bootstrapServers", "topic", "key", "concurrency", "timeoutMs");
    }
    long timeoutMs = f.longOr("timeoutMs", 1, 300_000, DeliveryConfig.DEFAULT_TIMEOUT_MS);
    try {
      if ("amqp".equals(type)) {
        String uri = withStoredPassword(f, f.text("uri", 2048), current);
        return AmqpTarget.builder()
            .uri(uri)
            .exchange(f.text("exchange", 255))
            .routingKey(f.optText("routingKey", 255).orElse(""))
            .timeout(Duration.ofMillis(timeoutMs))
            .build();
      }
      String key = f.optText("key", 10).orElse("id");
      if (!key.equals("id") && !key.equals("none")) {
        throw f.invalid("key", "must be id or none");
      }
      return KafkaTarget.builder()
          .bootstrapServers(f.text("bootstrapServers", 2048))
          .topic(f.text("topic", 249))
          .keyById(key.equals("id"))
          .timeout(Duration.ofMillis(timeoutMs))
          .build();
    } catch (InvalidArgumentException e) {
      throw f.invalid(e.field().equals("timeout") ? "timeoutMs" : e.field(), e.reason());
    }
  }

  /** A URI whose password is the mask takes the stored URI's password. */
  private static String withStoredPassword(Fields f, String uri, DeliveryConfig current) {
    String masked = ":" + DeliveryConfig.MASK + "@";
    if (!uri.contains(masked)) {
      return uri;
    }
    String stored = null;
    if (current.target() instanceof AmqpTarget a) {
      String info = a.uri().getRawUserInfo();
      int colon = info == null ? -1 : info.indexOf(':');
      stored = colon < 0 ? null : info.substring(colon + 1);
    }
    if (stored == null) {
      throw f.invalid(
          "uri",
          "has the password \""
              + DeliveryConfig.MASK
              + "\", which keeps the stored one, but the queue has none");
    }
    int at = uri.indexOf(masked);
    return uri.substring(0, at + 1) + stored + uri.substring(at + masked.length() - 1);
  }

  /** Adds the target's fields to the delivery object, the password masked unless {@code raw}. */
  static void write(ObjectNode o, Target target, boolean raw) {
    if (target instanceof AmqpTarget a) {
      URI uri = a.uri();
      o.put("uri", raw ? uri.toString() : a.maskedUri())
          .put("exchange", a.exchange())
          .put("routingKey", a.routingKey());
    } else if (target instanceof KafkaTarget k) {
      o.put("bootstrapServers", k.bootstrapServers())
          .put("topic", k.topic())
          .put("key", k.keyById() ? "id" : "none");
    }
    o.put("timeoutMs", target.timeout().toMillis());
  }
}
