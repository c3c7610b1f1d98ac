package dev.hourglass.server.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hourglass.Backoff;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.server.json.BackoffJson;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The {@code --backoff} option: reads {@code fixed:5s}, {@code exponential:1s:1h} (base:max) or
 * {@code schedule:15s,3m,10m}, checks it by the core's {@link Backoff} rules and writes it as the
 * HTTP API's backoff object.
 */
public final class BackoffSpec implements ITypeConverter<Backoff> {
  static final String FORMS = "fixed:5s, exponential:1s:1h (base:max) or schedule:15s,3m,10m";

  /**
   * Parses one backoff spec.
   *
   * @param spec {@code fixed:5s}, {@code exponential:1s:1h} or {@code schedule:15s,3m,10m}
   * @return the backoff, checked by the core's rules
   * @throws IllegalArgumentException saying what is wrong when {@code spec} is not a valid backoff
   */
  public static Backoff parse(String spec) {
    String[] parts = (spec == null ? "" : spec.trim()).split(":", -1);
    String type = parts[0].toLowerCase(Locale.ROOT);
    try {
      if (type.equals("fixed") && parts.length == 2) {
        return Backoff.fixed(DurationParser.parse(parts[1]));
      }
      if (type.equals("exponential") && parts.length == 3) {
        return Backoff.exponential(DurationParser.parse(parts[1]), DurationParser.parse(parts[2]));
      }
      if (type.equals("schedule") && parts.length == 2) {
        return Backoff.schedule(delays(parts[1]));
      }
    } catch (InvalidArgumentException e) {
      throw new IllegalArgumentException("'" + spec + "': " + e.getMessage(), e);
    }
    throw new IllegalArgumentException("'" + spec + "' is not a backoff like " + FORMS);
  }

  /**
   * The backoff as API.md writes it, e.g. {@code {"type":"fixed","delayMs":5000}}. Without a jitter
   * field: the CLI's forms have none, so the server's default applies.
   *
   * @param backoff a parsed backoff
   * @return its JSON object
   */
  public static ObjectNode toJson(Backoff backoff) {
    ObjectNode json = BackoffJson.write(backoff);
    json.remove("jitter");
    return json;
  }

  /** Parses for picocli, so a bad spec is a usage error naming the option. */
  @Override
  public Backoff convert(String spec) {
    try {
      return parse(spec);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage());
    }
  }

  private static List<Duration> delays(String list) {
    List<Duration> delays = new ArrayList<>();
    for (String delay : list.split(",", -1)) {
      delays.add(DurationParser.parse(delay));
    }
    return delays;
  }
}
