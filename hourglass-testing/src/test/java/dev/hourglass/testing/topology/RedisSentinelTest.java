package dev.hourglass.testing.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.embedded.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RedisSentinelTest {

  @Test
  void theSentinelNamesTheMasterAndCloseEndsBothProcesses() {
    long masterPid;
    long sentinelPid;
    try (RedisSentinel group = RedisSentinel.create()) {
      group.start();

      assertThat(group.isRunning()).isTrue();
      RedisServer sentinel = group.sentinel();
      // Redis says redis_mode, Valkey server_mode.
      assertThat(sentinel.command("INFO", "server"))
          .containsPattern("(redis|server)_mode:sentinel");
      assertThat(sentinel.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", "mymaster"))
          .isEqualTo("127.0.0.1\n" + group.master().port());
      assertThat(group.uris())
          .containsExactly("redis-sentinel://127.0.0.1:" + sentinel.port() + "#mymaster");
      group.master().command("SET", "k", "v");
      assertThat(group.master().command("GET", "k")).isEqualTo("v");
      masterPid = group.master().pid();
      sentinelPid = sentinel.pid();
    }
    assertThat(ProcessHandle.of(masterPid).filter(ProcessHandle::isAlive)).isEmpty();
    assertThat(ProcessHandle.of(sentinelPid).filter(ProcessHandle::isAlive)).isEmpty();
  }

  @Test
  void restartsOnTheSamePorts() {
    try (RedisSentinel group = RedisSentinel.create()) {
      group.start();
      String uri = group.sentinelUri();
      group.stop();
      assertThat(group.isRunning()).isFalse();
      group.start();
      assertThat(group.sentinelUri()).isEqualTo(uri);
    }
  }

  @Test
  void killingTheMasterPromotesTheReplicaAndAnAddedReplicaJoinsTheNewMaster() {
    List<Long> pids = new ArrayList<>();
    try (RedisSentinel group = RedisSentinel.builder().replicas(1).sentinels(3).build()) {
      group.start();
      RedisServer first = group.master();
      RedisServer replica = group.dataNodes().get(1);
      assertThat(group.currentMaster()).isSameAs(first);
      assertThat(replica.command("ROLE")).startsWith("slave");
      assertThat(group.sentinelUri().split(",")).hasSize(3);
      first.command("SET", "k", "v");
      first.command("WAIT", "1", "5000");

      assertThat(group.killMaster()).isSameAs(first);
      RedisServer promoted = group.awaitFailover(first, Duration.ofMinutes(1));

      assertThat(promoted).isSameAs(replica);
      assertThat(group.currentMaster()).isSameAs(replica);
      assertThat(replica.command("GET", "k")).isEqualTo("v");
      RedisServer added = group.addReplica();
      assertThat(added.command("ROLE")).startsWith("slave");
      assertThat(added.command("GET", "k")).isEqualTo("v");
      for (RedisServer s : group.sentinels()) {
        assertThat(s.command("SENTINEL", "REPLICAS", RedisSentinel.MASTER_NAME))
            .contains("127.0.0.1:" + added.port());
      }
      assertThatThrownBy(group::start).isInstanceOf(IllegalStateException.class);
      for (RedisServer s : group.sentinels()) {
        pids.add(s.pid());
      }
      pids.add(replica.pid());
      pids.add(added.pid());
    }
    for (long pid : pids) {
      assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
    }
  }
}
