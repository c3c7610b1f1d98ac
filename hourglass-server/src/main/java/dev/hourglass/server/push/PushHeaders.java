package dev.hourglass.server.push;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hourglass.server.json.ApiException;
import dev.hourglass.server.json.Fields;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The extra headers a push delivery sends with each POST ({@code delivery.headers}), validated:
 * names are HTTP tokens, values visible ASCII on one line, at most {@value #MAX_COUNT} of them, and
 * none of the headers the connection or the server itself owns (hop-by-hop ones, {@code Host},
 * {@code Content-Length}, {@code Content-Type}, {@code Hourglass-*}).
 */
final class PushHeaders {
  static final int MAX_COUNT = 20;
  static final int MAX_NAME = 64;
  static final int MAX_VALUE = 1024;
  static final int MAX_TOTAL = 8192;

  /** Lower case; refused whatever their case. {@code Hourglass-*} is refused as a prefix. */
  static final Set<String> RESERVED =
      Set.of(
          "connection",
          "content-length",
          "content-type",
          "expect",
          "host",
          "keep-alive",
          "proxy-authenticate",
          "proxy-authorization",
          "proxy-connection",
          "te",
          "trailer",
          "transfer-encoding",
          "upgrade");

  private static final String TOKEN_SPECIALS = "!#$%&'*+-.^_`|~";

  private PushHeaders() {}

  /**
   * Reads {@code headers} from the delivery object; empty when absent.
   *
   * @throws ApiException 400 {@code invalid_field} naming the header
   */
  static Map<String, String> read(Fields delivery) {
    JsonNode node = delivery.optNode("headers").orElse(null);
    if (node == null) {
      return Map.of();
    }
    String field = delivery.name("headers");
    if (!node.isObject()) {
      throw ApiException.invalidField(field, "must be an object of header names to values");
    }
    if (node.size() > MAX_COUNT) {
      throw ApiException.invalidField(
          field, "has " + node.size() + " headers, at most " + MAX_COUNT);
    }
    Map<String, String> headers = new LinkedHashMap<>();
    Set<String> seen = new HashSet<>();
    int total = 0;
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      String name = e.getKey();
      String where = field + "." + name;
      checkName(where, name);
      String lower = name.toLowerCase(Locale.ROOT);
      if (!seen.add(lower)) {
        throw ApiException.invalidField(where, "is given twice (header names ignore case)");
      }
      JsonNode v = e.getValue();
      if (!v.isTextual()) {
        throw ApiException.invalidField(where, "must be a string");
      }
      String value = v.textValue();
      checkValue(where, value);
      total += name.length() + value.length();
      if (total > MAX_TOTAL) {
        throw ApiException.invalidField(
            field, "names and values must total at most " + MAX_TOTAL + " characters");
      }
      headers.put(name, value);
    }
    return Collections.unmodifiableMap(headers);
  }

  private static void checkName(String where, String name) {
    if (name.isEmpty() || name.length() > MAX_NAME) {
      throw ApiException.invalidField(
          where, "a header name must be 1 to " + MAX_NAME + " characters");
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean token =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || TOKEN_SPECIALS.indexOf(c) >= 0;
      if (!token) {
        throw ApiException.invalidField(
            where, "is not a valid header name (letters, digits and !#$%&'*+-.^_`|~ only)");
      }
    }
    String lower = name.toLowerCase(Locale.ROOT);
    if (RESERVED.contains(lower)) {
      throw ApiException.invalidField(where, "is set by the connection and cannot be configured");
    }
    if (lower.startsWith("hourglass-")) {
      throw ApiException.invalidField(where, "Hourglass-* headers are the server's own");
    }
  }

  private static void checkValue(String where, String value) {
    if (value.length() > MAX_VALUE) {
      throw ApiException.invalidField(where, "must be at most " + MAX_VALUE + " characters");
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (!(c == '\t' || (c >= 0x20 && c <= 0x7e))) {
        throw ApiException.invalidField(
            where, "must be printable ASCII on one line (no control characters or line breaks)");
      }
    }
    if (!value.equals(value.strip())) {
      throw ApiException.invalidField(where, "must not start or end with whitespace");
    }
  }
}
