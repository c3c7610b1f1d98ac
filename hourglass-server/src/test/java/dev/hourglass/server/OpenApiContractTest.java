package dev.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hourglass.server.auth.Role;
import dev.hourglass.server.auth.TokenRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * API.md 1.1 "Description": {@code GET /openapi.json} describes every route the server serves and
 * nothing else, and each request body's fields exactly as the server accepts them. A route added
 * without its documentation, or a field added to an {@code only(...)} list and not to the document,
 * fails here.
 */
class OpenApiContractTest extends ContractTestBase {
  static final String QUEUE = "q";
  private static final Set<String> METHODS =
      Set.of("get", "put", "post", "delete", "options", "head", "patch", "trace");
  private static final Set<String> PUBLIC =
      Set.of(
          "/health/live",
          "/health/ready",
          "/",
          "/dashboard/{file}",
          "/openapi.json",
          "/docs",
          "/docs/{file}");

  private JsonNode document() {
    TestServer.Response r = s.get("/openapi.json");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.raw().headers().firstValue("Content-Type"))
        .hasValueSatisfying(ct -> assertThat(ct).startsWith("application/json"));
    return r.json();
  }

  /** "METHOD /path" of every operation in the document. */
  private static Set<String> documentedRoutes(JsonNode doc) {
    Set<String> out = new TreeSet<>();
    doc.get("paths")
        .fields()
        .forEachRemaining(
            p ->
                p.getValue()
                    .fieldNames()
                    .forEachRemaining(
                        m -> {
                          if (METHODS.contains(m)) {
                            out.add(m.toUpperCase(Locale.ROOT) + " " + p.getKey());
                          }
                        }));
    return out;
  }

  @Test
  void theDocumentIsOpenApi31AndEveryReferenceResolves() {
    JsonNode doc = document();
    assertThat(doc.path("openapi").asText()).matches("3\\.1\\.\\d+");
    assertThat(doc.path("info").path("title").asText()).isNotEmpty();
    assertThat(doc.at("/components/securitySchemes/bearer/scheme").asText()).isEqualTo("bearer");
    assertThat(doc.at("/security/0").has("bearer")).isTrue();
    assertThat(doc.at("/components/schemas/Error/required/0").asText()).isEqualTo("error");
    List<String> refs = new ArrayList<>();
    collectRefs(doc, refs);
    assertThat(refs).isNotEmpty();
    for (String ref : refs) {
      assertThat(ref).startsWith("#/");
      assertThat(doc.at(ref.substring(1)).isMissingNode()).as("%s resolves", ref).isFalse();
    }
  }

  private static void collectRefs(JsonNode node, List<String> out) {
    if (node.has("$ref")) {
      out.add(node.get("$ref").asText());
    }
    node.forEach(child -> collectRefs(child, out));
  }

  @Test
  void everyRouteTheServerServesIsDocumentedAndNothingElse() {
    JsonNode doc = document();
    Set<String> served = new TreeSet<>(s.server().routes());
    Set<String> withoutHead = new TreeSet<>();
    for (String route : served) {
      if (route.startsWith("HEAD ")) {
        assertThat(served).as("HEAD only beside GET").contains("GET " + route.substring(5));
      } else {
        withoutHead.add(route);
      }
    }
    assertThat(withoutHead).contains("GET /openapi.json", "POST /v1/queues/{queue}/jobs");
    assertThat(documentedRoutes(doc)).isEqualTo(withoutHead);
  }

  @Test
  void everyOperationAnswersTheErrorShapeAndOnlyPublicRoutesNeedNoToken() {
    JsonNode doc = document();
    doc.get("paths")
        .fields()
        .forEachRemaining(
            p ->
                p.getValue()
                    .fields()
                    .forEachRemaining(
                        m -> {
                          if (!METHODS.contains(m.getKey())) {
                            return;
                          }
                          JsonNode op = m.getValue();
                          String where = m.getKey() + " " + p.getKey();
                          assertThat(op.path("responses").has("default")).as(where).isTrue();
                          boolean open = op.has("security") && op.get("security").isEmpty();
                          assertThat(open)
                              .as("%s needs no token", where)
                              .isEqualTo(PUBLIC.contains(p.getKey()));
                          assertThat(op.path("responses").has("401")).as(where).isEqualTo(!open);
                        }));
  }

  @Test
  void theDocumentIsServedWithoutATokenWhenAuthIsOn() {
    try (TestServer secured =
        TestServer.startQuickStop(
            redis.uri(), List.of(TokenRule.of("adm", "secret-token", Role.ADMIN, List.of("*"))))) {
      TestServer.Response r = secured.get("/openapi.json");
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.json().path("openapi").asText()).startsWith("3.1.");
      assertThat(secured.get("/v1/queues").status()).as("auth is on").isEqualTo(401);
      assertThat(secured.call("HEAD", "/openapi.json", null).status()).isEqualTo(200);
    }
  }

  @Test
  void everyRequestBodyListsExactlyTheFieldsTheServerAccepts() {
    JsonNode doc = document();
    assertThat(s.call("PUT", "/v1/queues/" + QUEUE, "{}").status()).isEqualTo(201);
    Map<String, List<String>> probedByOperation = new java.util.TreeMap<>();
    doc.get("paths")
        .fields()
        .forEachRemaining(
            p ->
                p.getValue()
                    .fields()
                    .forEachRemaining(
                        m -> {
                          JsonNode body = m.getValue().path("requestBody");
                          if (body.isMissingNode()) {
                            return;
                          }
                          OpenApiBodyProbe probe =
                              new OpenApiBodyProbe(s, doc, m.getKey(), p.getKey());
                          probe.probe(body.at("/content/application~1json/schema"));
                          probedByOperation.put(m.getKey() + " " + p.getKey(), probe.probed);
                        }));
    assertThat(probedByOperation).hasSize(10);
    assertThat(probedByOperation.get("post /v1/queues/{queue}/jobs/batch"))
        .contains("", "jobs[0].", "jobs[0].backoff.");
    assertThat(probedByOperation.get("put /v1/queues/{queue}"))
        .contains("", "defaults.", "defaults.backoff.", "delivery.");
    assertThat(probedByOperation.get("post /v1/queues/{queue}/ack")).contains("", "acks[0].");
  }
}
