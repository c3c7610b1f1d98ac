/**
 * A real {@code redis-server} process, run as a child of this JVM: the server's zero-configuration
 * default, and what the test fixtures of {@code hourglass-testing} are built from.
 *
 * <p>{@link dev.hourglass.embedded.RedisServer} runs one standalone server on 127.0.0.1 from the
 * Linux binary shipped inside the {@code com.github.codemonstur:embedded-redis} jar (only the
 * binary is used, none of that library's classes), either in memory or with an append-only file
 * fsynced after every write; {@link dev.hourglass.embedded.RedisServerBuilder} configures it.
 * {@link dev.hourglass.embedded.RedisDeployment} is the shape it shares with the cluster and
 * Sentinel topologies of {@code hourglass-testing} ({@code dev.hourglass.testing.topology}).
 *
 * <p>No orphans: a server never outlives the JVM that started it. Each server has a small {@code
 * /bin/sh} watchdog that kills it within about a second once the JVM is gone, even when the JVM was
 * killed outright ({@code kill -9}), and a shutdown hook kills ({@code SIGKILL}) the servers still
 * running at exit. The hook leaves alone a server whose data outlives it (a persistent one in a
 * caller's directory), so that its owner can still use it while shutting down and then stop it
 * gracefully from its own shutdown hook; should the owner not stop it, the watchdog kills it once
 * the JVM has exited, which loses nothing acknowledged with {@code appendfsync always}.
 *
 * <p>The binary can be replaced by setting the system property {@code hourglass.redis.server} to
 * the path of a {@code redis-server} (or {@code valkey-server}) executable (useful on platforms the
 * jar has no Linux binary for, and to run the tests on another Redis), and per server by {@link
 * dev.hourglass.embedded.RedisServerBuilder#binary}. {@link
 * dev.hourglass.embedded.RedisExecutable#preferred()} is the server's embedded default: an
 * installed Valkey 8 or later before the bundled Redis 6.2.
 */
package dev.hourglass.embedded;
