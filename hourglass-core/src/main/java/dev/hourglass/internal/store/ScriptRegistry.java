package dev.hourglass.internal.store;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Loads every Lua script once and runs them by EVALSHA. When Redis answers NOSCRIPT (a restart, a
 * failover, a SCRIPT FLUSH) the script is sent once with EVAL, which also caches it again on the
 * server. A script's error message names the file and line of the Lua source it came from.
 */
final class ScriptRegistry {
  /**
   * The one registry of the JVM: the scripts, their texts and digests are the same for every
   * client, and immutable once loaded.
   */
  static final ScriptRegistry SHARED = new ScriptRegistry();

  private final Map<Script, LuaSource> sources = new EnumMap<>(Script.class);
  private final Map<Script, byte[]> bytes = new EnumMap<>(Script.class);
  private final Map<Script, String> digests = new EnumMap<>(Script.class);

  ScriptRegistry() {
    for (Script script : Script.values()) {
      LuaSource source = LuaSource.load(script.fileName());
      byte[] b = source.text().getBytes(StandardCharsets.UTF_8);
      sources.put(script, source);
      bytes.put(script, b);
      digests.put(script, HexFormat.of().formatHex(sha1(b)));
    }
  }

  /** The SHA-1 digest by which EVALSHA names a script. */
  private static byte[] sha1(byte[] script) {
    try {
      return MessageDigest.getInstance("SHA-1").digest(script);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 is required of every Java platform", e);
    }
  }

  /** The composed source of a script, as Redis runs it. */
  LuaSource source(Script script) {
    return sources.get(script);
  }

  /**
   * Runs a script. The future completes with the script's reply (a list, as MULTI output) or fails
   * with the Lettuce exception, a script error's message naming its Lua file and line.
   */
  CompletableFuture<List<Object>> run(
      RedisClusterAsyncCommands<byte[], byte[]> redis,
      Script script,
      byte[][] keys,
      byte[][] args) {
    return redis
        .<List<Object>>evalsha(digests.get(script), ScriptOutputType.MULTI, keys, args)
        .toCompletableFuture()
        .exceptionallyCompose(
            failure -> {
              if (unwrap(failure) instanceof RedisNoScriptException) {
                return redis
                    .<List<Object>>eval(bytes.get(script), ScriptOutputType.MULTI, keys, args)
                    .toCompletableFuture();
              }
              return CompletableFuture.failedFuture(failure);
            })
        .exceptionallyCompose(failure -> CompletableFuture.failedFuture(located(script, failure)));
  }

  private Throwable located(Script script, Throwable failure) {
    Throwable t = unwrap(failure);
    if (t instanceof RedisCommandExecutionException e && e.getMessage() != null) {
      String located = sources.get(script).locate(e.getMessage());
      if (!located.equals(e.getMessage())) {
        return new RedisCommandExecutionException(located, e);
      }
    }
    return t;
  }

  private static Throwable unwrap(Throwable t) {
    return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
  }
}
