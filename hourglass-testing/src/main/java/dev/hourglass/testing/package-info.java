/**
 * Real Redis for JUnit 5 tests.
 *
 * <p>{@link dev.hourglass.testing.RedisExtension} starts a {@link
 * dev.hourglass.embedded.RedisServer} for a test class (or per test) and flushes it before each
 * test. The servers themselves, and the guarantee that none outlives the test JVM, come from {@code
 * dev.hourglass.embedded}. {@link dev.hourglass.testing.ArchitectureRules} holds the ArchUnit rules
 * every module checks on its own main code.
 */
package dev.hourglass.testing;
