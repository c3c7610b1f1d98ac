package dev.hourglass.internal.store;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Collects the KEYS or ARGV of one script call as byte arrays. */
final class Args {
  private final List<byte[]> items = new ArrayList<>();

  Args add(String s) {
    items.add(s.getBytes(StandardCharsets.UTF_8));
    return this;
  }

  Args add(long n) {
    return add(Long.toString(n));
  }

  Args add(byte[] b) {
    items.add(b);
    return this;
  }

  Args addAll(String... strings) {
    for (String s : strings) {
      add(s);
    }
    return this;
  }

  Args addAll(List<String> strings) {
    Collections.addAll(
        items,
        strings.stream().map(s -> s.getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new));
    return this;
  }

  byte[][] toArray() {
    return items.toArray(new byte[0][]);
  }
}
