package dev.hourglass.server.cli;

import java.util.ArrayList;
import java.util.List;

/** A plain-text table: a header row, then rows, columns padded to their widest cell. */
final class TextTable {
  private final List<List<String>> rows = new ArrayList<>();

  TextTable(String... headers) {
    rows.add(List.of(headers));
  }

  TextTable row(Object... cells) {
    List<String> row = new ArrayList<>();
    for (Object cell : cells) {
      row.add(cell == null ? "" : String.valueOf(cell));
    }
    rows.add(row);
    return this;
  }

  /** The table, one line per row, without a final line end or trailing spaces. */
  String render() {
    int[] widths = new int[rows.get(0).size()];
    for (List<String> row : rows) {
      for (int c = 0; c < widths.length; c++) {
        widths[c] = Math.max(widths[c], row.get(c).length());
      }
    }
    List<String> lines = new ArrayList<>();
    for (List<String> row : rows) {
      StringBuilder line = new StringBuilder();
      for (int c = 0; c < widths.length; c++) {
        line.append(String.format("%-" + widths[c] + "s", row.get(c))).append("  ");
      }
      lines.add(line.toString().stripTrailing());
    }
    return String.join(System.lineSeparator(), lines);
  }
}
