package dev.hourglass.server.cli;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads a point in time written as ISO-8601 with a zone offset ({@code 2026-11-21T10:00:00Z},
 * {@code 2026-11-21T12:00:00+02:00}) or as epoch milliseconds ({@code 1795255200000}).
 */
public final class InstantParser implements ITypeConverter<Instant> {

  /**
   * Parses one point in time.
   *
   * @param text epoch milliseconds, or an ISO-8601 date-time with an offset
   * @return the instant
   * @throws IllegalArgumentException saying what a time looks like when {@code text} is not one
   */
  public static Instant parse(String text) {
    String trimmed = text == null ? "" : text.trim();
    try {
      if (trimmed.matches("\\d{1,15}")) {
        return Instant.ofEpochMilli(Long.parseLong(trimmed));
      }
      return OffsetDateTime.parse(trimmed).toInstant();
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "'"
              + text
              + "' is not a time like 2026-11-21T10:00:00Z, 2026-11-21T12:00:00+02:00"
              + " or epoch milliseconds",
          e);
    }
  }

  /** Parses for picocli, so a bad time is a usage error naming the option. */
  @Override
  public Instant convert(String text) {
    try {
      return parse(text);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage());
    }
  }
}
