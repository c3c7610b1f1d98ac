package dev.hourglass.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RedisServerFailureTest {

  private static ServerSocket occupyFreePort() throws Exception {
    return new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"));
  }

  @Test
  void aTakenFixedPortFailsWithTheServerLogTail() throws Exception {
    try (ServerSocket taken = occupyFreePort();
        RedisServer redis = RedisServer.builder().port(taken.getLocalPort()).build()) {

      assertThatThrownBy(redis::start)
          .isInstanceOf(RedisServerException.class)
          .hasMessageContaining("did not start")
          .hasMessageContaining("Address already in use")
          .hasMessageContaining(redis.dataDir().resolve(ServerSettings.LOG_FILE).toString());
      assertThat(redis.isRunning()).isFalse();
    }
  }

  @Test
  void aBadArgumentFailsWithTheServerOutput() {
    try (RedisServer redis = RedisServer.builder().args("--no-such-directive", "x").build()) {

      assertThatThrownBy(redis::start)
          .isInstanceOf(RedisServerException.class)
          .hasMessageContaining("exited with code 1")
          .hasMessageContaining("Bad directive or wrong number of arguments");
    }
  }

  @Test
  void aPortGrabbedBeforeTheFirstStartIsRetriedOnAnotherPort() throws Exception {
    try (ServerSocket taken = occupyFreePort()) {
      AtomicInteger calls = new AtomicInteger();
      try (RedisServer redis =
          RedisServer.builder()
              .portChooser(
                  () -> calls.getAndIncrement() == 0 ? taken.getLocalPort() : FreePort.find())
              .build()) {

        redis.start();

        assertThat(calls).hasValue(2);
        assertThat(redis.port()).isNotEqualTo(taken.getLocalPort());
        assertThat(redis.command("PING")).isEqualTo("PONG");
      }
    }
  }

  @Test
  void aRestartNeverMovesToAnotherPort() throws Exception {
    try (RedisServer redis = RedisServer.create()) {
      redis.start();
      int port = redis.port();
      redis.stop();

      try (ServerSocket taken = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
        assertThat(taken.getLocalPort()).isEqualTo(port);
        assertThatThrownBy(redis::start)
            .isInstanceOf(RedisServerException.class)
            .hasMessageContaining("Address already in use");
      }

      assertThat(redis.port()).isEqualTo(port);
      redis.start();
      assertThat(redis.port()).isEqualTo(port);
    }
  }

  @Test
  void aPortAnsweredByAnotherRedisIsNotMistakenForOurs() {
    try (RedisServer other = RedisServer.create()) {
      other.start();
      try (RedisServer redis = RedisServer.builder().port(other.port()).build()) {

        assertThatThrownBy(redis::start)
            .isInstanceOf(RedisServerException.class)
            .hasMessageContaining("Address already in use");
      }
      assertThat(other.command("PING")).isEqualTo("PONG");
    }
  }
}
