package dev.hourglass.testing.topology;

import dev.hourglass.embedded.RedisServer;
import dev.hourglass.embedded.RedisServerBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * How every node of one {@link RedisCluster} is started, fixed when the cluster is built: its nodes
 * and the replicas {@link RedisCluster#addReplica} adds later alike.
 *
 * @param nodeTimeout {@code cluster-node-timeout}
 * @param binary the executable, or null for the default binary
 * @param launcher words before the binary on the command line (see {@link
 *     RedisServerBuilder#launcher}), empty for none
 * @param startupTimeout how long a node's start waits for {@code PING}, or null for the default
 */
record ClusterNodeTemplate(
    Duration nodeTimeout, Path binary, List<String> launcher, Duration startupTimeout) {

  ClusterNodeTemplate {
    launcher = List.copyOf(launcher);
  }

  /** A node, not started, on a port whose cluster bus port is free too. */
  RedisServer newNode() {
    RedisServerBuilder builder =
        RedisServer.builder()
            .args(
                "--cluster-enabled", "yes",
                "--cluster-config-file", "nodes.conf",
                "--cluster-node-timeout", Long.toString(nodeTimeout.toMillis()))
            .portChooser(ClusterPorts::find)
            .launcher(launcher.toArray(new String[0]));
    if (binary != null) {
      builder.binary(binary);
    }
    if (startupTimeout != null) {
      builder.startupTimeout(startupTimeout);
    }
    return builder.build();
  }
}
