package dev.hourglass.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;

/** Reads the last lines a server wrote to a log file, for error messages. Thread-safe. */
final class LogTail {

  private static final System.Logger LOG = System.getLogger(LogTail.class.getName());
  private static final int MAX_BYTES = 64 * 1024;

  private LogTail() {}

  /** Returns the size of {@code file}, or 0 if it does not exist yet. */
  static long size(Path file) {
    try {
      return Files.exists(file) ? Files.size(file) : 0;
    } catch (IOException e) {
      // Only used to skip older log content; reading from the start is a safe fallback.
      LOG.log(Level.DEBUG, "Cannot size " + file, e);
      return 0;
    }
  }

  /**
   * Returns the last {@code maxLines} lines written to {@code file} after byte {@code fromOffset},
   * each followed by a newline, or a note saying why there are none.
   */
  static String read(Path file, long fromOffset, int maxLines) {
    if (!Files.exists(file)) {
      return "(" + file + " does not exist)\n";
    }
    try (InputStream in = Files.newInputStream(file)) {
      long size = Files.size(file);
      long start = Math.max(fromOffset, size - MAX_BYTES);
      in.skipNBytes(Math.min(start, size));
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      Deque<String> lines = new ArrayDeque<>();
      for (String line : text.split("\n")) {
        if (!line.isBlank()) {
          lines.addLast(line);
          if (lines.size() > maxLines) {
            lines.removeFirst();
          }
        }
      }
      if (lines.isEmpty()) {
        return "(" + file + " is empty)\n";
      }
      StringBuilder out = new StringBuilder();
      lines.forEach(line -> out.append(line).append('\n'));
      return out.toString();
    } catch (IOException e) {
      LOG.log(Level.WARNING, "Cannot read " + file, e);
      return "(cannot read " + file + ": " + e + ")\n";
    }
  }
}
