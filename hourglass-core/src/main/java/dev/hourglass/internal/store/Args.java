package dev.hourglass.internal.store;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Collects the KEYS or ARGV of one script call as byte arrays. Numbers are written as their decimal
 * ASCII digits directly, and a partition's keys come already encoded ({@link Partition}), so that a
 * call's arguments are encoded once, with no String in between.
 */
final class Args {
  private byte[][] items;
  private int size;

  Args() {
    this(16);
  }

  /** Room for {@code expected} items before the array grows. */
  Args(int expected) {
    items = new byte[Math.max(4, expected)][];
  }

  Args add(String s) {
    return add(s.getBytes(StandardCharsets.UTF_8));
  }

  Args add(long n) {
    return add(digits(n));
  }

  Args add(byte[] b) {
    if (size == items.length) {
      items = Arrays.copyOf(items, size * 2);
    }
    items[size++] = b;
    return this;
  }

  Args addAll(String... strings) {
    for (String s : strings) {
      add(s);
    }
    return this;
  }

  Args addAll(List<String> strings) {
    for (String s : strings) {
      add(s);
    }
    return this;
  }

  /** Adds items already encoded (shared: never written to). */
  Args addAll(byte[][] encoded) {
    if (size + encoded.length > items.length) {
      items = Arrays.copyOf(items, Math.max(size * 2, size + encoded.length + 8));
    }
    System.arraycopy(encoded, 0, items, size, encoded.length);
    size += encoded.length;
    return this;
  }

  byte[][] toArray() {
    return size == items.length ? items : Arrays.copyOf(items, size);
  }

  /** The decimal digits of {@code n}, as {@link Long#toString(long)} writes them, in ASCII. */
  static byte[] digits(long n) {
    if (n >= 0 && n < 10) {
      return SMALL[(int) n];
    }
    if (n == Long.MIN_VALUE) {
      return Long.toString(n).getBytes(StandardCharsets.US_ASCII);
    }
    long v = Math.abs(n);
    int len = n < 0 ? 1 : 0;
    for (long t = v; t > 0; t /= 10) {
      len++;
    }
    byte[] out = new byte[len];
    for (int i = len - 1; v > 0; i--, v /= 10) {
      out[i] = (byte) ('0' + (int) (v % 10));
    }
    if (n < 0) {
      out[0] = '-';
    }
    return out;
  }

  /** The digits 0 to 9, shared (never written to). */
  private static final byte[][] SMALL = new byte[10][];

  static {
    for (int i = 0; i < SMALL.length; i++) {
      SMALL[i] = new byte[] {(byte) ('0' + i)};
    }
  }
}
