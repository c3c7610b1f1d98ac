package dev.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.testing.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class SmokeTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  @Test
  void enqueueClaimAck() {
    try (TestServer s = TestServer.start(redis.uri())) {
      assertThat(s.post("/v1/queues/q/jobs", "{\"id\":\"a\",\"payload\":{\"k\": 1}}").status())
          .isEqualTo(201);
      var claimed = s.post("/v1/queues/q/claim", "{\"max\":10,\"waitMs\":1000}");
      assertThat(claimed.status()).isEqualTo(200);
      var job = claimed.json().get("jobs").get(0);
      assertThat(claimed.body()).contains("\"payload\":{\"k\": 1}");
      String receipt = job.get("receipt").asText();
      assertThat(s.post("/v1/queues/q/jobs/a/ack", "{\"receipt\":\"" + receipt + "\"}").status())
          .isEqualTo(204);
    }
  }
}
