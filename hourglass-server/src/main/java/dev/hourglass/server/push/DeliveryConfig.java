package dev.hourglass.server.push;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hourglass.forward.ForwarderOptions;
import dev.hourglass.forward.Target;
import dev.hourglass.server.json.ApiException;
import dev.hourglass.server.json.Fields;
import dev.hourglass.server.json.JsonIn;
import dev.hourglass.server.json.JsonOut;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * How a queue's jobs reach consumers: {@code pull} (consumers claim over the API; the default),
 * {@code http} (the server POSTs each due job to {@code url}), or {@code amqp} / {@code kafka} (the
 * server forwards each due job to a broker, {@link ForwardSettings}). Stored as JSON in the queue's
 * settings attribute {@value #ATTRIBUTE}, so every server instance on the same Redis sees it.
 *
 * <p>An {@code http} delivery may add {@code headers} to each POST and sign it with a {@code
 * secret} ({@link Signatures}). The secret is stored with the setting (the pusher needs it) but is
 * shown as {@value #MASK} by {@link #toJson()} and {@link #toString()}; a PUT that sends {@value
 * #MASK} back keeps the stored one.
 *
 * @param headers extra headers for each POST, in the order given; empty when none
 * @param secret the HMAC key of the {@code Hourglass-Signature} header, or null to send none
 * @param target the broker of an {@code amqp} or {@code kafka} delivery, else null
 */
public record DeliveryConfig(
    String type,
    URI url,
    long timeoutMs,
    int concurrency,
    Map<String, String> headers,
    String secret,
    Target target) {
  /** The queue settings attribute that holds the setting. */
  public static final String ATTRIBUTE = "delivery";

  /** What the API shows in place of a secret or a broker password. */
  public static final String MASK = "***";

  /** The longest {@code secret} accepted, in characters. */
  public static final int MAX_SECRET = 1024;

  /** Consumers claim over the API: the default. */
  public static final DeliveryConfig PULL =
      new DeliveryConfig("pull", null, 0, 0, Map.of(), null, null);

  /** An {@code http} delivery's POST timeout when the setting gives none. */
  public static final long DEFAULT_TIMEOUT_MS = 10_000;

  /** An {@code http} delivery's POSTs in flight at most when the setting gives none. */
  public static final int DEFAULT_CONCURRENCY = 16;

  /**
   * A delivery setting; {@code headers} are copied, in their order.
   *
   * @param type {@code pull}, {@code http}, {@code amqp} or {@code kafka}
   * @param url the endpoint of an {@code http} delivery, else null
   * @param timeoutMs how long one POST or broker confirm may take
   * @param concurrency deliveries in flight at most
   * @param headers extra headers for each POST; null for none
   * @param secret the HMAC key of the {@code Hourglass-Signature} header, or null
   * @param target the broker of an {@code amqp} or {@code kafka} delivery, else null
   */
  public DeliveryConfig {
    headers =
        headers == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(headers));
  }

  /**
   * Whether the server POSTs the queue's due jobs to {@link #url}.
   *
   * @return true for {@code http}
   */
  public boolean push() {
    return "http".equals(type);
  }

  /**
   * Whether a forwarder publishes the queue's due jobs to {@link #target}.
   *
   * @return true for {@code amqp} and {@code kafka}
   */
  public boolean forward() {
    return target != null;
  }

  /**
   * From the API's {@code delivery} object.
   *
   * @param f the {@code delivery} object's fields
   * @return the setting
   * @throws ApiException 400 naming the field
   */
  public static DeliveryConfig read(Fields f) {
    return read(f, PULL);
  }

  /**
   * From the API's {@code delivery} object, replacing {@code current}: a {@code secret} of {@value
   * #MASK} keeps the current secret, a missing one removes it.
   *
   * @param f the {@code delivery} object's fields
   * @param current the queue's setting now
   * @return the new setting
   * @throws ApiException 400 naming the field
   */
  public static DeliveryConfig read(Fields f, DeliveryConfig current) {
    String type = f.text("type", 10);
    if ("pull".equals(type)) {
      f.only("type");
      return PULL;
    }
    if ("amqp".equals(type) || "kafka".equals(type)) {
      Target target = ForwardSettings.read(type, f, current);
      int concurrency = f.intOr("concurrency", 1, 1024, ForwarderOptions.DEFAULT_CONCURRENCY);
      return new DeliveryConfig(
          type, null, target.timeout().toMillis(), concurrency, Map.of(), null, target);
    }
    if (!"http".equals(type)) {
      throw f.invalid("type", "must be http, amqp, kafka or pull");
    }
    f.only("type", "url", "timeoutMs", "concurrency", "headers", "secret");
    String url = f.text("url", 2048);
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw f.invalid("url", "is not a valid URL");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
      throw f.invalid("url", "must be an absolute http:// or https:// URL");
    }
    long timeout = f.longOr("timeoutMs", 1, 300_000, DEFAULT_TIMEOUT_MS);
    int concurrency = f.intOr("concurrency", 1, 256, DEFAULT_CONCURRENCY);
    Map<String, String> headers = PushHeaders.read(f);
    String secret = readSecret(f, current);
    return new DeliveryConfig("http", uri, timeout, concurrency, headers, secret, null);
  }

  private static String readSecret(Fields f, DeliveryConfig current) {
    String secret = f.optText("secret", MAX_SECRET).orElse(null);
    if (secret == null) {
      return null;
    }
    if (secret.isEmpty()) {
      throw f.invalid("secret", "must not be empty (leave it out to send no signature)");
    }
    if (secret.equals(MASK)) {
      if (current.secret() == null) {
        throw f.invalid(
            "secret", "is \"" + MASK + "\", which keeps the stored secret, but the queue has none");
      }
      return current.secret();
    }
    return secret;
  }

  /**
   * The setting as the API shows it: the secret, when there is one, and a broker URI's password as
   * {@value #MASK}.
   *
   * @return the {@code delivery} object
   */
  public ObjectNode toJson() {
    return json(false);
  }

  private ObjectNode json(boolean withSecret) {
    ObjectNode o = JsonOut.object().put("type", type);
    if (forward()) {
      ForwardSettings.write(o, target, withSecret);
      o.put("concurrency", concurrency);
    }
    if (push()) {
      o.put("url", url.toString()).put("timeoutMs", timeoutMs).put("concurrency", concurrency);
      if (!headers.isEmpty()) {
        ObjectNode h = o.putObject("headers");
        headers.forEach(h::put);
      }
      if (secret != null) {
        o.put("secret", withSecret ? secret : MASK);
      }
    }
    return o;
  }

  /**
   * The setting as stored in Redis, secret included.
   *
   * @return the attribute's JSON text
   */
  public String toAttribute() {
    return new String(JsonOut.bytes(json(true)), StandardCharsets.UTF_8);
  }

  /** Never shows the secret: a record's default text would, and it may reach a log. */
  @Override
  public String toString() {
    return "DeliveryConfig" + toJson();
  }

  /**
   * From the stored attribute; {@link #PULL} when absent or unreadable.
   *
   * @param json the attribute's text, or null when the queue has none
   * @return the setting
   */
  public static DeliveryConfig fromAttribute(String json) {
    if (json == null) {
      return PULL;
    }
    try {
      JsonNode node = JsonIn.MAPPER.readTree(json);
      return node instanceof ObjectNode o ? read(Fields.of(o)) : PULL;
    } catch (java.io.IOException | ApiException e) {
      return PULL;
    }
  }
}
