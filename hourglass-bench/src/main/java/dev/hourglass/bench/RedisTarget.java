package dev.hourglass.bench;

import dev.hourglass.embedded.RedisServer;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.models.command.CommandDetail;
import io.lettuce.core.models.command.CommandDetailParser;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The Redis a run measures: the embedded {@code redis-server} this class starts, or the one at a
 * given URL. Holds the harness's own admin connection (INFO, FLUSHALL, SCAN, MEMORY USAGE), apart
 * from the systems' connections.
 */
final class RedisTarget implements AutoCloseable {
  private static final long SETTLE_MS = 500;

  private final RedisServer embedded;
  private final String uri;
  private final RedisClient client;
  private final StatefulRedisConnection<String, String> connection;
  private final RedisCommands<String, String> redis;

  private RedisTarget(RedisServer embedded, String uri) {
    this.embedded = embedded;
    this.uri = uri;
    RedisURI redisUri = RedisURI.create(uri);
    redisUri.setTimeout(Duration.ofMinutes(5)); // MEMORY USAGE of a 10M-member key takes a while
    this.client = RedisClient.create(redisUri);
    this.connection = client.connect();
    this.redis = connection.sync();
  }

  /** Connects to {@code url}, or starts an embedded Redis when it is null. */
  static RedisTarget open(String url) {
    if (url != null) {
      return new RedisTarget(null, url);
    }
    RedisServer server = RedisServer.builder().build();
    try {
      server.start();
      return new RedisTarget(server, server.uri());
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
  }

  String uri() {
    return uri;
  }

  /** One line describing the Redis, for the output header. */
  String describe() {
    return "redis "
        + info("server", "redis_version")
        + " at "
        + uri
        + (embedded != null ? " (embedded, started by the harness)" : " (given)");
  }

  void flushAll() {
    redis.flushall();
  }

  String info(String section, String field) {
    String value = section(redis.info(section)).get(field);
    if (value == null) {
      throw new IllegalStateException("no " + field + " in INFO " + section);
    }
    return value;
  }

  /**
   * {@code used_memory}, {@code used_memory_dataset} (used memory without the server's overhead:
   * client buffers, the keyspace's own tables and so on) and {@code used_memory_rss}, read after a
   * short pause that lets Redis's cron shrink the client buffers a fill left behind.
   */
  Memory memory() throws InterruptedException {
    Thread.sleep(SETTLE_MS);
    return new Memory(
        Long.parseLong(info("memory", "used_memory")),
        Long.parseLong(info("memory", "used_memory_dataset")),
        Long.parseLong(info("memory", "used_memory_rss")));
  }

  /** Three figures of INFO memory, in bytes. */
  record Memory(long used, long dataset, long rss) {}

  /**
   * {@code MEMORY PURGE}: jemalloc hands the pages Redis freed back to the system, so that the next
   * fill pays for new memory as the first did (this machine charges 2 to 12 us a page, see {@code
   * first-touch}). Returns Redis's error instead when it refuses (a managed Redis may).
   */
  String purgeMemory() {
    try {
      return redis.dispatch(
          CommandType.MEMORY,
          new StatusOutput<>(StringCodec.UTF8),
          new CommandArgs<>(StringCodec.UTF8).add("PURGE"));
    } catch (RedisCommandExecutionException e) {
      return e.getMessage();
    }
  }

  /**
   * CPU seconds the Redis process has used (INFO cpu, user + system, all its threads), read on the
   * admin connection without waiting: a caller on a client's I/O thread must not block it. Redis
   * answers once it has run what it had already read from other clients.
   */
  CompletableFuture<Double> cpuSecondsAsync() {
    return connection.async().info("cpu").toCompletableFuture().thenApply(RedisTarget::cpuSeconds);
  }

  double cpuSeconds() {
    return cpuSeconds(redis.info("cpu"));
  }

  static double cpuSeconds(String info) {
    Map<String, String> cpu = section(info);
    return Double.parseDouble(cpu.get("used_cpu_user"))
        + Double.parseDouble(cpu.get("used_cpu_sys"));
  }

  /** The {@code field:value} lines of an INFO reply. */
  private static Map<String, String> section(String info) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (String line : info.split("\r?\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && !line.startsWith("#")) {
        fields.put(line.substring(0, colon), line.substring(colon + 1).trim());
      }
    }
    return fields;
  }

  long dbSize() {
    return redis.dbsize();
  }

  /**
   * Calls per command from INFO commandstats. Each call of this method is itself one INFO call,
   * which the next snapshot counts.
   */
  Map<String, Long> commandCalls() {
    Map<String, Long> calls = new LinkedHashMap<>();
    for (String line : redis.info("commandstats").split("\r?\n")) {
      if (!line.startsWith("cmdstat_")) {
        continue;
      }
      int colon = line.indexOf(':');
      String name = line.substring("cmdstat_".length(), colon);
      for (String part : line.substring(colon + 1).split(",")) {
        if (part.startsWith("calls=")) {
          calls.put(name, Long.parseLong(part.substring("calls=".length())));
        }
      }
    }
    return calls;
  }

  /**
   * Which of these commands (commandstats names: {@code config|resetstat} is CONFIG's subcommand)
   * no script may run: COMMAND INFO flags them noscript.
   */
  Set<String> noscriptCommands(Collection<String> commands) {
    Set<String> noscript = new HashSet<>();
    for (String command : commands) {
      String top = command.contains("|") ? command.substring(0, command.indexOf('|')) : command;
      List<CommandDetail> details = CommandDetailParser.parse(redis.commandInfo(top));
      if (!details.isEmpty()
          && details.get(0) != null
          && details.get(0).getFlags().contains(CommandDetail.Flag.NOSCRIPT)) {
        noscript.add(command);
      }
    }
    return noscript;
  }

  /** Up to {@code max} key names, by SCAN. */
  List<String> keys(int max) {
    List<String> keys = new ArrayList<>();
    ScanCursor cursor = ScanCursor.INITIAL;
    do {
      KeyScanCursor<String> page = redis.scan(cursor, ScanArgs.Builder.limit(1000));
      keys.addAll(page.getKeys());
      cursor = page;
    } while (!cursor.isFinished() && keys.size() < max);
    return keys.size() > max ? keys.subList(0, max) : keys;
  }

  /** {@code MEMORY USAGE key SAMPLES 0}: every element counted; 0 if the key is gone. */
  long memoryUsage(String key) {
    Long bytes =
        redis.dispatch(
            CommandType.MEMORY,
            new IntegerOutput<>(StringCodec.UTF8),
            new CommandArgs<>(StringCodec.UTF8).add("USAGE").addKey(key).add("SAMPLES").add(0));
    return bytes == null ? 0 : bytes;
  }

  @Override
  public void close() {
    try {
      connection.close();
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    } finally {
      if (embedded != null) {
        embedded.close();
      }
    }
  }
}
