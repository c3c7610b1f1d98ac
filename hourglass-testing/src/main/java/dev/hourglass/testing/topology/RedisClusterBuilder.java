package dev.hourglass.testing.topology;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Configures a {@link RedisCluster}; obtained from {@link RedisCluster#builder()}. Not thread-safe;
 * build on one thread.
 */
public final class RedisClusterBuilder {
  private int replicasPerMaster;
  private Duration nodeTimeout = Duration.ofSeconds(5);
  private Path binary;
  private final List<String> launcher = new ArrayList<>();
  private Duration startupTimeout; // null: RedisServer's default

  RedisClusterBuilder() {}

  /**
   * Sets how many replicas each master gets.
   *
   * @param count 0 or 1
   * @return this builder
   */
  public RedisClusterBuilder replicasPerMaster(int count) {
    if (count < 0 || count > 1) {
      throw new IllegalArgumentException("replicasPerMaster " + count + ": 0 or 1");
    }
    this.replicasPerMaster = count;
    return this;
  }

  /**
   * Sets {@code cluster-node-timeout}: how long a node may not answer before the others judge it
   * failed and its replica takes over.
   *
   * @param timeout at least 100 ms
   * @return this builder
   */
  public RedisClusterBuilder nodeTimeout(Duration timeout) {
    if (timeout.toMillis() < 100) {
      throw new IllegalArgumentException("nodeTimeout " + timeout + ": at least 100 ms");
    }
    this.nodeTimeout = timeout;
    return this;
  }

  /**
   * Runs every node from {@code executable} instead of the default binary (see {@link
   * dev.hourglass.embedded.RedisServerBuilder#binary}).
   *
   * @param executable a {@code redis-server} or {@code valkey-server}
   * @return this builder
   */
  public RedisClusterBuilder binary(Path executable) {
    this.binary = Objects.requireNonNull(executable, "executable");
    return this;
  }

  /**
   * Runs every node through a tool that executes it in the same process, e.g. {@code
   * launcher("valgrind", "--tool=callgrind")} (see {@link
   * dev.hourglass.embedded.RedisServerBuilder#launcher}). A slow tool wants a longer {@link
   * #startupTimeout} and {@link #nodeTimeout}.
   *
   * @param words the tool and its options, added after those of earlier calls
   * @return this builder
   */
  public RedisClusterBuilder launcher(String... words) {
    for (String word : words) {
      launcher.add(Objects.requireNonNull(word, "word"));
    }
    return this;
  }

  /**
   * Sets how long each node's start waits for {@code PING} to succeed (see {@link
   * dev.hourglass.embedded.RedisServerBuilder#startupTimeout}); by default RedisServer's.
   *
   * @param timeout a positive duration
   * @return this builder
   */
  public RedisClusterBuilder startupTimeout(Duration timeout) {
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("startupTimeout " + timeout + ": must be positive");
    }
    this.startupTimeout = timeout;
    return this;
  }

  /**
   * Creates the cluster, not started.
   *
   * @return the cluster
   */
  public RedisCluster build() {
    return new RedisCluster(
        replicasPerMaster, new ClusterNodeTemplate(nodeTimeout, binary, launcher, startupTimeout));
  }
}
