package dev.hourglass.internal.store;

import java.time.Clock;

/**
 * An estimate of the Redis server's clock, from the offset seen in script replies. Used to pick the
 * time slot an enqueue expects (scripts check it against the true server time and fall back to the
 * exact near set when it does not fit, so a poor estimate costs memory, never correctness), and as
 * the created time of a job enqueued for an absolute time: a record the client writes whole (see
 * enqueue.lua), within about one round trip of the server's own clock. Due times never come from
 * it.
 */
public final class ServerClock {
  private final Clock clock;
  private volatile long offsetMs;
  private volatile boolean known;

  public ServerClock(Clock clock) {
    this.clock = clock;
  }

  /** Records a server time seen just now. */
  public void observe(long serverNowMs) {
    offsetMs = serverNowMs - clock.millis();
    known = true;
  }

  /** Whether a server time has been seen: until then {@link #nowMs} is this host's clock. */
  public boolean known() {
    return known;
  }

  /** The estimated server time now, in epoch ms. */
  public long nowMs() {
    return clock.millis() + offsetMs;
  }

  public Clock clock() {
    return clock;
  }
}
