package dev.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks one documented request body against the running server: for every object schema in it
 * (nested ones too, each {@code oneOf} variant on its own), a field {@code __undocumented} must be
 * refused as unknown, the server's list of known fields must be exactly the schema's properties,
 * and no documented property may be refused as unknown.
 */
final class OpenApiBodyProbe {
  static final String EXTRA = "__undocumented";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern KNOWN = Pattern.compile("; known fields: \\[(.*)]$");

  private final TestServer s;
  private final JsonNode doc;
  private final String method;
  private final String path;

  /** The field prefixes probed ({@code ""}, {@code "defaults."}, {@code "jobs[0].backoff."}...). */
  final List<String> probed = new ArrayList<>();

  OpenApiBodyProbe(TestServer s, JsonNode doc, String method, String path) {
    this.s = s;
    this.doc = doc;
    this.method = method;
    this.path = path;
  }

  void probe(JsonNode schema) {
    probeObject(schema, "", UnaryOperator.identity());
  }

  /** {@code wrap} puts an instance of {@code schema} where it belongs in a whole request body. */
  private void probeObject(JsonNode schema, String prefix, UnaryOperator<ObjectNode> wrap) {
    JsonNode s = resolve(schema);
    if (s.has("oneOf")) {
      s.get("oneOf").forEach(variant -> probeObject(variant, prefix, wrap));
      return;
    }
    assertThat(s.path("additionalProperties").asBoolean(true))
        .as("%s %s: schema at '%s' has additionalProperties: false", method, path, prefix)
        .isFalse();
    probed.add(prefix);
    ObjectNode base = minimal(s);
    JsonNode props = s.path("properties");

    ObjectNode extra = base.deepCopy().put(EXTRA, 1);
    TestServer.Response r = send(wrap.apply(extra));
    String refusal =
        messages(r).stream()
            .filter(m -> m.startsWith("unknown field \"" + prefix + EXTRA + "\""))
            .findFirst()
            .orElseThrow(
                () ->
                    new AssertionError(
                        method + " " + path + ": " + prefix + EXTRA + " not refused: " + r.body()));
    if (prefix.isEmpty()) {
      assertThat(r.status()).as("%s %s: status of %s", method, path, EXTRA).isEqualTo(400);
      assertThat(r.errorCode()).isEqualTo("invalid_field");
    }
    Matcher known = KNOWN.matcher(refusal);
    assertThat(known.find()).as("the server lists the known fields: %s", refusal).isTrue();
    Set<String> documented = new TreeSet<>();
    props.fieldNames().forEachRemaining(documented::add);
    assertThat(new TreeSet<>(Arrays.asList(known.group(1).split(", "))))
        .as("%s %s: fields the server accepts at '%s' vs the document", method, path, prefix)
        .isEqualTo(documented);

    for (String name : documented) {
      JsonNode ps = props.get(name);
      ObjectNode one = base.deepCopy();
      one.set(name, sample(ps));
      TestServer.Response answer = send(wrap.apply(one));
      assertThat(messages(answer))
          .as("%s %s: documented field %s%s", method, path, prefix, name)
          .noneMatch(m -> m.startsWith("unknown field \"" + prefix + name + "\""));
      JsonNode p = resolve(ps);
      if (isObjectSchema(p)) {
        probeObject(ps, prefix + name + ".", o -> wrap.apply(with(base, name, o)));
      } else if ("array".equals(p.path("type").asText())
          && isObjectSchema(resolve(p.get("items")))) {
        probeObject(
            p.get("items"),
            prefix + name + "[0].",
            o -> wrap.apply(with(base, name, JSON.createArrayNode().add(o))));
      }
    }
  }

  private boolean isObjectSchema(JsonNode s) {
    return s.has("properties") || s.has("oneOf");
  }

  private static ObjectNode with(ObjectNode base, String name, JsonNode value) {
    ObjectNode o = base.deepCopy();
    o.set(name, value);
    return o;
  }

  private TestServer.Response send(ObjectNode body) {
    String url = path.replace("{queue}", OpenApiContractTest.QUEUE).replace("{id}", "job-1");
    return s.call(method.toUpperCase(), url, body.toString());
  }

  /** Every error message in the answer, the batch answers' per-item errors included. */
  private static List<String> messages(TestServer.Response r) {
    List<String> out = new ArrayList<>();
    if (r.body() != null && r.body().startsWith("{")) {
      r.json().findValues("message").forEach(m -> out.add(m.asText()));
    }
    return out;
  }

  /** The required properties of an object schema, each with a plausible value. */
  private ObjectNode minimal(JsonNode objectSchema) {
    ObjectNode o = JSON.createObjectNode();
    for (JsonNode name : objectSchema.path("required")) {
      o.set(name.asText(), sample(objectSchema.path("properties").get(name.asText())));
    }
    return o;
  }

  private JsonNode sample(JsonNode schema) {
    JsonNode s = resolve(schema);
    if (s.has("const")) {
      return s.get("const");
    }
    if (s.has("oneOf")) {
      return sample(s.get("oneOf").get(0));
    }
    JsonNode type = s.path("type");
    String t = type.isArray() ? type.get(0).asText() : type.asText("");
    return switch (t) {
      case "integer", "number" -> JSON.getNodeFactory().numberNode(s.path("minimum").asLong(1));
      case "string" -> JSON.getNodeFactory().textNode("x");
      case "boolean" -> JSON.getNodeFactory().booleanNode(false);
      case "array" -> {
        ArrayNode a = JSON.createArrayNode();
        a.add(sample(s.get("items")));
        yield a;
      }
      case "object" -> minimal(s);
      default -> JSON.getNodeFactory().numberNode(1); // any JSON value
    };
  }

  JsonNode resolve(JsonNode schema) {
    JsonNode s = schema;
    while (s.has("$ref")) {
      String ref = s.get("$ref").asText();
      assertThat(ref).startsWith("#/");
      s = doc.at(ref.substring(1));
      assertThat(s.isMissingNode()).as("$ref %s resolves", ref).isFalse();
    }
    return s;
  }
}
