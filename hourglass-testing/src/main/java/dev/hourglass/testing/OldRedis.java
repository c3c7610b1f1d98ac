package dev.hourglass.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import org.junit.jupiter.api.Assumptions;

/**
 * A real Redis older than the oldest Hourglass supports: the Redis {@value #VERSION} Linux x86-64
 * binary inside {@code org.signal:embedded-redis} 0.8.1 (nothing else of that jar is used), which
 * the build unpacks into {@code target/old-redis} (the parent POM's {@code old-redis} execution)
 * and names in the system property {@value #PROPERTY}. Run it with {@code
 * RedisServer.builder().binary(OldRedis.binary())}.
 */
public final class OldRedis {
  /** The version of the binary. */
  public static final String VERSION = "6.0.5";

  /** The system property naming the unpacked binary. */
  public static final String PROPERTY = "hourglass.test.old-redis";

  private OldRedis() {}

  /**
   * The binary, made executable (unpacking drops the bit). The calling test is skipped on a machine
   * that is not Linux x86-64, which cannot run it.
   *
   * @return its path
   * @throws IllegalStateException when the build did not unpack it (a module that does not declare
   *     maven-dependency-plugin)
   */
  public static Path binary() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "");
    Assumptions.assumeTrue(
        os.contains("linux") && (arch.equals("amd64") || arch.equals("x86_64")),
        "the Redis " + VERSION + " binary is for Linux x86-64");
    String property = System.getProperty(PROPERTY);
    Path path = property == null ? null : Path.of(property);
    if (path == null || !Files.isRegularFile(path)) {
      throw new IllegalStateException(
          PROPERTY
              + "="
              + property
              + " is no file: run through Maven, in a module that declares"
              + " maven-dependency-plugin (its old-redis execution unpacks the binary)");
    }
    try {
      Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make " + path + " executable", e);
    }
    return path;
  }
}
