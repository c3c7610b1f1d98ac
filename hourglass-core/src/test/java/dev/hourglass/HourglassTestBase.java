package dev.hourglass;

import dev.hourglass.testing.RedisExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A real standalone Redis per test class, flushed before each test, and clients closed after each.
 */
abstract class HourglassTestBase {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  private final List<Hourglass> clients = new ArrayList<>();

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

  @AfterEach
  void closeClients() {
    clients.forEach(Hourglass::close);
    clients.clear();
  }
}
