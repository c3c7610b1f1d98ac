package dev.hourglass.bench;

import dev.hourglass.QueueSettings;
import dev.hourglass.embedded.RedisServer;
import dev.hourglass.embedded.RedisServerBuilder;
import dev.hourglass.testing.FaultProxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;

/**
 * One Redis (AOF with {@code appendfsync always} unless {@code --aof off}) that the server and
 * consumer JVMs reach through a {@link FaultProxy}; the producer connects directly. Faults: a Redis
 * SIGKILL (restarted after 0.5 to 2 s), a Redis stall (SIGSTOP, SIGCONT after 1 to 3 s), and proxy
 * faults: every connection dropped and new ones refused for 0.5 to 2 s; a stall of both directions
 * for 1 to 3 s; a latency spike (20 to 200 ms a chunk, each direction, for 2 to 6 s); one direction
 * cut (its bytes held) for 1 to 6 s, after which the held bytes flow or, drawn, every connection is
 * dropped, as a partition that ends in resets.
 */
final class StandaloneTopology implements SoakTopology {
  private final RedisServer redis;
  private final boolean aof;
  private FaultProxy proxy;

  StandaloneTopology(Path dir, boolean aof) {
    RedisServerBuilder builder = RedisServer.builder().dataDir(dir.resolve("redis"));
    this.redis = (aof ? builder.persistent() : builder).build();
    this.aof = aof;
  }

  @Override
  public String name() {
    return "standalone";
  }

  @Override
  public void start() {
    redis.start();
    proxy = FaultProxy.start(redis.host(), redis.port());
  }

  @Override
  public String clientUri() {
    return "redis://127.0.0.1:" + proxy.port();
  }

  @Override
  public String producerUri() {
    return redis.uri();
  }

  @Override
  public String describe() {
    return "redis "
        + redis.uri()
        + (aof ? " (AOF, appendfsync always)" : " (no AOF: a kill loses data)")
        + "; server and consumers through a fault proxy on "
        + clientUri();
  }

  @Override
  public QueueSettings queueSettings() {
    return null;
  }

  @Override
  public List<String> faultKinds() {
    return List.of(
        "redis-kill", "redis-stall", "proxy-drop", "proxy-stall", "proxy-latency", "proxy-cut");
  }

  @Override
  public String inject(String kind, Random random) throws InterruptedException {
    switch (kind) {
      case "redis-kill" -> {
        long pauseMs = 500 + random.nextInt(1501);
        redis.kill();
        SoakTopology.sleep(pauseMs);
        redis.start();
        return "redis";
      }
      case "redis-stall" -> {
        long pauseMs = 1000 + random.nextInt(2001);
        redis.pause();
        SoakTopology.hold(pauseMs, redis::resume);
        return "redis";
      }
      case "proxy-drop" -> {
        long pauseMs = 500 + random.nextInt(1501);
        proxy.dropAll(true);
        SoakTopology.hold(pauseMs, proxy::acceptNew);
        return "proxy";
      }
      case "proxy-stall" -> {
        long pauseMs = 1000 + random.nextInt(2001);
        proxy.stall(Duration.ofMillis(pauseMs));
        SoakTopology.sleep(pauseMs);
        return "proxy";
      }
      case "proxy-latency" -> {
        long latencyMs = 20 + random.nextInt(181);
        long pauseMs = 2000 + random.nextInt(4001);
        proxy.latency(Duration.ofMillis(latencyMs));
        SoakTopology.hold(pauseMs, () -> proxy.latency(Duration.ZERO));
        return "proxy+" + latencyMs + "ms";
      }
      case "proxy-cut" -> {
        FaultProxy.Direction direction =
            FaultProxy.Direction.values()[random.nextInt(FaultProxy.Direction.values().length)];
        long pauseMs = 1000 + random.nextInt(5001);
        boolean dropAfter = random.nextBoolean();
        proxy.cut(direction, false);
        SoakTopology.hold(
            pauseMs,
            () -> {
              if (dropAfter) {
                proxy.dropAll(false);
              }
              proxy.restore();
            });
        return "proxy-"
            + (direction == FaultProxy.Direction.CLIENT_TO_SERVER ? "c2s" : "s2c")
            + (dropAfter ? "-drop" : "");
      }
      default -> throw new IllegalArgumentException(kind);
    }
  }

  @Override
  public void ensureRunning() {
    if (!redis.isRunning()) {
      redis.start();
    }
    proxy.heal();
  }

  @Override
  public void close() {
    if (proxy != null) {
      proxy.close();
    }
    redis.close();
  }
}
