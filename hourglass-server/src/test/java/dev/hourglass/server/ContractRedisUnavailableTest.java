package dev.hourglass.server;

import static dev.hourglass.server.ContractSupport.assertError;
import static dev.hourglass.server.ContractSupport.assertJson;
import static dev.hourglass.server.ContractSupport.enqueue;
import static dev.hourglass.server.ContractSupport.j;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hourglass.embedded.RedisServer;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** API.md "Errors": 503 {@code redis_unavailable} while Redis is down, and recovery after. */
class ContractRedisUnavailableTest {
  private RedisServer redis;
  private TestServer s;

  @BeforeEach
  void start() {
    redis = RedisServer.builder().build();
    redis.start();
    s = TestServer.startQuickStop(redis.uri());
  }

  @AfterEach
  void stop() {
    s.close();
    redis.close();
  }

  @Test
  void requestsAre503WhileRedisIsDownAndWorkAgainAfter() {
    enqueue(s, "q", j("{'id':'before','payload':1}"));
    redis.stop();

    assertError(s.post("/v1/queues/q/jobs", j("{'id':'a','payload':1}")), 503, "redis_unavailable");
    assertError(s.get("/v1/queues/q/jobs/before"), 503, "redis_unavailable");
    assertError(s.get("/v1/queues"), 503, "redis_unavailable");
    assertError(s.get("/health/ready"), 503, "redis_unavailable");
    assertJson(s.get("/health/live"), 200);

    redis.start();

    await()
        .atMost(Duration.ofSeconds(15))
        .untilAsserted(() -> assertJson(s.get("/health/ready"), 200));
    await()
        .atMost(Duration.ofSeconds(15))
        .untilAsserted(
            () -> assertJson(s.post("/v1/queues/q/jobs", j("{'id':'after','payload':1}")), 201));
    assertThat(ContractSupport.getJob(s, "q", "after").get("state").asText()).isEqualTo("ready");
  }

  @Test
  void claimIs503WhileRedisIsDown() {
    enqueue(s, "q", j("{'id':'before','payload':1}"));
    redis.stop();

    // Answered, not left hanging: TestServer gives up on a request after 40 s (a liveness bound).
    assertError(s.post("/v1/queues/q/claim", j("{'waitMs':1000}")), 503, "redis_unavailable");

    redis.start();
    await()
        .atMost(Duration.ofSeconds(15))
        .untilAsserted(() -> assertJson(s.post("/v1/queues/q/claim", j("{'waitMs':0}")), 200));
  }
}
