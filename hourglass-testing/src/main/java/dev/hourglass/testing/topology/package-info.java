/**
 * Redis topologies for tests, each a set of {@link dev.hourglass.embedded.RedisServer}s run as one
 * {@link dev.hourglass.embedded.RedisDeployment}.
 *
 * <p>{@link dev.hourglass.testing.topology.RedisCluster} forms three masters (optionally with a
 * replica each) into a Redis Cluster that can lose a master and move a slot step by step ({@link
 * dev.hourglass.testing.topology.SlotMigration}); {@link
 * dev.hourglass.testing.topology.RedisSentinel} runs a master, its replicas and the sentinels that
 * fail it over. Both are configured by their builders ({@link
 * dev.hourglass.testing.topology.RedisClusterBuilder}, {@link
 * dev.hourglass.testing.topology.RedisSentinelBuilder}); like every embedded server, none of their
 * processes outlives the JVM.
 */
package dev.hourglass.testing.topology;
