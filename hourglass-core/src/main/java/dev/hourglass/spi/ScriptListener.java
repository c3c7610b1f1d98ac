package dev.hourglass.spi;

import java.time.Duration;

/**
 * Observes every Lua script call the client makes, for metrics (the server records them as Redis
 * command latency). Called on Lettuce's event loop when the reply (or failure) arrives: it must be
 * fast and must not block or throw.
 */
@FunctionalInterface
public interface ScriptListener {

  /**
   * One script call finished.
   *
   * @param script the script's name, e.g. {@code enqueue}, {@code claim}, {@code ack}
   * @param elapsed from sending the call to its reply, including a NOSCRIPT reload
   * @param failure the failure, or null when Redis answered
   */
  void scriptCalled(String script, Duration elapsed, Throwable failure);

  /** A listener that does nothing. */
  ScriptListener NONE = (script, elapsed, failure) -> {};
}
