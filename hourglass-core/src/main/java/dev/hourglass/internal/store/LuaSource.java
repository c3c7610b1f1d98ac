package dev.hourglass.internal.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text of one Lua script as Redis runs it: its file with every {@code --- @include "name"} line
 * replaced by {@code includes/name.lua} (itself resolved the same way, each include at most once
 * per script), and a map from each line of that text back to its file and line, so that the line
 * numbers in a Redis error name the right file.
 */
public final class LuaSource {
  static final String RESOURCE_DIR = "/dev/hourglass/lua/";
  private static final Pattern INCLUDE = Pattern.compile("^--- @include \"([a-z_]+)\"\\s*$");
  // Redis 6.2 writes "@user_script:12:" and "user_script:12:", 7.x also "@user_script: 12:".
  private static final Pattern SCRIPT_LINE = Pattern.compile("@?user_script: ?(\\d+)");

  private final String text;
  private final List<String> origins = new ArrayList<>(); // per line of text: "file:line"

  private LuaSource(String file) {
    StringBuilder out = new StringBuilder();
    append(file, out, new HashSet<>());
    this.text = out.toString();
  }

  /** The script {@code file} (relative to the Lua resource folder) with its includes resolved. */
  public static LuaSource load(String file) {
    return new LuaSource(file);
  }

  public String text() {
    return text;
  }

  /** Where line {@code line} (1-based) of the composed text comes from, as {@code file:line}. */
  public String origin(int line) {
    return line >= 1 && line <= origins.size() ? origins.get(line - 1) : "line " + line;
  }

  /**
   * A Redis error message about this script with every script line number replaced by its file and
   * line, e.g. {@code user_script:212: ...} becomes {@code includes/record.lua:9: ...}.
   */
  public String locate(String message) {
    Matcher m = SCRIPT_LINE.matcher(message);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(origin(Integer.parseInt(m.group(1)))));
    }
    m.appendTail(out);
    return out.toString();
  }

  private void append(String file, StringBuilder out, Set<String> included) {
    String[] lines = read(file).split("\n", -1);
    int count =
        lines.length > 0 && lines[lines.length - 1].isEmpty() ? lines.length - 1 : lines.length;
    for (int i = 0; i < count; i++) {
      Matcher include = INCLUDE.matcher(lines[i]);
      if (include.matches()) {
        String name = "includes/" + include.group(1) + ".lua";
        if (included.add(name)) {
          append(name, out, included);
        }
        continue;
      }
      out.append(lines[i]).append('\n');
      origins.add(file + ":" + (i + 1));
    }
  }

  private static String read(String file) {
    try (InputStream in = LuaSource.class.getResourceAsStream(RESOURCE_DIR + file)) {
      if (in == null) {
        throw new IllegalStateException("Lua script missing from the jar: " + RESOURCE_DIR + file);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read Lua script " + file, e);
    }
  }
}
