package dev.hourglass.server;

import dev.hourglass.embedded.RedisServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Everything a test can compare about the data in a Redis, read in one Lua call: per key, a SHA-1
 * of its type, whether it has a time to live, and its content in a canonical order (hash fields and
 * set members sorted, lists and sorted sets in their own order), so equal data gives equal digests
 * whatever the encoding.
 *
 * <p>Two kinds of Hourglass key are left out, because the server writes them in the background
 * without any request: the partition {@code meta} hashes (promoter lock, due time, watermark) and
 * the {@code wake} lists (hint tokens that long-poll watchers pop and push back).
 */
record RedisState(Map<String, String> digests) {
  private static final String DIGEST =
      """
      local out = {}
      local keys = redis.call('KEYS', '*')
      table.sort(keys)
      for _, k in ipairs(keys) do
        local tail = string.sub(k, -5)
        if tail ~= ':meta' and tail ~= ':wake' then
          local t = redis.call('TYPE', k)['ok']
          local v
          if t == 'string' then
            v = { redis.call('GET', k) }
          elseif t == 'hash' then
            local flat = redis.call('HGETALL', k)
            v = {}
            for i = 1, #flat, 2 do v[#v + 1] = #flat[i] .. ':' .. flat[i] .. flat[i + 1] end
            table.sort(v)
          elseif t == 'zset' then
            v = redis.call('ZRANGE', k, 0, -1, 'WITHSCORES')
          elseif t == 'list' then
            v = redis.call('LRANGE', k, 0, -1)
          elseif t == 'set' then
            v = redis.call('SMEMBERS', k)
            table.sort(v)
          else
            v = { redis.call('DUMP', k) }
          end
          local parts = { t, tostring(redis.call('PTTL', k) >= 0) }
          for _, e in ipairs(v) do parts[#parts + 1] = #e .. ':' .. e end
          out[#out + 1] = k
          out[#out + 1] = redis.sha1hex(table.concat(parts, ','))
        end
      end
      return out
      """;

  /**
   * Takes the promoter lock of every partition for an hour, with the fields promote.lua reads
   * ({@code po} owner, {@code pu} until, in ms of the Redis clock): the server's promoters then
   * find the lock held by someone else and stay idle, so nothing moves by time (due jobs to ready,
   * lapsed leases back, ttl expiry) unless a request moves it. A lock the test holds for another
   * half hour at least is left as it is, so that holding writes nothing most of the time.
   */
  private static final String HOLD_PROMOTERS =
      """
      redis.replicate_commands()
      local t = redis.call('TIME')
      local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
      local holder = 'test-holds-the-promoter-lock'
      local n = 0
      for _, k in ipairs(redis.call('KEYS', '*:meta')) do
        if redis.call('TYPE', k)['ok'] == 'hash' then
          local lock = redis.call('HMGET', k, 'po', 'pu')
          if lock[1] ~= holder or tonumber(lock[2]) < now_ms + 1800000 then
            redis.call('HSET', k, 'po', holder, 'pu', now_ms + 3600000)
            n = n + 1
          end
        end
      end
      return n
      """;

  static RedisState read(RedisServer redis) {
    String reply = redis.command("EVAL", DIGEST, "0");
    Map<String, String> digests = new TreeMap<>();
    if (reply != null && !reply.isEmpty()) {
      String[] flat = reply.split("\n", -1);
      for (int i = 0; i + 1 < flat.length; i += 2) {
        digests.put(flat[i], flat[i + 1]);
      }
    }
    return new RedisState(digests);
  }

  /**
   * Redis's count of changes to its data since it last saved ({@code rdb_changes_since_last_save}
   * in INFO persistence): every write adds to it, so while it stands still the data is unchanged.
   */
  static long writes(RedisServer redis) {
    return redis
        .command("INFO", "persistence")
        .lines()
        .filter(l -> l.startsWith("rdb_changes_since_last_save:"))
        .mapToLong(l -> Long.parseLong(l.substring(l.indexOf(':') + 1).trim()))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no rdb_changes_since_last_save in INFO"));
  }

  static void holdPromoters(RedisServer redis) {
    redis.command("EVAL", HOLD_PROMOTERS, "0");
  }

  /** The keys added, removed or changed from {@code before} to this; empty when equal. */
  List<String> changesSince(RedisState before) {
    List<String> changes = new ArrayList<>();
    TreeSet<String> keys = new TreeSet<>(digests.keySet());
    keys.addAll(before.digests.keySet());
    for (String k : keys) {
      String was = before.digests.get(k);
      String is = digests.get(k);
      if (was == null) {
        changes.add("added " + k);
      } else if (is == null) {
        changes.add("removed " + k);
      } else if (!Objects.equals(was, is)) {
        changes.add("changed " + k);
      }
    }
    return changes;
  }
}
