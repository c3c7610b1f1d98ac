package dev.hourglass;

import static org.awaitility.Awaitility.await;

import dev.hourglass.embedded.RedisServer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a test waits for, read from the Redis server itself: its clock, which decides when jobs fall
 * due and leases lapse, and its clients, which show who sits blocked in a BLPOP. Waiting for these
 * instead of sleeping keeps a test right however slow the machine is.
 */
final class RedisProbe {
  /**
   * The longest a test waits for something that must happen: a liveness bound, far above the
   * expected time, never a measurement (timings belong to hourglass-bench).
   */
  static final Duration LIVENESS = Duration.ofSeconds(30);

  private RedisProbe() {}

  /** The server clock in milliseconds, as the Lua scripts read it (TIME, microseconds cut). */
  static long serverNowMs(RedisServer server) {
    String[] t = server.command("TIME").split("\n");
    return Long.parseLong(t[0].trim()) * 1000 + Long.parseLong(t[1].trim()) / 1000;
  }

  static Instant serverNow(RedisServer server) {
    return Instant.ofEpochMilli(serverNowMs(server));
  }

  /**
   * Waits until the server clock is past {@code instant}: a job due then is due, a lease ending
   * then has lapsed, for every script from now on.
   */
  static void awaitClockPast(RedisServer server, Instant instant) {
    await("the Redis clock passes " + instant)
        .atMost(LIVENESS)
        .pollInterval(Duration.ofMillis(10))
        .until(() -> serverNowMs(server) > instant.toEpochMilli());
  }

  /** One connection as {@code CLIENT LIST} shows it. */
  record Client(long id, String cmd, String flags, long idleSeconds) {
    /** Blocked in a blocking command (flag b). */
    boolean blocked() {
      return flags.contains("b");
    }
  }

  /**
   * The id the next connection to the server will get: every client opened later has a higher one.
   */
  static long nextClientId(RedisServer server) {
    return Long.parseLong(server.command("CLIENT", "ID").trim()) + 1;
  }

  /** The server's connections whose id is {@code fromId} or more. */
  static List<Client> clients(RedisServer server, long fromId) {
    List<Client> clients = new ArrayList<>();
    for (String line : server.command("CLIENT", "LIST").split("\r?\n")) {
      if (line.isBlank()) {
        continue;
      }
      Map<String, String> fields = new HashMap<>();
      for (String field : line.trim().split(" ")) {
        int eq = field.indexOf('=');
        if (eq > 0) {
          fields.put(field.substring(0, eq), field.substring(eq + 1));
        }
      }
      long id = Long.parseLong(fields.get("id"));
      if (id >= fromId) {
        clients.add(
            new Client(
                id, fields.get("cmd"), fields.get("flags"), Long.parseLong(fields.get("idle"))));
      }
    }
    return clients;
  }

  /** The connections opened from {@code fromId} on that sit blocked in BLPOP right now. */
  static List<Client> blockedInBlpop(RedisServer server, long fromId) {
    return clients(server, fromId).stream()
        .filter(c -> c.blocked() && "blpop".equals(c.cmd()))
        .toList();
  }

  /** Calls per command from {@code INFO commandstats} (commands run inside scripts included). */
  static Map<String, Long> commandCalls(RedisServer server) {
    Map<String, Long> calls = new TreeMap<>();
    for (String line : server.command("INFO", "commandstats").split("\r?\n")) {
      if (line.startsWith("cmdstat_")) {
        String name = line.substring("cmdstat_".length(), line.indexOf(':'));
        String rest = line.substring(line.indexOf("calls=") + 6);
        calls.put(name, Long.parseLong(rest.substring(0, rest.indexOf(','))));
      }
    }
    return calls;
  }
}
