package dev.hourglass.server.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.databind.util.RawValue;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** Writes response bodies. */
public final class JsonOut {
  private JsonOut() {}

  /**
   * A new, empty response object.
   *
   * @return the object
   */
  public static ObjectNode object() {
    return JsonIn.MAPPER.createObjectNode();
  }

  /**
   * A response body.
   *
   * @param node the body's JSON
   * @return its UTF-8 bytes
   */
  public static byte[] bytes(JsonNode node) {
    try {
      return JsonIn.MAPPER.writeValueAsBytes(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON", e);
    }
  }

  /**
   * The body of every error answer: {@code {"error": {"code", "message"}}}.
   *
   * @param code the API's error code
   * @param message what is wrong
   * @return the body's bytes
   */
  public static byte[] error(String code, String message) {
    ObjectNode o = object();
    o.putObject("error").put("code", code).put("message", message);
    return bytes(o);
  }

  /**
   * A job's payload ({@link #putPayload(ObjectNode, String, byte[])}); one this process cannot open
   * (compressed with what it lacks) as the text of {@link dev.hourglass.Payload#asString}, which
   * says why.
   *
   * @param o the object to put it in
   * @param field the field's name
   * @param payload the job's payload
   */
  public static void putPayload(ObjectNode o, String field, dev.hourglass.Payload<?> payload) {
    if (payload.readable()) {
      putPayload(o, field, payload.bytes());
    } else {
      o.put(field, payload.asString());
    }
  }

  /**
   * Puts a stored payload under {@code field}: its bytes as they are when they hold one JSON value
   * (every payload that came through the API does), else as a JSON string of their UTF-8 text (a
   * job enqueued by a Java client with non-JSON bytes).
   *
   * @param o the object to put it in
   * @param field the field's name
   * @param payload the stored bytes
   */
  public static void putPayload(ObjectNode o, String field, byte[] payload) {
    String text = new String(payload, StandardCharsets.UTF_8);
    if (isOneJsonValue(payload)) {
      o.putRawValue(field, new RawValue(text));
    } else {
      o.set(field, TextNode.valueOf(text));
    }
  }

  private static boolean isOneJsonValue(byte[] bytes) {
    try (JsonParser p = JsonIn.MAPPER.getFactory().createParser(bytes)) {
      JsonToken first = p.nextToken();
      if (first == null) {
        return false;
      }
      p.skipChildren();
      return p.nextToken() == null;
    } catch (IOException e) {
      return false;
    }
  }
}
