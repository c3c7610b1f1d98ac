package dev.hourglass.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.hourglass.QueueSettings;
import dev.hourglass.server.auth.Role;
import dev.hourglass.server.auth.TokenRule;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Resolves the configuration: a flag wins over an environment variable, which wins over the YAML
 * file, which wins over the default. Every value is checked here, and a bad one fails with a {@link
 * ConfigException} that names the setting.
 *
 * <p>The YAML file holds the same keys as the flags ({@code port: 8080}) plus {@code tokens}, a
 * list of {@code {name, token, role: admin|producer|consumer|viewer, queues: [patterns]}}. Unknown
 * keys are refused, so a typo does not silently fall back to a default.
 */
public final class ConfigLoader {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private ConfigLoader() {}

  /**
   * Resolves every setting (a flag, else the environment, else the YAML file, else the default) and
   * checks it.
   *
   * @param flags values given as flags, by {@link Setting#key()}
   * @param env the process environment
   * @param yamlFile the YAML file, or null for none
   * @return the validated configuration
   * @throws ConfigException naming the first bad setting or unknown YAML key
   */
  public static ServerConfig load(
      Map<String, String> flags, Map<String, String> env, Path yamlFile) {
    JsonNode yaml = readYaml(yamlFile);
    Map<Setting, String> values = new HashMap<>();
    for (Setting s : Setting.values()) {
      String v = flags.get(s.key());
      if (v == null) {
        v = env.get(s.env());
      }
      if (v == null && yaml.hasNonNull(s.key())) {
        JsonNode n = yaml.get(s.key());
        if (!n.isValueNode()) {
          throw new ConfigException(s.names() + " must be a single value in " + yamlFile);
        }
        v = n.asText();
      }
      if (v == null) {
        v = s.defaultValue();
      }
      if (v != null) {
        values.put(s, v);
      }
    }
    List<TokenRule> tokens = new ArrayList<>(readTokens(yaml.get("tokens"), yamlFile));
    String admin = values.get(Setting.ADMIN_TOKEN);
    if (admin != null) {
      tokens.add(
          TokenRule.of(
              "admin-token",
              checkToken(Setting.ADMIN_TOKEN.names(), admin),
              Role.ADMIN,
              List.of("*")));
    }
    String bind = values.get(Setting.BIND);
    boolean allowUnauthenticated = bool(Setting.ALLOW_UNAUTHENTICATED, values);
    if (tokens.isEmpty() && !allowUnauthenticated && !isLoopback(bind)) {
      throw new ConfigException(
          Setting.BIND.names()
              + " is "
              + bind
              + ", not a loopback address, and auth is off (no tokens): give tokens ("
              + Setting.ADMIN_TOKEN.flag()
              + " or the YAML tokens list), or allow it explicitly with "
              + Setting.ALLOW_UNAUTHENTICATED.flag());
    }
    Optional<String> redis =
        Optional.ofNullable(values.get(Setting.REDIS)).filter(r -> !r.isBlank());
    redis.ifPresent(ConfigLoader::checkRedis);
    return new ServerConfig(
        bind,
        (int) number(Setting.PORT, values, 0, 65535),
        redis,
        Path.of(values.get(Setting.DATA_DIR)),
        embeddedRedis(values.get(Setting.EMBEDDED_REDIS)),
        values.get(Setting.PREFIX),
        (int) number(Setting.MAX_PAYLOAD_BYTES, values, 1, 64L * 1024 * 1024),
        (int) number(Setting.COMPRESS_ABOVE, values, 0, QueueSettings.MAX_COMPRESS_ABOVE),
        number(Setting.MAX_BODY_BYTES, values, 1024, 1024L * 1024 * 1024),
        Limits.of(values),
        Duration.ofMillis(number(Setting.SHUTDOWN_TIMEOUT_MS, values, 0, 3_600_000)),
        tokens,
        allowUnauthenticated,
        oneOf(Setting.LOG_FORMAT, values, "auto", "json", "text"),
        oneOf(Setting.LOG_LEVEL, values, "error", "warn", "info", "debug"),
        ArchiveConfig.of(values));
  }

  /** {@code auto}, {@code bundled} or the path of an executable. */
  private static String embeddedRedis(String value) {
    if (value.equals("auto") || value.equals("bundled")) {
      return value;
    }
    Path path = Path.of(value);
    if (!Files.isExecutable(path) || Files.isDirectory(path)) {
      throw new ConfigException(
          Setting.EMBEDDED_REDIS.names()
              + " is '"
              + value
              + "': give auto, bundled or the path of a redis-server or valkey-server executable");
    }
    return value;
  }

