package dev.hourglass.server.cli;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

/** The client's one JSON mapper: strict, one document per text, numbers kept as written. */
final class Json {
  static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
          .build();

  private Json() {}

  /**
   * Parses exactly one JSON document.
   *
   * @throws IllegalArgumentException saying where and why when {@code text} is empty, malformed or
   *     followed by more
   */
  static JsonNode parse(String text) {
    JsonNode node;
    try {
      node = MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      String where =
          at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
      throw new IllegalArgumentException(e.getOriginalMessage() + where, e);
    }
    if (node == null || node.isMissingNode()) {
      throw new IllegalArgumentException("it is empty");
    }
    return node;
  }

  /** {@code value} as JSON text, e.g. a Java string as a quoted, escaped JSON string. */
  static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("could not write " + value.getClass() + " as JSON", e);
    }
  }
}
