package dev.hourglass.server;

import static dev.hourglass.server.ContractSupport.j;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hourglass.Delivery;
import dev.hourglass.Hourglass;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.JobSpec;
import dev.hourglass.Queue;
import dev.hourglass.QueueSettings;
import dev.hourglass.internal.store.Keys;
import dev.hourglass.testing.RedisExtension;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Queue names and job ids never escape their keyspace, checked at the Redis key level: hostile
 * names and ids (braces, colons, wildcards, newlines, spaces, unicode, too long) are refused with
 * the typed error, over HTTP and in Java, and write nothing; accepted names that look alike (one a
 * prefix of the other, dots and numbers as in partition tags) each get keys of their own, every one
 * of which parses back to its own queue and partition.
 */
class KeyspaceTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone().withoutFlush();

  private static final ObjectMapper JSON = new ObjectMapper();
  private static TestServer server;

  private static final List<String> HOSTILE_NAMES =
      List.of(
          "{a}",
          "a}",
          "{",
          "a{b}c",
          "a:b",
          "hg:{meta}:queues",
          "*",
          "a*",
          "a?",
          "[a]",
          "a\nb",
          "a\r\nb",
          "a b",
          " a",
          "a\tb",
          "é",
          "e\u0301",
          "\u202Eabc",
          "😀",
          "a/b",
          "a\\b",
          "a%b",
          "a".repeat(101),
          ".",
          "..",
          "\u0000");

  private static final List<String> HOSTILE_IDS =
      List.of(
          "{x}",
          "x}",
          "x{y",
          "*",
          "x?",
          "[x]",
          "x\ny",
          "x y",
          "é",
          "\u202Ex",
          "😀",
          "x".repeat(129),
          "");

  @BeforeAll
  static void start() {
    server = TestServer.startQuickStop(redis.uri());
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static String path(String name) {
    return URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
  }

  @Test
  void hostileQueueNamesAreRefusedOverHttpAndInJavaAndWriteNothing() {
    Hourglass java = server.server().hourglass();
    for (String name : HOSTILE_NAMES) {
      RedisState before = RedisState.read(redis.server());
      TestServer.Response r =
          server.post("/v1/queues/" + path(name) + "/jobs", j("{'payload':{'a':1}}"));
      assertThat(r.status()).as("enqueue into %s: %s", printable(name), r.body()).isIn(400, 404);
      assertThat(r.errorCode())
          .as("error of %s", printable(name))
          .isIn("invalid_queue_name", "not_found", "bad_request");
      TestServer.Response put = server.call("PUT", "/v1/queues/" + path(name), j("{}"));
      assertThat(put.status()).as("PUT %s: %s", printable(name), put.body()).isIn(400, 404, 405);
      assertThatThrownBy(() -> java.queue(name))
          .as("Java queue(%s)", printable(name))
          .isInstanceOf(InvalidArgumentException.class);
      assertThat(RedisState.read(redis.server()).changesSince(before))
          .as("keys written for the refused name %s", printable(name))
          .isEmpty();
    }
  }

  @Test
  void hostileJobIdsAreRefusedOverHttpAndInJavaAndWriteNothing() throws Exception {
    Queue<byte[]> q = server.server().hourglass().queue("ids");
    q.stats(); // the queue exists before the digest: only the ids are on trial
    for (String id : HOSTILE_IDS) {
      RedisState before = RedisState.read(redis.server());
      String body = "{\"id\":" + JSON.writeValueAsString(id) + ",\"payload\":1}";
      TestServer.Response r = server.post("/v1/queues/ids/jobs", body);
      assertThat(r.status()).as("id %s: %s", printable(id), r.body()).isEqualTo(400);
      assertThat(r.errorCode()).isEqualTo("invalid_field");
      TestServer.Response get = server.get("/v1/queues/ids/jobs/" + path(id));
      assertThat(get.status()).as("GET id %s", printable(id)).isIn(400, 404, 405);
      assertThatThrownBy(() -> q.enqueue(JobSpec.builder().id(id).payload("x").build()))
          .as("Java id %s", printable(id))
          .isInstanceOf(InvalidArgumentException.class);
      assertThat(RedisState.read(redis.server()).changesSince(before))
          .as("keys written for the refused id %s", printable(id))
          .isEmpty();
    }
  }

  @Test
  void lookAlikeNamesGetDisjointKeysThatParseBackToTheirOwnQueue() {
    Hourglass h = server.server().hourglass();
    // Names whose plain tags would meet if the layout were careless: a.1 partition 0 against a
    // partition 1, a.1.0 against both, names ending in digits, dots and dashes.
    Map<String, Integer> queues = new HashMap<>();
    queues.put("a", 3);
    queues.put("a.1", 1);
    queues.put("a.1.0", 2);
    queues.put("a.10", 1);
    queues.put("a-1", 2);
    queues.put("A", 1);
    queues.put("_", 1);
    queues.put("a..b", 2);
    queues.put("x".repeat(100), 3);
    Set<String> before = keys();
    for (Map.Entry<String, Integer> e : queues.entrySet()) {
      Queue<byte[]> q =
          h.configureQueue(e.getKey(), QueueSettings.builder().partitions(e.getValue()).build());
      for (int i = 0; i < 12; i++) {
        q.enqueue(JobSpec.builder().id("j:" + i).payload("x").build()); // colons are allowed
      }
      q.enqueue(JobSpec.builder().id("later").payload("x").delay(Duration.ofHours(1)).build());
      for (Delivery<byte[]> d : q.claim(4, Duration.ofHours(1))) {
        q.ack(d.id(), d.receipt());
      }
      q.claim(2, Duration.ofHours(1)); // two stay leased
    }

    Map<String, String> owner = new HashMap<>();
    for (String key : keys()) {
      if (before.contains(key) || key.startsWith("hg:{meta}:")) {
        continue;
      }
      String prefix = key.substring(0, key.indexOf("}:") + 2);
      String match = null;
      for (Map.Entry<String, Integer> e : queues.entrySet()) {
        for (int p = 0; p < e.getValue(); p++) {
          String mine =
              new Keys("hg")
                  .partition(e.getKey(), p, e.getValue(), QueueSettings.DEFAULT_POOLS)
                  .meta();
          if (mine.startsWith(prefix)) {
            assertThat(match).as("key %s claimed by two partitions", key).isNull();
            match = e.getKey() + " partition " + p;
          }
        }
      }
      assertThat(match).as("key %s belongs to no queue's partition", key).isNotNull();
      owner.put(key, match);
    }
    // Every partition of every queue has keys of its own.
    Set<String> partitionsWithKeys = new TreeSet<>(owner.values());
    int partitions = queues.values().stream().mapToInt(Integer::intValue).sum();
    assertThat(partitionsWithKeys).hasSize(partitions);
    for (String key : keys()) {
      if (key.startsWith("hg:{meta}:") && !before.contains(key)) {
        assertThat(key)
            .as("a registry key")
            .matches("hg:\\{meta\\}:(queues|settings-version|layout|queue:.+)");
      }
    }
  }

  private static Set<String> keys() {
    String all = redis.server().command("KEYS", "*");
    Set<String> keys = new TreeSet<>();
    if (all != null && !all.isEmpty()) {
      keys.addAll(List.of(all.split("\n")));
    }
    return keys;
  }

  private static String printable(String s) {
    StringBuilder b = new StringBuilder();
    s.codePoints()
        .limit(40)
        .forEach(
            c ->
                b.append(
                    c < 0x20 || c > 0x7e ? String.format("\\u%04x", c) : String.valueOf((char) c)));
    return "'" + b + "'" + (s.length() > 40 ? "(" + s.length() + " chars)" : "");
  }
}
