package dev.hourglass.internal;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Loads every Lua script once and runs them by EVALSHA. When Redis answers NOSCRIPT (a restart, a
 * failover, a SCRIPT FLUSH) the script is sent once with EVAL, which also caches it again on the
 * server.
 */
public final class ScriptRegistry {
  private static final String RESOURCE_DIR = "/dev/hourglass/lua/";

  private final Map<Script, byte[]> sources = new EnumMap<>(Script.class);
  private final Map<Script, String> digests = new EnumMap<>(Script.class);

  public ScriptRegistry() {
    String prelude = read("prelude.lua");
    for (Script script : Script.values()) {
      String body = read(script.fileName());
      String source = script.partitionScript() ? prelude + "\n" + body : body;
      byte[] bytes = source.getBytes(StandardCharsets.UTF_8);
      sources.put(script, bytes);
      digests.put(script, sha1Hex(bytes));
    }
  }

  /**
   * Runs a script. The future completes with the script's reply (a list, as MULTI output) or fails
   * with the Lettuce exception; callers translate failures through {@link Failures}.
   */
  public CompletableFuture<List<Object>> run(
      RedisClusterAsyncCommands<byte[], byte[]> redis,
      Script script,
      byte[][] keys,
      byte[][] args) {
    CompletableFuture<List<Object>> first =
        redis
            .<List<Object>>evalsha(digests.get(script), ScriptOutputType.MULTI, keys, args)
            .toCompletableFuture();
    return first.exceptionallyCompose(
        failure -> {
          if (unwrap(failure) instanceof RedisNoScriptException) {
            return redis
                .<List<Object>>eval(sources.get(script), ScriptOutputType.MULTI, keys, args)
                .toCompletableFuture();
          }
          return CompletableFuture.failedFuture(failure);
        });
  }

  private static Throwable unwrap(Throwable t) {
    return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
  }

  private static String read(String file) {
    try (InputStream in = ScriptRegistry.class.getResourceAsStream(RESOURCE_DIR + file)) {
      if (in == null) {
        throw new IllegalStateException("Lua script missing from the jar: " + RESOURCE_DIR + file);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read Lua script " + file, e);
    }
  }

  private static String sha1Hex(byte[] bytes) {
    return HexFormat.of().formatHex(Keys.sha1(bytes));
  }
}
