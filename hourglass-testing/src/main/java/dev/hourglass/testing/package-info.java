/**
 * Real {@code redis-server} processes for tests.
 *
 * <p>{@link dev.hourglass.testing.RedisServer} runs one standalone server from the Linux binary
 * shipped inside the {@code com.github.codemonstur:embedded-redis} jar (only the binary is used,
 * none of that library's classes). {@link dev.hourglass.testing.RedisExtension} is the JUnit 5
 * extension that starts such a server for a test class and flushes it before each test.
 *
 * <p>Servers never outlive the test JVM: a shutdown hook kills the ones still running at exit, and
 * each server has a small {@code /bin/sh} watchdog that kills it within about a second when the JVM
 * disappears without running its hooks (for example after {@code kill -9}).
 *
 * <p>The binary can be replaced by setting the system property {@code hourglass.redis.server} to
 * the path of a {@code redis-server} executable (useful on platforms the jar has no Linux binary
 * for).
 */
package dev.hourglass.testing;
