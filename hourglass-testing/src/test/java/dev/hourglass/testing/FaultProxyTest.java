package dev.hourglass.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.hourglass.embedded.RedisServer;
import dev.hourglass.testing.FaultProxy.Direction;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Each fault of {@link FaultProxy} against a real Redis, seen by a real client (Lettuce). */
class FaultProxyTest {
  private static final Duration TIMEOUT = Duration.ofMillis(800);

  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  private FaultProxy proxy;
  private RedisClient client;
  private StatefulRedisConnection<String, String> connection;
  private RedisCommands<String, String> sync;
  private final AtomicInteger disconnects = new AtomicInteger();

  @BeforeEach
  void connect(RedisServer server) {
    proxy = FaultProxy.start(server.host(), server.port());
    client =
        RedisClient.create(
            RedisURI.builder()
                .withHost("127.0.0.1")
                .withPort(proxy.port())
                .withTimeout(TIMEOUT)
                .build());
    client.setOptions(
        ClientOptions.builder()
            .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
            .build());
    client.addListener(
        new RedisConnectionStateListener() {
          @Override
          public void onRedisDisconnected(io.lettuce.core.RedisChannelHandler<?, ?> c) {
            disconnects.incrementAndGet();
          }

          @Override
          public void onRedisConnected(
              io.lettuce.core.RedisChannelHandler<?, ?> c, SocketAddress address) {}
        });
    connection = client.connect();
    sync = connection.sync();
    assertThat(sync.ping()).isEqualTo("PONG");
  }

  @AfterEach
  void close() {
    client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    proxy.close();
  }

  @Test
  void dropClosesTheConnectionAndTheClientReconnectsWhenNewOnesAreAccepted() {
    proxy.dropAll(true);

    await().atMost(Duration.ofSeconds(20)).until(() -> disconnects.get() >= 1);
    assertThatThrownBy(() -> sync.set("k", "v")).isInstanceOf(RedisException.class);
    assertThat(proxy.openConnections()).isZero();

    proxy.acceptNew();
    await()
        .atMost(Duration.ofSeconds(30))
        .ignoreExceptions()
        .until(() -> "PONG".equals(sync.ping()));
    assertThat(proxy.openConnections()).isEqualTo(1);
  }

  @Test
  void stallHoldsACommandUntilItEndsAndKeepsTheConnection() {
    Duration stall = Duration.ofMillis(600);
    sync.setTimeout(Duration.ofSeconds(30));
    long start = System.nanoTime();
    proxy.stall(stall);

    assertThat(sync.set("k", "v")).isEqualTo("OK");

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(stall);
    assertThat(sync.get("k")).isEqualTo("v");
    assertThat(disconnects.get()).isZero();
    assertThat(proxy.openConnections()).isEqualTo(1);
  }

  @Test
  void latencyDelaysEachDirection() {
    Duration perChunk = Duration.ofMillis(150);
    sync.setTimeout(Duration.ofSeconds(30));
    proxy.latency(perChunk);

    long start = System.nanoTime();
    sync.ping();
    Duration rtt = Duration.ofNanos(System.nanoTime() - start);

    assertThat(rtt).isGreaterThanOrEqualTo(perChunk.multipliedBy(2));
    proxy.heal();
    assertThat(sync.ping()).isEqualTo("PONG");
  }

  @Test
  void aCutFromClientToServerTimesCommandsOutButKeepsTheConnection(RedisServer server) {
    proxy.cut(Direction.CLIENT_TO_SERVER, false);

    assertThatThrownBy(() -> sync.set("k", "held"))
        .isInstanceOf(RedisCommandTimeoutException.class);
    assertThat(server.command("EXISTS", "k")).isEqualTo("0"); // the server never saw it
    assertThat(proxy.openConnections()).isEqualTo(1);
    assertThat(connection.isOpen()).isTrue();

    proxy.restore();
    await().atMost(Duration.ofSeconds(30)).until(() -> "held".equals(server.command("GET", "k")));
    assertThat(sync.ping()).isEqualTo("PONG");
    assertThat(disconnects.get()).isZero();
  }

  @Test
  void aCutFromServerToClientTimesCommandsOutWhileTheServerActsOnThem(RedisServer server) {
    proxy.cut(Direction.SERVER_TO_CLIENT, false);

    assertThatThrownBy(() -> sync.set("k", "applied"))
        .isInstanceOf(RedisCommandTimeoutException.class);
    assertThat(server.command("GET", "k")).isEqualTo("applied"); // the other direction flowed
    assertThat(connection.isOpen()).isTrue();

    proxy.restore();
    assertThat(sync.ping()).isEqualTo("PONG");
    assertThat(disconnects.get()).isZero();
  }

  @Test
  void closeEndsEveryConnectionAndTheListener() {
    proxy.close();

    await().atMost(Duration.ofSeconds(20)).until(() -> disconnects.get() >= 1);
    assertThat(proxy.openConnections()).isZero();
    assertThatThrownBy(() -> new java.net.Socket("127.0.0.1", proxy.port()).getInputStream().read())
        .isInstanceOf(java.io.IOException.class);
  }
}
