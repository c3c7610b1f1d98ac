/**
 * Real {@code redis-server} processes, run as children of this JVM: for tests and for the server's
 * zero-configuration default.
 *
 * <p>{@link dev.hourglass.embedded.RedisServer} runs one standalone server on 127.0.0.1 from the
 * Linux binary shipped inside the {@code com.github.codemonstur:embedded-redis} jar (only the
 * binary is used, none of that library's classes), either in memory or with an append-only file
 * fsynced after every write. {@link dev.hourglass.embedded.RedisDeployment} is the shape shared
 * with the multi-process deployments to come.
 *
 * <p>No orphans: a server never outlives the JVM that started it. A shutdown hook stops the servers
 * still running at exit (in-memory ones with {@code SIGKILL}, persistent ones with {@code SIGTERM}
 * so they flush their AOF), and each server has a small {@code /bin/sh} watchdog that kills it
 * within about a second when the JVM disappears without running its hooks (for example after {@code
 * kill -9}).
 *
 * <p>The binary can be replaced by setting the system property {@code hourglass.redis.server} to
 * the path of a {@code redis-server} executable (useful on platforms the jar has no Linux binary
 * for).
 */
package dev.hourglass.embedded;
