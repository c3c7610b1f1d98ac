package dev.hourglass.embedded;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code redis-server} (or {@code valkey-server}) executable, what it says it is ({@code
 * --version}) and why it was chosen: what {@link RedisServerBuilder#binary} runs.
 *
 * <p>{@link #bundled()} is what every {@link RedisServer} runs unless told otherwise, and so what
 * the test fixtures run: the Redis 6.2 binary inside the {@code embedded-redis} jar, or the one the
 * system property {@code hourglass.redis.server} names. {@link #preferred()} is the server's
 * embedded default: that property's binary when it is set, else an installed {@code valkey-server}
 * of version {@value #PREFERRED_VALKEY_MAJOR} or later found on {@code PATH} (Debian's package, for
 * one: maintained, where the bundled Redis 6.2 is past its end of life), else the bundled one.
 *
 * @param path the executable
 * @param product {@code Redis} or {@code Valkey}, as its {@code --version} says
 * @param version its version, e.g. {@code 8.0.1}
 * @param reason why it is the one run, for the log
 */
public record RedisExecutable(Path path, String product, String version, String reason) {

  /** The oldest {@code valkey-server} {@link #preferred()} takes over the bundled binary. */
  public static final int PREFERRED_VALKEY_MAJOR = 8;

  /** E.g. {@code Redis server v=6.2.11 sha=...}, {@code Valkey server v=8.0.1 sha=...}. */
  private static final Pattern VERSION =
      Pattern.compile("^(\\w+) server v=(\\d+)\\.(\\d+)(\\.\\S*)?");

  private static final long VERSION_TIMEOUT_SECONDS = 10;

  /**
   * The binary a {@link RedisServer} runs by default: {@code -Dhourglass.redis.server}'s, else the
   * one bundled in the {@code embedded-redis} jar.
   *
   * @return it, with its version
   * @throws RedisServerException if there is none for this platform or it does not run
   */
  public static RedisExecutable bundled() {
    String override = System.getProperty(RedisBinary.OVERRIDE_PROPERTY);
    String reason =
        override != null && !override.isBlank()
            ? "set by -D" + RedisBinary.OVERRIDE_PROPERTY
            : "bundled in com.github.codemonstur:embedded-redis";
    return of(RedisBinary.path(), reason);
  }

  /**
   * The server's embedded default: {@code -Dhourglass.redis.server}'s binary when set, else an
   * installed {@code valkey-server} {@value #PREFERRED_VALKEY_MAJOR} or later on {@code PATH}, else
   * the bundled one.
   *
   * @return it, with its version and why it was chosen
   * @throws RedisServerException if the binary chosen does not run
   */
  public static RedisExecutable preferred() {
    String override = System.getProperty(RedisBinary.OVERRIDE_PROPERTY);
    if (override != null && !override.isBlank()) {
      return bundled();
    }
    Optional<Path> valkey = onPath("valkey-server");
    if (valkey.isPresent()) {
      RedisExecutable installed =
          of(
              valkey.get(),
              "installed valkey-server on PATH, preferred to the bundled Redis 6.2 (past its end"
                  + " of life)");
      if (installed.major() >= PREFERRED_VALKEY_MAJOR) {
        return installed;
      }
      return bundled()
          .because(
              ": the installed "
                  + installed.describe()
                  + " is older than Valkey "
                  + PREFERRED_VALKEY_MAJOR);
    }
    return bundled()
        .because(
            ": no valkey-server on PATH (install Valkey "
                + PREFERRED_VALKEY_MAJOR
                + " or later to run it instead)");
  }

  /** This executable, with more said about why it was chosen. */
  private RedisExecutable because(String more) {
    return new RedisExecutable(path, product, version, reason + more);
  }

  /**
   * The executable at {@code path}, asked for its version.
   *
   * @param path a {@code redis-server} or {@code valkey-server} executable
   * @param reason why it is the one run
   * @return it, with its version
   * @throws RedisServerException if it is not executable or does not say its version
   */
  public static RedisExecutable of(Path path, String reason) {
    if (!Files.isExecutable(path)) {
      throw new RedisServerException(path + " is not an executable file");
    }
    String output;
    try {
      Process process =
          new ProcessBuilder(path.toString(), "--version")
              .redirectErrorStream(true)
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .start();
      try (InputStream in = process.getInputStream()) {
        output = new String(in.readNBytes(4096), StandardCharsets.UTF_8).strip();
      }
      if (!process.waitFor(VERSION_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new RedisServerException(path + " --version did not exit");
      }
    } catch (IOException e) {
      throw new RedisServerException("Cannot run " + path + " --version", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RedisServerException("Interrupted running " + path + " --version", e);
    }
    Matcher m = VERSION.matcher(output);
    if (!m.find()) {
      throw new RedisServerException(
          path + " --version said '" + output + "', not '<product> server v=<version>'");
    }
    String version = m.group(2) + "." + m.group(3) + (m.group(4) == null ? "" : m.group(4));
    return new RedisExecutable(path, m.group(1), version, reason);
  }

  /**
   * The major version, e.g. 8 for Valkey 8.0.1.
   *
   * @return the number before the first dot
   */
  public int major() {
    return Integer.parseInt(version.substring(0, version.indexOf('.')));
  }

  /**
   * For logs and errors.
   *
   * @return e.g. {@code Valkey 8.0.1 (/usr/bin/valkey-server)}
   */
  public String describe() {
    return product + " " + version + " (" + path + ")";
  }

  private static Optional<Path> onPath(String name) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      if (!dir.isEmpty()) {
        Path candidate = Path.of(dir, name);
        if (Files.isExecutable(candidate) && !Files.isDirectory(candidate)) {
          return Optional.of(candidate);
        }
      }
    }
    return Optional.empty();
  }
}
