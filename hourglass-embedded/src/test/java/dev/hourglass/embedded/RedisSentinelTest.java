package dev.hourglass.embedded;

import static org.assertj.core.api.Assertions.assertThat;

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
      assertThat(sentinel.command("INFO", "server")).contains("redis_mode:sentinel");
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
}
