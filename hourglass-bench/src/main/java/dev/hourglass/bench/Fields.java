package dev.hourglass.bench;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code key=value} pairs of one RESULT or RATIO line, in insertion order. Numbers are kept
 * unformatted as well, for ratios. Values never contain whitespace, so a line splits on spaces.
 */
final class Fields {
  private final Map<String, String> text = new LinkedHashMap<>();
  private final Map<String, Double> numbers = new HashMap<>();

  Fields put(String key, long value) {
    numbers.put(key, (double) value);
    return text(key, Long.toString(value));
  }

  /** A rate or other large figure, printed without decimals. */
  Fields rate(String key, double value) {
    numbers.put(key, value);
    return text(key, String.format(Locale.ROOT, "%.0f", value));
  }

  /** A figure printed with two decimals. */
  Fields put(String key, double value) {
    numbers.put(key, value);
    return text(key, String.format(Locale.ROOT, "%.2f", value));
  }

  Fields put(String key, boolean value) {
    return text(key, Boolean.toString(value));
  }

  Fields put(String key, String value) {
    return text(key, value);
  }

  /** Copies every field of {@code other}, each key prefixed with {@code prefix}. */
  Fields putAll(String prefix, Fields other) {
    other.text.forEach((k, v) -> text.put(prefix + k, v));
    other.numbers.forEach((k, v) -> numbers.put(prefix + k, v));
    return this;
  }

  /** The fields among {@code keys} that were put, in this order. */
  Fields only(String... keys) {
    Fields f = new Fields();
    for (String key : keys) {
      if (text.containsKey(key)) {
        f.text.put(key, text.get(key));
        if (numbers.containsKey(key)) {
          f.numbers.put(key, numbers.get(key));
        }
      }
    }
    return f;
  }

  /** Whether the key was put. */
  boolean has(String key) {
    return text.containsKey(key);
  }

  /** The number stored under {@code key}. */
  double num(String key) {
    Double v = numbers.get(key);
    if (v == null) {
      throw new IllegalArgumentException("no number " + key + " in " + this);
    }
    return v;
  }

  /** The ratio {@code num / den} with two decimals, or {@code n/a} when {@code den} is 0. */
  Fields ratio(String key, double num, double den) {
    if (den == 0 || Double.isNaN(num) || Double.isNaN(den)) {
      return text(key, "n/a");
    }
    return put(key, num / den);
  }

  /** {@code redisson / hourglass} for a lateness in ms, each floored at 1 ms. */
  Fields latenessRatio(String key, double redisson, double hourglass) {
    return ratio(key, Math.max(1, redisson), Math.max(1, hourglass));
  }

  private Fields text(String key, String value) {
    if (key.isEmpty()
        || value.isEmpty()
        || (key + value).chars().anyMatch(Character::isWhitespace)) {
      throw new IllegalArgumentException("bad field '" + key + "=" + value + "'");
    }
    text.put(key, value);
    return this;
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    text.forEach((k, v) -> b.append(b.length() == 0 ? "" : " ").append(k).append('=').append(v));
    return b.toString();
  }

  /** Parses the fields of a RESULT or RATIO line (the first word is skipped). */
  static Map<String, String> parse(String line) {
    Map<String, String> map = new LinkedHashMap<>();
    String[] words = line.trim().split(" +");
    for (int i = 1; i < words.length; i++) {
      int eq = words[i].indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("not key=value: '" + words[i] + "' in " + line);
      }
      map.put(words[i].substring(0, eq), words[i].substring(eq + 1));
    }
    return map;
  }
}
