package dev.hourglass.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ServerClockTest {
  private static final long MS = 1_000_000;
  private final AtomicLong monotonic = new AtomicLong(5_000 * MS);
  private final ServerClock clock = new ServerClock(monotonic::get);
  private final Keys keys = new Keys("hg");
  private final Partition fast = keys.partition("q", 0, 2, 40);
  private final Partition slow = keys.partition("q", 1, 2, 40);

  @Test
  void eachPartitionKeepsTheEstimateOfItsOwnServer() {
    // Two masters whose clocks differ by 2 s: neither partition's estimate runs ahead of its own.
    clock.observe(fast, 1_002_000);
    clock.observe(slow, 1_000_000);
    monotonic.addAndGet(10 * MS);

    assertThat(clock.forPartition(fast).nowMs()).isEqualTo(1_002_010);
    assertThat(clock.forPartition(slow).nowMs()).isEqualTo(1_000_010);
    assertThat(clock.nowMs())
        .as("the client's estimate: the highest bound seen")
        .isEqualTo(1_002_010);
  }

  @Test
  void aResetMovesOnlyThatPartitionsEstimateBack() {
    clock.observe(fast, 2_000_000);
    clock.forPartition(slow).reset(1_000_000);

    assertThat(clock.forPartition(slow).nowMs()).isEqualTo(1_000_000);
    assertThat(clock.forPartition(fast).nowMs()).isEqualTo(2_000_000);
  }

  @Test
  void aPartitionWithoutAnswersUsesTheClientsEstimate() {
    clock.observe(1_500_000);
    monotonic.addAndGet(3 * MS);

    assertThat(clock.forPartition(slow).nowMs()).isEqualTo(1_500_003);
  }
}
