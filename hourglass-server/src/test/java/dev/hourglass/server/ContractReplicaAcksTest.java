package dev.hourglass.server;

import static dev.hourglass.server.ContractSupport.assertError;
import static dev.hourglass.server.ContractSupport.assertInvalidField;
import static dev.hourglass.server.ContractSupport.assertJson;
import static dev.hourglass.server.ContractSupport.j;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hourglass.QueueSettings;
import dev.hourglass.embedded.RedisServer;
import dev.hourglass.internal.store.Keys;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The queue setting {@code replicaAcks} over HTTP: it round-trips through PUT and GET, and takes
 * effect: an enqueue is on the replica when it answers, and with the replica gone it answers 503
 * {@code redis_unavailable} (outcome unknown) while the setting is on, 201 once it is off.
 */
class ContractReplicaAcksTest {
  private static final Duration LIVENESS = Duration.ofSeconds(30);
  private RedisServer master;
  private RedisServer replica;
  private TestServer s;

  @BeforeEach
  void start() {
    master = RedisServer.builder().build();
    master.start();
    replica = RedisServer.builder().args("--replicaof", "127.0.0.1", "" + master.port()).build();
    replica.start();
    await()
        .atMost(LIVENESS)
        .until(() -> master.command("INFO", "replication").contains("connected_slaves:1"));
    s = TestServer.startQuickStop(master.uri());
  }

  @AfterEach
  void stop() {
    s.close();
    replica.close();
    master.close();
  }

  private boolean onReplica(String queue, String id) {
    var p = new Keys("hg").partition(queue, 0, 1, QueueSettings.DEFAULT_POOLS);
    return "1".equals(replica.command("HEXISTS", p.pool(id), p.member(id)).strip());
  }

  @Test
  void theSettingRoundTripsAndTakesEffect() {
    assertThat(
            assertJson(s.call("PUT", "/v1/queues/q", j("{'replicaAcks':1}")), 201)
                .get("replicaAcks")
                .asInt())
        .isEqualTo(1);
    assertThat(assertJson(s.get("/v1/queues/q"), 200).get("replicaAcks").asInt()).isEqualTo(1);
    for (int i = 0; i < 10; i++) {
      assertJson(s.post("/v1/queues/q/jobs", j("{'id':'j" + i + "','payload':1}")), 201);
      assertThat(onReplica("q", "j" + i)).as("j%d on the replica", i).isTrue();
    }

    replica.kill();
    await()
        .atMost(LIVENESS)
        .until(() -> master.command("INFO", "replication").contains("connected_slaves:0"));
    String message =
        assertError(
            s.post("/v1/queues/q/jobs", j("{'id':'unknown','payload':1}")),
            503,
            "redis_unavailable");
    assertThat(message).contains("replicas", "may or may not");

    assertThat(
            assertJson(s.call("PUT", "/v1/queues/q", j("{'replicaAcks':null}")), 200)
                .get("replicaAcks")
                .isNull())
        .isTrue();
    assertJson(s.post("/v1/queues/q/jobs", j("{'id':'plain','payload':1}")), 201);
  }

  @Test
  void anOutOfRangeOrNonIntegerValueIsRefused() {
    assertInvalidField(s.call("PUT", "/v1/queues/q", j("{'replicaAcks':17}")), "replicaAcks");
    assertInvalidField(s.call("PUT", "/v1/queues/q", j("{'replicaAcks':-1}")), "replicaAcks");
    assertInvalidField(s.call("PUT", "/v1/queues/q", j("{'replicaAcks':'1'}")), "replicaAcks");
    assertError(s.get("/v1/queues/q"), 404, "queue_not_found"); // nothing was created
    assertJson(s.call("PUT", "/v1/queues/q", j("{'replicaAcks':0}")), 201);
    assertInvalidField(s.call("PUT", "/v1/queues/q", j("{'replicaAcks':1.5}")), "replicaAcks");
    assertThat(assertJson(s.get("/v1/queues/q"), 200).get("replicaAcks").asInt()).isZero();
  }
}
