package dev.hourglass.testing.topology;

import dev.hourglass.embedded.RedisServerBuilder;
import java.time.Duration;

/**
 * Configures a {@link RedisSentinel}; obtained from {@link RedisSentinel#builder()}. Not
 * thread-safe; build on one thread.
 */
public final class RedisSentinelBuilder {
  private int replicas = 1;
  private int sentinels = 3;
  private int quorum;
  private Duration downAfter = Duration.ofSeconds(1);
  private boolean persistent;

  RedisSentinelBuilder() {}

  /**
   * Sets how many replicas the master starts with.
   *
   * @param count 0 to 4
   * @return this builder
   */
  public RedisSentinelBuilder replicas(int count) {
    if (count < 0 || count > 4) {
      throw new IllegalArgumentException("replicas " + count + ": 0 to 4");
    }
    this.replicas = count;
    return this;
  }

  /**
   * Sets how many sentinels monitor the master.
   *
   * @param count 1 to 5
   * @return this builder
   */
  public RedisSentinelBuilder sentinels(int count) {
    if (count < 1 || count > 5) {
      throw new IllegalArgumentException("sentinels " + count + ": 1 to 5");
    }
    this.sentinels = count;
    return this;
  }

  /**
   * Sets how many sentinels must agree that the master is down; default a majority.
   *
   * @param count 1 to the number of sentinels
   * @return this builder
   */
  public RedisSentinelBuilder quorum(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("quorum " + count);
    }
    this.quorum = count;
    return this;
  }

  /**
   * Sets how long the master must fail to answer before a sentinel judges it down ({@code
   * down-after-milliseconds}); default 1 s.
   *
   * @param duration at least 100 ms
   * @return this builder
   */
  public RedisSentinelBuilder downAfter(Duration duration) {
    if (duration.toMillis() < 100) {
      throw new IllegalArgumentException("downAfter " + duration + ": at least 100 ms");
    }
    this.downAfter = duration;
    return this;
  }

  /**
   * Gives every data node the append-only file, fsynced after every write ({@link
   * RedisServerBuilder#persistent()}).
   *
   * @return this builder
   */
  public RedisSentinelBuilder persistent() {
    this.persistent = true;
    return this;
  }

  /**
   * Creates the group, not started.
   *
   * @return the group
   * @throws IllegalArgumentException if the quorum exceeds the number of sentinels
   */
  public RedisSentinel build() {
    if (quorum > sentinels) {
      throw new IllegalArgumentException("quorum " + quorum + " > sentinels " + sentinels);
    }
    int votes = quorum > 0 ? quorum : sentinels / 2 + 1;
    return new RedisSentinel(
        new SentinelSettings(replicas, sentinels, votes, downAfter, persistent));
  }
}
