package dev.hourglass.internal.store;

import dev.hourglass.HourglassException;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.LayoutVersionException;
import dev.hourglass.RedisUnavailableException;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandInterruptedException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** The one place where Redis client failures become Hourglass's typed exceptions. */
public final class Failures {
  /**
   * Error replies of a server that cannot run the command now, before it changed anything: loading
   * its data, busy with a long script, a replica being promoted or refusing writes, a cluster slot
   * unavailable or moving.
   */
  private static final List<String> NOT_READY =
      List.of("LOADING", "BUSY", "MASTERDOWN", "READONLY", "CLUSTERDOWN", "TRYAGAIN", "NOREPLICAS");

  private Failures() {}

  /** Waits for a future of a Redis call and translates its failure. */
  public static <T> T await(CompletableFuture<T> future) {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new HourglassException("interrupted while waiting for Redis", e);
    } catch (ExecutionException e) {
      throw translate(e.getCause());
    }
  }

  /** Maps any failure of a Redis call to an {@link HourglassException}. */
  public static HourglassException translate(Throwable failure) {
    Throwable t = failure;
    while ((t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    if (t instanceof HourglassException h) {
      return h;
    }
    if (t instanceof RedisCommandTimeoutException) {
      return new RedisUnavailableException(
          "Redis did not answer in time; the command may or may not have taken effect", true, t);
    }
    if (t instanceof RedisConnectionException) {
      return new RedisUnavailableException("cannot connect to Redis: " + rootMessage(t), false, t);
    }
    if (t instanceof RedisCommandInterruptedException) {
      Thread.currentThread().interrupt();
      return new HourglassException("interrupted while waiting for Redis", t);
    }
    if (t instanceof RedisCommandExecutionException) {
      String message = String.valueOf(t.getMessage());
      if (NOT_READY.stream()
          .anyMatch(code -> message.startsWith(code) || message.contains("-" + code + " "))) {
        // Refused before it changed anything (as a reply, or from inside a script on its first
        // write), so it can be retried.
        return new RedisUnavailableException("Redis is not ready: " + message, false, t);
      }
      int at = message.indexOf("HG_IMMUTABLE ");
      if (at >= 0) {
        String detail = message.substring(at + "HG_IMMUTABLE ".length());
        return new InvalidArgumentException(detail.substring(0, detail.indexOf(' ')), detail);
      }
      if (message.contains("HG_LAYOUT")) {
        return new LayoutVersionException(message);
      }
      return new HourglassException("Redis refused a command: " + message, t);
    }
    if (t instanceof java.io.IOException) {
      // Raw channel failures (reset, broken pipe, closed channel) that Lettuce passes on as they
      // are.
      return new RedisUnavailableException(
          "lost the Redis connection: " + t + "; the command may or may not have taken effect",
          true,
          t);
    }
    if (t instanceof RedisException) {
      String message = String.valueOf(t.getMessage());
      boolean notSent =
          message.contains("not connected") || message.contains("Commands are rejected");
      return new RedisUnavailableException(
          "lost the Redis connection: "
              + message
              + (notSent ? "" : "; the command may or may not have taken effect"),
          !notSent,
          t);
    }
    return new HourglassException("unexpected failure talking to Redis: " + t, t);
  }

  private static String rootMessage(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root == t
        ? String.valueOf(t.getMessage())
        : t.getMessage() + " (" + root.getMessage() + ")";
  }
}
