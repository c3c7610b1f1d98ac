package dev.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.server.config.ConfigLoader;
import dev.hourglass.server.config.ServerConfig;
import dev.hourglass.testing.topology.RedisCluster;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The server on a three-master Redis Cluster, as {@code --redis redis-cluster://...} starts it. */
class ClusterServerTest {
  private static RedisCluster cluster;

  @BeforeAll
  static void startCluster() {
    cluster = RedisCluster.create();
    cluster.start();
  }

  @AfterAll
  static void stopCluster() {
    cluster.close();
  }

  @Test
  void acceptsAClusterUri() {
    ServerConfig config = ConfigLoader.load(Map.of("redis", cluster.clusterUri()), Map.of(), null);
    assertThat(config.redisUri()).isEqualTo(Optional.of(cluster.clusterUri()));
  }

  @Test
  void enqueueClaimAckOnAPartitionedQueue() {
    try (TestServer s = TestServer.start(cluster.clusterUri())) {
      assertThat(s.call("PUT", "/v1/queues/spread", "{\"partitions\":6}").status())
          .isBetween(200, 204);
      for (int i = 0; i < 12; i++) {
        assertThat(
                s.post("/v1/queues/spread/jobs", "{\"id\":\"j" + i + "\",\"payload\":1}").status())
            .isEqualTo(201);
      }
      int acked = 0;
      while (acked < 12) {
        var claimed = s.post("/v1/queues/spread/claim", "{\"max\":5,\"waitMs\":2000}");
        assertThat(claimed.status()).as(claimed.body()).isEqualTo(200);
        assertThat(claimed.json().get("jobs")).isNotEmpty();
        for (var job : claimed.json().get("jobs")) {
          String path = "/v1/queues/spread/jobs/" + job.get("id").asText() + "/ack";
          String body = "{\"receipt\":\"" + job.get("receipt").asText() + "\"}";
          assertThat(s.post(path, body).status()).isEqualTo(204);
          acked++;
        }
      }
      var view = s.get("/v1/queues/spread");
      assertThat(view.status()).as(view.body()).isEqualTo(200);
      assertThat(view.json().get("partitions").asInt()).isEqualTo(6);
      assertThat(view.json().get("counters").get("acked").asLong()).isEqualTo(12);
      assertThat(view.json().get("ready").asLong()).isZero();
    }
  }
}