  private static JsonNode readYaml(Path file) {
    if (file == null) {
      return YAML.createObjectNode();
    }
    try {
      JsonNode node = YAML.readTree(Files.readAllBytes(file));
      if (node == null || node.isMissingNode() || node.isNull()) {
        return YAML.createObjectNode();
      }
      if (!node.isObject()) {
        throw new ConfigException("the config file " + file + " must hold a YAML mapping");
      }
      for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
        String key = it.next();
        if (!key.equals("tokens") && !isSetting(key)) {
          throw new ConfigException("unknown setting '" + key + "' in " + file);
        }
      }
      return node;
    } catch (IOException e) {
      throw new ConfigException("cannot read the config file " + file + ": " + e.getMessage());
    }
  }

  private static boolean isSetting(String key) {
    for (Setting s : Setting.values()) {
      if (s.key().equals(key)) {
        return true;
      }
    }
    return false;
  }

  private static List<TokenRule> readTokens(JsonNode list, Path file) {
    List<TokenRule> out = new ArrayList<>();
    if (list == null || list.isNull()) {
      return out;
    }
    if (!list.isArray()) {
      throw new ConfigException("tokens: in " + file + " must be a list");
    }
    for (int i = 0; i < list.size(); i++) {
      JsonNode t = list.get(i);
      String where = "tokens[" + i + "]";
      String name = text(t, "name", where).orElse("token-" + i);
      String token =
          text(t, "token", where)
              .orElseThrow(() -> new ConfigException(where + ".token: is required"));
      String roleText =
          text(t, "role", where)
              .orElseThrow(
                  () ->
                      new ConfigException(
                          where + ".role: is required (admin, producer, consumer or viewer)"));
      Role role;
      try {
        role = Role.valueOf(roleText.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new ConfigException(
            where + ".role: must be admin, producer, consumer or viewer, was " + roleText);
      }
      List<String> queues = new ArrayList<>();
      JsonNode q = t.get("queues");
      if (q == null || q.isNull()) {
        queues.add("*");
      } else if (q.isArray() && !q.isEmpty()) {
        q.forEach(p -> queues.add(p.asText()));
      } else {
        throw new ConfigException(
            where + ".queues: must be a non-empty list of queue name patterns");
      }
      out.add(TokenRule.of(name, checkToken(where + ".token", token), role, queues));
    }
    return out;
  }

  private static Optional<String> text(JsonNode node, String field, String where) {
    JsonNode v = node == null ? null : node.get(field);
    if (v == null || v.isNull()) {
      return Optional.empty();
    }
    if (!v.isValueNode()) {
      throw new ConfigException(where + "." + field + ": must be a single value");
    }
    return Optional.of(v.asText());
  }

  private static String checkToken(String name, String token) {
    if (token.length() < TokenRule.MIN_TOKEN_CHARS || token.isBlank()) {
      throw new ConfigException(
          name + ": a token must have at least " + TokenRule.MIN_TOKEN_CHARS + " characters");
    }
    return token;
  }

  private static void checkRedis(String uri) {
    String lower = uri.toLowerCase(Locale.ROOT);
    if (lower.startsWith("redis-cluster://")) {
      return;
    }
    boolean sentinel =
        lower.startsWith("redis-sentinel://") || lower.startsWith("rediss-sentinel://");
    // A sentinel URI lists every sentinel (host:port,host:port#master); only a data node list
    // needs the cluster scheme.
    if (lower.contains(",") && !sentinel) {
      throw new ConfigException(
          Setting.REDIS.names()
              + " "
              + uri
              + ": a list of nodes needs the redis-cluster:// scheme"
              + " (redis-cluster://host:port,host:port,...)");
    }
    if (!(lower.startsWith("redis://")
        || lower.startsWith("rediss://")
        || lower.startsWith("redis-sentinel://")
        || lower.startsWith("rediss-sentinel://")
        || lower.startsWith("redis-socket://"))) {
      throw new ConfigException(
          Setting.REDIS.names()
              + " must be a redis://, rediss://, redis-sentinel:// or redis-cluster:// URI, was "
              + uri);
    }
  }

  static long number(Setting s, Map<Setting, String> values, long min, long max) {
    String v = values.get(s);
    try {
      long n = Long.parseLong(v.trim());
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new ConfigException(
        s.names() + " must be an integer between " + min + " and " + max + ", was '" + v + "'");
  }

  private static boolean bool(Setting s, Map<Setting, String> values) {
    String v = values.get(s).trim().toLowerCase(Locale.ROOT);
    if (v.equals("true") || v.equals("false")) {
      return v.equals("true");
    }
    throw new ConfigException(s.names() + " must be true or false, was '" + values.get(s) + "'");
  }

  private static String oneOf(Setting s, Map<Setting, String> values, String... allowed) {
    String v = values.get(s).trim().toLowerCase(Locale.ROOT);
    for (String a : allowed) {
      if (a.equals(v)) {
        return a;
      }
    }
    throw new ConfigException(
        s.names()
            + " must be one of "
            + String.join(", ", allowed)
            + ", was '"
            + values.get(s)
            + "'");
  }

  private static boolean isLoopback(String bind) {
    try {
      return InetAddress.getByName(bind).isLoopbackAddress();
    } catch (UnknownHostException e) {
      throw new ConfigException(Setting.BIND.names() + " " + bind + " is not a known address");
    }
  }
}
