package dev.hourglass.server.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads request bodies strictly: one JSON object, no duplicate keys, nothing after it. The {@code
 * payload} of a job is kept as the exact bytes the client sent, so it is delivered byte for byte.
 */
public final class JsonIn {
  /** The server's one mapper: duplicate keys are errors. Read-only once built. */
  public static final ObjectMapper MAPPER =
      new ObjectMapper(
          JsonFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build());

  private JsonIn() {}

  /** A JSON object's fields; {@code rawPayload} holds the text of its {@code payload}, if any. */
  public record Obj(ObjectNode fields, byte[] rawPayload) {}

  /**
   * The body as an object; an empty body reads as {@code {}}.
   *
   * @param body the request body
   * @return its object
   * @throws ApiException 400 {@code invalid_json} when it is not one JSON object
   */
  public static ObjectNode object(byte[] body) {
    return read(body, false).get(0).fields();
  }

  /**
   * A job body: one object whose {@code payload} is kept raw.
   *
   * @param body the request body
   * @return its fields and raw payload
   * @throws ApiException 400 {@code invalid_json} when it is not one JSON object
   */
  public static Obj job(byte[] body) {
    return read(body, false).get(0);
  }

  /**
   * A batch body {@code {"jobs": [...]}}: one entry per element, in order. An element that is not
   * an object reads as null (the caller reports it for that job alone).
   *
   * @param body the request body
   * @return one entry per element of {@code jobs}
   * @throws ApiException 400 when the body is not such an object or {@code jobs} is missing
   */
  public static List<Obj> jobs(byte[] body) {
    return read(body, true);
  }

  private static List<Obj> read(byte[] body, boolean batch) {
    if (isBlank(body)) {
      if (batch) {
        throw ApiException.invalidField("jobs", "is required");
      }
      return List.of(new Obj(MAPPER.createObjectNode(), null));
    }
    try (JsonParser p = MAPPER.getFactory().createParser(body)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw ApiException.invalidJson("the body must be a JSON object");
      }
      List<Obj> out = batch ? readBatch(p, body) : List.of(readObject(p, body));
      if (p.nextToken() != null) {
        throw ApiException.invalidJson("unexpected content after the JSON object");
      }
      return out;
    } catch (JsonProcessingException e) {
      throw ApiException.invalidJson("malformed JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw ApiException.invalidJson("unreadable body: " + e.getMessage());
    }
  }

  private static List<Obj> readBatch(JsonParser p, byte[] src) throws IOException {
    List<Obj> jobs = null;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken value = p.nextToken();
      if (!"jobs".equals(name)) {
        throw Fields.unknown(name, name, List.of("jobs"));
      }
      if (value != JsonToken.START_ARRAY) {
        throw ApiException.invalidField("jobs", "must be an array of job objects");
      }
      jobs = new ArrayList<>();
      while (p.nextToken() != JsonToken.END_ARRAY) {
        if (p.currentToken() == JsonToken.START_OBJECT) {
          jobs.add(readObject(p, src));
        } else {
          p.skipChildren();
          jobs.add(null);
        }
      }
    }
    if (jobs == null) {
      throw ApiException.invalidField("jobs", "is required");
    }
    return jobs;
  }

  /** Reads the object the parser is at (START_OBJECT) up to and including its END_OBJECT. */
  private static Obj readObject(JsonParser p, byte[] src) throws IOException {
    ObjectNode fields = MAPPER.createObjectNode();
    byte[] raw = null;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken value = p.nextToken();
      if ("payload".equals(name)) {
        long start = p.currentTokenLocation().getByteOffset();
        if (value.isStructStart()) {
          p.skipChildren();
        } else {
          p.finishToken();
        }
        long end = p.currentLocation().getByteOffset();
        raw = Arrays.copyOfRange(src, (int) start, (int) end);
        fields.putNull("payload"); // present; its text is in raw
      } else {
        JsonNode node = p.readValueAsTree();
        fields.set(name, node);
      }
    }
    return new Obj(fields, raw);
  }

  private static boolean isBlank(byte[] body) {
    for (byte b : body) {
      if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
        return false;
      }
    }
    return true;
  }
}
