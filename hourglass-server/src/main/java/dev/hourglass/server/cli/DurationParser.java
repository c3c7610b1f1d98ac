package dev.hourglass.server.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads durations written as {@code 1500ms}, {@code 30s}, {@code 5m}, {@code 2h}, {@code 1d} or
 * plain milliseconds ({@code 1500}). Negative and fractional values and other units are refused;
 * every accepted duration fits a {@code long} of milliseconds.
 */
public final class DurationParser implements ITypeConverter<Duration> {
  private static final Pattern DURATION = Pattern.compile("(\\d{1,15})(ms|s|m|h|d)?");

  /**
   * Parses one duration.
   *
   * @param text digits with an optional unit ({@code ms}, {@code s}, {@code m}, {@code h}, {@code
   *     d}); without one, milliseconds
   * @return the duration
   * @throws IllegalArgumentException saying what a duration looks like when {@code text} is not one
   */
  public static Duration parse(String text) {
    Matcher m = DURATION.matcher(text == null ? "" : text.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a duration like 1500ms, 30s, 5m, 2h, 1d or plain milliseconds");
    }
    long amount = Long.parseLong(m.group(1));
    String unit = m.group(2) == null ? "ms" : m.group(2);
    try {
      Duration duration =
          switch (unit) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofDays(amount);
          };
      duration.toMillis(); // Throws here, not in a caller, when the milliseconds overflow a long.
      return duration;
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("'" + text + "' is too long a duration", e);
    }
  }

  /** Parses for picocli, so a bad duration is a usage error naming the option. */
  @Override
  public Duration convert(String text) {
    try {
      return parse(text);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage());
    }
  }
}
