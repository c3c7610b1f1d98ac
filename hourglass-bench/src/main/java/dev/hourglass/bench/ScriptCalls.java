package dev.hourglass.bench;

import dev.hourglass.spi.ScriptListener;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** A Hourglass client's script calls by script, counted as its threads report them. */
final class ScriptCalls implements ScriptListener {
  private final Map<String, LongAdder> calls = new ConcurrentHashMap<>();

  @Override
  public void scriptCalled(String script, Duration elapsed, Throwable failure) {
    calls.computeIfAbsent(script, k -> new LongAdder()).increment();
  }

  /** The calls so far, by script name. */
  Map<String, Long> snapshot() {
    Map<String, Long> now = new TreeMap<>();
    calls.forEach((script, n) -> now.put(script, n.sum()));
    return now;
  }
}
