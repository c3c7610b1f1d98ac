package dev.hourglass.server.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Typed reads of request fields. Each read names the field in its error, with {@code prefix} for
 * nested fields (e.g. {@code jobs[3].} or {@code defaults.}); JSON types are strict: an integer
 * field takes only a JSON integer.
 */
public final class Fields {
  private final ObjectNode node;
  private final String prefix;

  /**
   * Reads of a nested object's fields.
   *
   * @param node the object
   * @param prefix what its field names are prefixed with in errors, e.g. {@code jobs[3].}
   */
  public Fields(ObjectNode node, String prefix) {
    this.node = node;
    this.prefix = prefix;
  }

  /**
   * Reads of a request body's top-level fields.
   *
   * @param node the body
   * @return the reads, naming fields without a prefix
   */
  public static Fields of(ObjectNode node) {
    return new Fields(node, "");
  }

  /**
   * Refuses a field this request does not define: a typo must never run a job with default
   * settings. 400 {@code invalid_field}: {@code unknown field "delay"; did you mean "delayMs"?}.
   *
   * @param allowed every field the request defines
   * @return these reads, for chaining
   * @throws ApiException 400 {@code invalid_field} on the first unknown field
   */
  public Fields only(String... allowed) {
    Iterator<String> names = node.fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      if (!List.of(allowed).contains(name)) {
        throw unknown(prefix + name, name, List.of(allowed));
      }
    }
    return this;
  }

  /**
   * The error for an unknown field, suggesting the closest allowed name when one is close.
   *
   * @param fullName the field's name with its prefix, as the error shows it
   * @param name the field's own name, compared with the allowed ones
   * @param allowed the fields the request defines
   * @return 400 {@code invalid_field}
   */
  public static ApiException unknown(String fullName, String name, List<String> allowed) {
    String closest = null;
    int best = Integer.MAX_VALUE;
    for (String candidate : allowed) {
      int d = distance(name.toLowerCase(Locale.ROOT), candidate.toLowerCase(Locale.ROOT));
      if (d < best) {
        best = d;
        closest = candidate;
      }
    }
    boolean close =
        closest != null
            && (best <= Math.max(2, closest.length() / 3)
                || closest.toLowerCase(Locale.ROOT).startsWith(name.toLowerCase(Locale.ROOT)));
    return new ApiException(
        400,
        "invalid_field",
        "unknown field \""
            + fullName
            + "\""
            + (close
                ? "; did you mean \"" + closest + "\"?"
                : allowed.isEmpty()
                    ? "; this request takes no fields"
                    : "; known fields: " + allowed));
  }

  /** Edit distance, ignoring '_' and '-' (so {@code delay_ms} is next to {@code delayMs}). */
  private static int distance(String a, String b) {
    a = a.replace("_", "").replace("-", "");
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }

  /**
   * Whether the body names the field at all, null included.
   *
   * @param field the field's name
   * @return true when present
   */
  public boolean present(String field) {
    return node.has(field);
  }

  /**
   * Whether the field has a value other than null.
   *
   * @param field the field's name
   * @return true when present and not null
   */
  public boolean has(String field) {
    JsonNode v = node.get(field);
    return v != null && !v.isNull();
  }

  /**
   * The field's name as errors give it.
   *
   * @param field the field's own name
   * @return the name with this object's prefix
   */
  public String name(String field) {
    return prefix + field;
  }

  /**
   * 400 {@code invalid_field} for one of this object's fields.
   *
   * @param field the field's own name
   * @param reason what is wrong with it
   * @return the error, its message starting with the prefixed name
   */
  public ApiException invalid(String field, String reason) {
    return ApiException.invalidField(name(field), reason);
  }

  /**
   * An integer of any size a long holds, for a field whose range the library checks.
   *
   * @param field the field's name
   * @return the value, or empty when absent or null
   * @throws ApiException 400 {@code invalid_field} naming the field when it is not an integer
   */
  public OptionalLong optLong(String field) {
    return optLong(field, Long.MIN_VALUE, Long.MAX_VALUE);
  }

  /**
   * An integer within bounds.
   *
   * @param field the field's name
   * @param min the least value accepted
   * @param max the greatest value accepted
   * @return the value, or empty when absent or null
   * @throws ApiException 400 {@code invalid_field} naming the field when it is not an integer in
   *     range
   */
  public OptionalLong optLong(String field, long min, long max) {
    JsonNode v = node.get(field);
    if (v == null || v.isNull()) {
      return OptionalLong.empty();
    }
    if (!v.isIntegralNumber() || !v.canConvertToLong()) {
      throw invalid(
          field,
          min == Long.MIN_VALUE && max == Long.MAX_VALUE
              ? "must be an integer"
              : "must be an integer between " + min + " and " + max);
    }
    long value = v.asLong();
    if (value < min || value > max) {
      throw invalid(field, "must be between " + min + " and " + max + ", was " + value);
    }
    return OptionalLong.of(value);
  }

  /**
   * An integer within bounds, or a default.
   *
   * @param field the field's name
   * @param min the least value accepted
   * @param max the greatest value accepted
   * @param otherwise the value when the field is absent or null
   * @return the value
   * @throws ApiException 400 {@code invalid_field} naming the field when it is not an integer in
   *     range
   */
  public long longOr(String field, long min, long max, long otherwise) {
    return optLong(field, min, max).orElse(otherwise);
  }

  /**
   * An int within bounds, or a default.
   *
   * @param field the field's name
   * @param min the least value accepted
   * @param max the greatest value accepted
   * @param otherwise the value when the field is absent or null
   * @return the value
   * @throws ApiException 400 {@code invalid_field} naming the field when it is not an integer in
   *     range
   */
  public int intOr(String field, int min, int max, int otherwise) {
    return (int) optLong(field, min, max).orElse(otherwise);
  }

  /**
   * A duration given as whole milliseconds within bounds.
   *
   * @param field the field's name
   * @param min the fewest milliseconds accepted
   * @param max the most milliseconds accepted
   * @return the duration, or empty when absent or null
   * @throws ApiException 400 {@code invalid_field} naming the field when it is not an integer in
   *     range
   */
  public Optional<Duration> optMillis(String field, long min, long max) {
    OptionalLong v = optLong(field, min, max);
    return v.isPresent() ? Optional.of(Duration.ofMillis(v.getAsLong())) : Optional.empty();
  }

  /**
   * A string of at most {@code maxChars} characters.
   *
   * @param field the field's name
   * @param maxChars the longest value accepted
   * @return the value, or empty when absent or null
   * @throws ApiException 400 {@code invalid_field} naming the field when it is not a string or too
   *     long
   */
  public Optional<String> optText(String field, int maxChars) {
    JsonNode v = node.get(field);
    if (v == null || v.isNull()) {
      return Optional.empty();
    }
    if (!v.isTextual()) {
      throw invalid(field, "must be a string");
    }
    if (v.textValue().length() > maxChars) {
      throw invalid(field, "must be at most " + maxChars + " characters");
    }
    return Optional.of(v.textValue());
  }

  /**
   * A required string of at most {@code maxChars} characters.
   *
   * @param field the field's name
   * @param maxChars the longest value accepted
   * @return the value
   * @throws ApiException 400 {@code invalid_field} naming the field when it is absent, not a string
   *     or too long
   */
  public String text(String field, int maxChars) {
    return optText(field, maxChars).orElseThrow(() -> invalid(field, "is required"));
  }

  /**
   * A boolean, or a default.
   *
   * @param field the field's name
   * @param otherwise the value when the field is absent or null
   * @return the value
   * @throws ApiException 400 {@code invalid_field} naming the field when it is not true or false
   */
  public boolean boolOr(String field, boolean otherwise) {
    JsonNode v = node.get(field);
    if (v == null || v.isNull()) {
      return otherwise;
    }
    if (!v.isBoolean()) {
      throw invalid(field, "must be true or false");
    }
    return v.booleanValue();
  }

  /**
   * A nested object, whose reads name its fields {@code field.name}.
   *
   * @param field the field's name
   * @return its reads, or empty when absent or null
   * @throws ApiException 400 {@code invalid_field} naming the field when it is not an object
   */
  public Optional<Fields> optObject(String field) {
    JsonNode v = node.get(field);
    if (v == null || v.isNull()) {
      return Optional.empty();
    }
    if (!v.isObject()) {
      throw invalid(field, "must be an object");
    }
    return Optional.of(new Fields((ObjectNode) v, prefix + field + "."));
  }

  /**
   * The raw node, for arrays.
   *
   * @param field the field's name
   * @return the node, or empty when absent or null
   */
  public Optional<JsonNode> optNode(String field) {
    JsonNode v = node.get(field);
    return v == null || v.isNull() ? Optional.empty() : Optional.of(v);
  }
}
