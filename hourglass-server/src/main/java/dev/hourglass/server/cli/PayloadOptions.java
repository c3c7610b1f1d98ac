package dev.hourglass.server.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * Where a job's payload comes from: {@code --payload JSON} ({@code -} for stdin), {@code
 * --payload-file FILE} or {@code --text STRING}; exactly one (a picocli exclusive group).
 */
public final class PayloadOptions {
  @Option(
      names = "--payload",
      paramLabel = "JSON",
      description = "The payload, any JSON value; '-' reads it from stdin.")
  String json;

  @Option(
      names = "--payload-file",
      paramLabel = "FILE",
      description = "Read the JSON payload from FILE.")
  Path file;

  @Option(
      names = "--text",
      paramLabel = "STRING",
      description = "Send STRING as the payload, as a JSON string.")
  String text;

  /**
   * The payload as JSON text, exactly as written so that the server keeps it byte for byte.
   *
   * @throws CommandFailure with {@link ExitCodes#USAGE} when it cannot be read or is not JSON
   */
  String read(StandardInput stdin) {
    if (text != null) {
      return Json.write(text);
    }
    String source =
        file != null ? "--payload-file " + file : json.equals("-") ? "stdin" : "--payload";
    String payload = readRaw(stdin, source);
    try {
      Json.parse(payload);
    } catch (IllegalArgumentException e) {
      throw new CommandFailure(
          ExitCodes.USAGE, "the payload of " + source + " is not valid JSON: " + e.getMessage(), e);
    }
    return payload;
  }

  private String readRaw(StandardInput stdin, String source) {
    try {
      if (file != null) {
        return Files.readString(file, StandardCharsets.UTF_8);
      }
      return json.equals("-") ? stdin.readAll() : json;
    } catch (IOException e) {
      throw new CommandFailure(ExitCodes.USAGE, "cannot read " + source + ": " + e, e);
    }
  }
}
