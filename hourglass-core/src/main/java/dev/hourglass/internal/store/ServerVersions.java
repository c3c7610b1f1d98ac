package dev.hourglass.internal.store;

import dev.hourglass.HourglassException;
import dev.hourglass.RedisUnavailableException;
import dev.hourglass.RedisVersionException;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The check, at connect, that Redis is recent enough ({@link RedisVersionException#MINIMUM}): on a
 * single server (or Sentinel's master) that server; on a Redis Cluster every node in the slot map
 * the client read, replicas included, since any of them may become a master.
 */
public final class ServerVersions {
  private static final Logger log = LoggerFactory.getLogger(ServerVersions.class);

  private ServerVersions() {}

  /**
   * Reads {@code INFO server} from every server the client talks to and refuses one that is too
   * old. A server that refuses {@code INFO} (an ACL without it, a renamed command) or does not say
   * its version is let through with a warning: the check is a courtesy, not a lock.
   *
   * @return the servers by address, e.g. {@code {127.0.0.1:6379=Redis 7.0.15}}
   * @throws RedisVersionException naming the first server that is too old
   * @throws RedisUnavailableException when Redis cannot be reached
   */
  public static Map<String, String> check(RedisConnector redis) {
    Map<String, String> infos;
    try {
      infos = Failures.await(redis.serverInfo());
    } catch (RedisUnavailableException e) {
      throw e;
    } catch (HourglassException e) {
      log.warn("Cannot read the Redis version (INFO server failed), so it is not checked: {}", e);
      return Map.of();
    }
    Map<String, String> found = new TreeMap<>();
    for (Map.Entry<String, String> info : infos.entrySet()) {
      String address = info.getKey();
      ServerVersion version = ServerVersion.parse(info.getValue()).orElse(null);
      if (version == null) {
        log.warn("Redis at {} does not report redis_version in INFO server; not checked", address);
        continue;
      }
      if (!version.supported()) {
        throw new RedisVersionException(version.toString(), address);
      }
      found.put(address, version.toString());
    }
    log.debug("Redis servers: {}", found);
    return found;
  }
}
