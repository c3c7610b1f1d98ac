package dev.hourglass.bench;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The soak's ledger, kept outside Redis: one file per writer (the producer, each consumer), one
 * record per line, fields separated by a tab, each line handed to the operating system with one
 * write as soon as it is made, so that it survives a SIGKILL of the writer (the machine itself is
 * not crashed). Records:
 *
 * <ul>
 *   <li>{@code E id dueMs ackMs}: an acknowledged enqueue
 *   <li>{@code U id dueMs} : an enqueue whose outcome is unknown or that failed (not acknowledged)
 *   <li>{@code C id ackMs removed}: an acknowledged cancel ({@code removed} true or false)
 *   <li>{@code CU id}: a cancel whose outcome is unknown
 *   <li>{@code D id receivedMs attempt consumer}: a delivery, written before the ack
 * </ul>
 *
 * A line cut short by a kill is skipped when read.
 */
final class SoakLedger implements AutoCloseable {
  private final OutputStream out;

  SoakLedger(Path file) {
    try {
      this.out = new FileOutputStream(file.toFile(), true);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the ledger " + file, e);
    }
  }

  /** Appends one record: its fields joined by tabs, then a newline, in one write. */
  synchronized void append(Object... fields) {
    StringBuilder line = new StringBuilder();
    for (Object field : fields) {
      if (line.length() > 0) {
        line.append('\t');
      }
      line.append(field);
    }
    line.append('\n');
    try {
      out.write(line.toString().getBytes(StandardCharsets.UTF_8));
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the ledger", e);
    }
  }

  @Override
  public synchronized void close() throws IOException {
    out.close();
  }

  /** The complete records of every {@code *.ledger} file in {@code dir}, as arrays of fields. */
  static List<String[]> read(Path dir) throws IOException {
    List<String[]> records = new ArrayList<>();
    try (var files = Files.list(dir)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".ledger")).sorted().toList()) {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        int end = text.lastIndexOf('\n');
        if (end < 0) {
          continue;
        }
        for (String line : text.substring(0, end).split("\n")) {
          String[] fields = line.split("\t");
          if (complete(fields)) {
            records.add(fields);
          }
        }
      }
    }
    return records;
  }

  private static boolean complete(String[] f) {
    return switch (f[0]) {
      case "E", "C" -> f.length == 4;
      case "U" -> f.length == 3;
      case "CU" -> f.length == 2;
      case "D" -> f.length == 5;
      default -> false;
    };
  }
}
