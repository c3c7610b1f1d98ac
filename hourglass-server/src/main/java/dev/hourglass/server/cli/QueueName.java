package dev.hourglass.server.cli;

import dev.hourglass.server.json.ApiException;
import dev.hourglass.server.json.QueueNames;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads a QUEUE argument with the server's own check ({@link QueueNames#check}), so a name the
 * server would refuse (400 {@code invalid_queue_name}) is a usage error before any request.
 */
public final class QueueName implements ITypeConverter<String> {
  @Override
  public String convert(String text) {
    try {
      return QueueNames.check(text);
    } catch (ApiException e) {
      throw new TypeConversionException("'" + text + "' is not a queue name: " + e.getMessage());
    }
  }
}
