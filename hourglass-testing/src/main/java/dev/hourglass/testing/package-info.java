/**
 * Real Redis for JUnit 5 tests.
 *
 * <p>{@link dev.hourglass.testing.RedisExtension} starts a {@link
 * dev.hourglass.embedded.RedisServer} for a test class (or per test) and flushes it before each
 * test. The servers themselves, and the guarantee that none outlives the test JVM, come from {@code
 * dev.hourglass.embedded}. Redis Cluster and Sentinel topologies built from such servers are in
 * {@code dev.hourglass.testing.topology}. The other fixtures ({@link
 * dev.hourglass.testing.FaultProxy}, {@link dev.hourglass.testing.RabbitMqBroker}, {@link
 * dev.hourglass.testing.KafkaBroker}, {@link dev.hourglass.testing.Postgres}) are in this package,
 * and {@link dev.hourglass.testing.ArchitectureRules} holds the ArchUnit rules every module checks
 * on its own main code.
 */
package dev.hourglass.testing;
