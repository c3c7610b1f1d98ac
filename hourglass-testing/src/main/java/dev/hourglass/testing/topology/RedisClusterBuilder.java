package dev.hourglass.testing.topology;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Configures a {@link RedisCluster}; obtained from {@link RedisCluster#builder()}. Not thread-safe;
 * build on one thread.
 */
public final class RedisClusterBuilder {
  private int replicasPerMaster;
  private Duration nodeTimeout = Duration.ofSeconds(5);
  private Path binary;

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
    this.binary = java.util.Objects.requireNonNull(executable, "executable");
    return this;
  }

  /**
   * Creates the cluster, not started.
   *
   * @return the cluster
   */
  public RedisCluster build() {
    return new RedisCluster(replicasPerMaster, nodeTimeout, binary);
  }
}
