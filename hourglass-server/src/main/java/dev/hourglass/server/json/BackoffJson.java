package dev.hourglass.server.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hourglass.Backoff;
import dev.hourglass.InvalidArgumentException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Backoff policies in the API's JSON: {@code {"type":"fixed","delayMs"}}, {@code
 * {"type":"exponential","baseMs","maxMs","jitter"?}} (jitter 0..1, default 0.2) and {@code
 * {"type":"schedule","delaysMs":[...]}}.
 */
public final class BackoffJson {
  /** Jitter of an exponential backoff that does not give one, as the queue default has. */
  public static final double DEFAULT_JITTER = 0.2;

  private static final long MAX_MS = Backoff.MAX_DELAY.toMillis();

  private BackoffJson() {}

  /**
   * Reads a backoff object: {@code fixed}, {@code exponential} or {@code schedule}, each with only
   * its own fields.
   *
   * @param f the backoff object's fields
   * @return the backoff
   * @throws ApiException 400 naming the field that is missing, unknown or out of range
   */
  public static Backoff read(Fields f) {
    String type = f.text("type", 20);
    switch (type) {
      case "fixed" -> f.only("type", "delayMs");
      case "exponential" -> f.only("type", "baseMs", "maxMs", "jitter");
      case "schedule" -> f.only("type", "delaysMs");
      default -> {} // refused below
    }
    try {
      return switch (type) {
        case "fixed" -> Backoff.fixed(Duration.ofMillis(required(f, "delayMs")));
        case "exponential" ->
            Backoff.exponential(
                Duration.ofMillis(required(f, "baseMs")),
                Duration.ofMillis(required(f, "maxMs")),
                jitter(f));
        case "schedule" -> Backoff.schedule(delays(f));
        default -> throw f.invalid("type", "must be fixed, exponential or schedule");
      };
    } catch (InvalidArgumentException e) {
      throw f.invalid(apiField(e.field()), e.reason());
    }
  }

  /**
   * The request's name of a field the library names in its error: the library says {@code
   * backoff.max} where the request said {@code maxMs} (and {@code f} already adds the {@code
   * backoff.} prefix).
   */
  private static String apiField(String libraryField) {
    String name = libraryField.replaceFirst("^backoff\\.", "");
    return switch (name) {
      case "base" -> "baseMs";
      case "max" -> "maxMs";
      case "delay" -> "delayMs";
      default -> name.replaceFirst("^delays", "delaysMs");
    };
  }

  private static long required(Fields f, String field) {
    return f.optLong(field, 0, MAX_MS).orElseThrow(() -> f.invalid(field, "is required"));
  }

  private static double jitter(Fields f) {
    return f.optNode("jitter")
        .map(
            n -> {
              if (!n.isNumber() || n.asDouble() < 0 || n.asDouble() > 1) {
                throw f.invalid("jitter", "must be a number between 0 and 1");
              }
              return n.asDouble();
            })
        .orElse(DEFAULT_JITTER);
  }

  private static List<Duration> delays(Fields f) {
    JsonNode array = f.optNode("delaysMs").orElseThrow(() -> f.invalid("delaysMs", "is required"));
    if (!array.isArray() || array.isEmpty() || array.size() > Backoff.MAX_SCHEDULE_STEPS) {
      throw f.invalid(
          "delaysMs",
          "must be an array of 1 to " + Backoff.MAX_SCHEDULE_STEPS + " delays in milliseconds");
    }
    List<Duration> out = new ArrayList<>();
    for (JsonNode d : array) {
      if (!d.isIntegralNumber() || !d.canConvertToLong() || d.asLong() < 0 || d.asLong() > MAX_MS) {
        throw f.invalid("delaysMs", "each delay must be an integer between 0 and " + MAX_MS);
      }
      out.add(Duration.ofMillis(d.asLong()));
    }
    return out;
  }

  /**
   * Writes a backoff as the API gives it.
   *
   * @param backoff a job's or queue's backoff
   * @return its JSON object
   */
  public static ObjectNode write(Backoff backoff) {
    ObjectNode o = JsonIn.MAPPER.createObjectNode();
    if (backoff instanceof Backoff.Fixed fixed) {
      o.put("type", "fixed").put("delayMs", fixed.delay().toMillis());
    } else if (backoff instanceof Backoff.Exponential exp) {
      o.put("type", "exponential")
          .put("baseMs", exp.base().toMillis())
          .put("maxMs", exp.max().toMillis())
          .put("jitter", exp.jitter());
    } else {
      o.put("type", "schedule");
      ArrayNode delays = o.putArray("delaysMs");
      ((Backoff.Schedule) backoff).delays().forEach(d -> delays.add(d.toMillis()));
    }
    return o;
  }
}
