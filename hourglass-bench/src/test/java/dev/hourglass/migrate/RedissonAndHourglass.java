package dev.hourglass.migrate;

import dev.hourglass.Hourglass;
import dev.hourglass.testing.RedisExtension;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * A Redisson client (default codec, Kryo5Codec) and a Hourglass client on one real Redis, flushed
 * before each test, and the {@code handle} of the guide's snippets, which records what it gets.
 */
abstract class RedissonAndHourglass {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  /** Clocks of one machine: the Redis server's and the JVM's may round differently. */
  static final Duration CLOCK_TOLERANCE = Duration.ofMillis(5);

  static final Duration LIVENESS = Duration.ofSeconds(60);

  RedissonClient redisson;
  Hourglass hourglass;

  /** What {@link #handle} received, with when. */
  final List<Received> received = new CopyOnWriteArrayList<>();

  record Received(String order, Instant at) {}

  @BeforeEach
  void connect() {
    Config config = new Config();
    config.useSingleServer().setAddress(redis.uri());
    redisson = Redisson.create(config);
    hourglass = Hourglass.builder().redisUri(redis.uri()).build();
  }

  @AfterEach
  void disconnect() {
    hourglass.close();
    redisson.shutdown(0, 5, TimeUnit.SECONDS);
  }

  /** The application's work on one order, as the guide's snippets call it. */
  void handle(String order) {
    received.add(new Received(order, Instant.now()));
  }

  List<String> receivedOrders() {
    return received.stream().map(Received::order).toList();
  }

  /** The Redis server clock, which decides when Hourglass jobs fall due. */
  static Instant redisNow() {
    String[] time = redis.server().command("TIME").split("\n");
    return Instant.ofEpochMilli(
        Long.parseLong(time[0].trim()) * 1000 + Long.parseLong(time[1].trim()) / 1000);
  }
}
