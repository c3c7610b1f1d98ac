package dev.hourglass.internal.store;

import java.nio.charset.StandardCharsets;
import java.util.List;

/** Reads the elements of a script reply (Redis integers arrive as Long, bulk strings as byte[]). */
final class Reply {
  private Reply() {}

  static long num(Object o) {
    if (o instanceof Long l) {
      return l;
    }
    if (o instanceof byte[] b) {
      return Long.parseLong(new String(b, StandardCharsets.US_ASCII));
    }
    throw new IllegalStateException("expected an integer in a script reply, got " + o);
  }

  static Status status(List<Object> reply) {
    return Status.of(num(reply.get(0)));
  }

  static String str(Object o) {
    if (o instanceof byte[] b) {
      return new String(b, StandardCharsets.UTF_8);
    }
    return String.valueOf(o);
  }

  static byte[] bytes(Object o) {
    if (o instanceof byte[] b) {
      return b;
    }
    throw new IllegalStateException("expected bytes in a script reply, got " + o);
  }

  @SuppressWarnings("unchecked")
  static List<Object> list(Object o) {
    return (List<Object>) o;
  }
}
