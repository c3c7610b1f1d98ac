package dev.hourglass.internal.store;

import java.time.Clock;

/**
 * An estimate of the Redis server's clock, from the offset seen in script replies. Used only to
 * pick a candidate time slot for an enqueue: scripts check the candidate against the true server
 * time and fall back to the exact near set when it does not fit, so a poor estimate costs memory,
 * never correctness.
 */
public final class ServerClock {
  private final Clock clock;
  private volatile long offsetMs;

  public ServerClock(Clock clock) {
    this.clock = clock;
  }

  /** Records a server time seen just now. */
  public void observe(long serverNowMs) {
    offsetMs = serverNowMs - clock.millis();
  }

  /** The estimated server time now, in epoch ms. */
  public long nowMs() {
    return clock.millis() + offsetMs;
  }

  public Clock clock() {
    return clock;
  }
}
