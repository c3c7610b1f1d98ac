package dev.hourglass.internal.store;

import dev.hourglass.RedisVersionException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a server says it is in {@code INFO server}: Redis reports {@code redis_version}; Valkey
 * reports the Redis version it is compatible with there (7.2.4 for every Valkey so far) and its own
 * in {@code valkey_version}; Dragonfly likewise in {@code dragonfly_version}. Hourglass judges
 * every server by its {@code redis_version}, the commands and script behaviour it offers.
 *
 * @param product Redis, Valkey or Dragonfly
 * @param version the product's own version
 * @param redisVersion the Redis version it reports
 */
record ServerVersion(String product, String version, String redisVersion) {
  private static final Pattern MAJOR_MINOR = Pattern.compile("^(\\d+)\\.(\\d+)");

  /**
   * Reads an {@code INFO server} reply; empty when it has no {@code redis_version} (a server that
   * does not say what it is).
   */
  static Optional<ServerVersion> parse(String info) {
    Map<String, String> fields = new HashMap<>();
    for (String line : info.split("\r?\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && !line.startsWith("#")) {
        fields.put(line.substring(0, colon), line.substring(colon + 1).strip());
      }
    }
    String redis = fields.get("redis_version");
    if (redis == null) {
      return Optional.empty();
    }
    for (String product : new String[] {"valkey", "dragonfly"}) {
      String own = fields.get(product + "_version");
      if (own != null) {
        String name = Character.toUpperCase(product.charAt(0)) + product.substring(1);
        return Optional.of(new ServerVersion(name, own, redis));
      }
    }
    return Optional.of(new ServerVersion("Redis", redis, redis));
  }

  /**
   * Whether the Redis version is at least {@link RedisVersionException#MINIMUM}; a version that is
   * not {@code major.minor...} counts as supported (nothing to judge it by).
   */
  boolean supported() {
    Matcher have = MAJOR_MINOR.matcher(redisVersion);
    Matcher need = MAJOR_MINOR.matcher(RedisVersionException.MINIMUM);
    if (!have.find() || !need.find()) {
      return true;
    }
    int major = Integer.parseInt(have.group(1));
    int neededMajor = Integer.parseInt(need.group(1));
    return major != neededMajor
        ? major > neededMajor
        : Integer.parseInt(have.group(2)) >= Integer.parseInt(need.group(2));
  }

  /** E.g. {@code "Redis 7.0.15"}, {@code "Valkey 8.0.1 (redis_version 7.2.4)"}. */
  @Override
  public String toString() {
    return product.equals("Redis")
        ? "Redis " + version
        : product + " " + version + " (redis_version " + redisVersion + ")";
  }
}
