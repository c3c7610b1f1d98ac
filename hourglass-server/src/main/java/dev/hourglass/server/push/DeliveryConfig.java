package dev.hourglass.server.push;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hourglass.server.http.ApiException;
import dev.hourglass.server.http.Fields;
import dev.hourglass.server.http.JsonIn;
import dev.hourglass.server.http.JsonOut;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * How a queue's jobs reach consumers: {@code pull} (consumers claim over the API; the default) or
 * {@code http} (the server POSTs each due job to {@code url}). Stored as JSON in the queue's
 * settings attribute {@value #ATTRIBUTE}, so every server instance on the same Redis sees it.
 */
public record DeliveryConfig(String type, URI url, long timeoutMs, int concurrency) {
  public static final String ATTRIBUTE = "delivery";
  public static final DeliveryConfig PULL = new DeliveryConfig("pull", null, 0, 0);
  public static final long DEFAULT_TIMEOUT_MS = 10_000;
  public static final int DEFAULT_CONCURRENCY = 16;

  public boolean push() {
    return "http".equals(type);
  }

  /**
   * From the API's {@code delivery} object.
   *
   * @throws ApiException 400 naming the field
   */
  public static DeliveryConfig read(Fields f) {
    String type = f.text("type", 10);
    if ("pull".equals(type)) {
      f.only("type");
      return PULL;
    }
    if (!"http".equals(type)) {
      throw f.invalid("type", "must be http or pull");
    }
    f.only("type", "url", "timeoutMs", "concurrency");
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
    return new DeliveryConfig("http", uri, timeout, concurrency);
  }

  public ObjectNode toJson() {
    ObjectNode o = JsonOut.object().put("type", type);
    if (push()) {
      o.put("url", url.toString()).put("timeoutMs", timeoutMs).put("concurrency", concurrency);
    }
    return o;
  }

  public String toAttribute() {
    return new String(JsonOut.bytes(toJson()), StandardCharsets.UTF_8);
  }

  /** From the stored attribute; {@link #PULL} when absent or unreadable. */
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
