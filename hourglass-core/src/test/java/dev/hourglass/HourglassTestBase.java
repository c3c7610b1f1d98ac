package dev.hourglass;

import dev.hourglass.testing.RedisExtension;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A real standalone Redis per test class, flushed before each test, and clients closed after each.
 */
abstract class HourglassTestBase {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  private final List<Hourglass> clients = new ArrayList<>();

  /** Connections with this id or a higher one were opened by the running test. */
  private long firstClientId;

  @BeforeEach
  void noteFirstClientId() {
    firstClientId = RedisProbe.nextClientId(redis.server());
  }

  /**
   * A client on the test Redis with the background promoter off: tests drive {@link
   * Queue#promote()}.
   */
  Hourglass manual() {
    return client(b -> b.backgroundPromoter(false));
  }

  /** A client with the default background promoter. */
  Hourglass live() {
    return client(b -> b);
  }

  Hourglass client(UnaryOperator<HourglassBuilder> config) {
    Hourglass h = config.apply(Hourglass.builder().redisUri(redis.uri())).build();
    clients.add(h);
    return h;
  }

  static JobSpec job(String id) {
    return JobSpec.builder().id(id).payload("payload-" + id).build();
  }

  static JobSpec.Builder spec(String id) {
    return JobSpec.builder().id(id).payload("payload-" + id);
  }

  /** The Redis server clock, which decides when jobs fall due and leases lapse. */
  static Instant redisNow() {
    return RedisProbe.serverNow(redis.server());
  }

  /** Waits until the Redis server clock is past {@code instant}. */
  static void awaitRedisClockPast(Instant instant) {
    RedisProbe.awaitClockPast(redis.server(), instant);
  }

  /** The connections this test opened that sit blocked in BLPOP (a wake list) right now. */
  List<RedisProbe.Client> blockedInBlpop() {
    return RedisProbe.blockedInBlpop(redis.server(), firstClientId);
  }

  /** The connections this test opened (and did not close yet). */
  List<RedisProbe.Client> clientsOfThisTest() {
    return RedisProbe.clients(redis.server(), firstClientId);
  }

  @AfterEach
  void closeClients() {
    clients.forEach(Hourglass::close);
    clients.clear();
  }
}
