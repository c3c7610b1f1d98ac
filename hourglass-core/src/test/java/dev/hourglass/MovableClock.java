package dev.hourglass;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** The system clock, plus an offset a test moves forward (for the client's own timers). */
public final class MovableClock extends Clock {
  private volatile Duration offset = Duration.ZERO;

  public void advance(Duration by) {
    offset = offset.plus(by);
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Instant instant() {
    return Instant.now().plus(offset);
  }
}
