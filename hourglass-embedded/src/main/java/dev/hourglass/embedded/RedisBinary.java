package dev.hourglass.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;

/**
 * Locates the {@code redis-server} executable, extracting it from the embedded-redis jar on first
 * use.
 *
 * <p>The binary is written to a cache directory under {@code java.io.tmpdir} keyed by resource name
 * and size, through a temporary file and an atomic rename, so concurrent JVMs never see a
 * half-written file and later JVMs reuse it. If that directory is not writable the binary goes to a
 * private temporary directory instead.
 *
 * <p>Threading: {@link #path()} is thread-safe and extracts at most once per JVM.
 */
final class RedisBinary {

  /**
   * System property naming a {@code redis-server} executable to use instead of the embedded one.
   */
  static final String OVERRIDE_PROPERTY = "hourglass.redis.server";

  private static final System.Logger LOG = System.getLogger(RedisBinary.class.getName());
  private static final String CACHE_DIR_NAME = "hourglass-redis";

  private static Path cached;
  private static Path cachedJarBinary;

  private RedisBinary() {}

  /**
   * Returns the path of an executable {@code redis-server}.
   *
   * @return the binary's path
   * @throws RedisServerException if the platform has no binary or it cannot be extracted
   */
  static synchronized Path path() {
    if (cached == null) {
      cached = locate();
    }
    return cached;
  }

  /**
   * Returns the path of the binary bundled in the embedded-redis jar, whatever {@value
   * #OVERRIDE_PROPERTY} says.
   *
   * @return the extracted binary's path
   * @throws RedisServerException if the platform has no binary or it cannot be extracted
   */
  static synchronized Path jarBinary() {
    if (cachedJarBinary == null) {
      cachedJarBinary = extractFromJar();
    }
    return cachedJarBinary;
  }

  private static Path locate() {
    String override = System.getProperty(OVERRIDE_PROPERTY);
    if (override != null && !override.isBlank()) {
      Path path = Path.of(override);
      if (!Files.isExecutable(path)) {
        throw new RedisServerException(
            OVERRIDE_PROPERTY + "=" + override + " is not an executable file");
      }
      return path;
    }
    return jarBinary();
  }

  private static Path extractFromJar() {
    String resource = resourceName();
    URL url = RedisBinary.class.getResource("/" + resource);
    if (url == null) {
      throw new RedisServerException(
          "Resource /"
              + resource
              + " not found; is com.github.codemonstur:embedded-redis on the"
              + " classpath?");
    }
    try {
      long size = resourceSize(url);
      Path cacheDir = Path.of(System.getProperty("java.io.tmpdir"), CACHE_DIR_NAME);
      try {
        return extract(url, size, cacheDir.resolve(resource + "-" + size));
      } catch (IOException e) {
        LOG.log(
            Level.WARNING,
            "Cannot cache redis-server in " + cacheDir + "; using a private temp directory",
            e);
        Path dir = Files.createTempDirectory(CACHE_DIR_NAME + "-");
        Path target = dir.resolve(resource);
        dir.toFile().deleteOnExit();
        target.toFile().deleteOnExit();
        return extract(url, size, target);
      }
    } catch (IOException e) {
      throw new RedisServerException("Cannot extract redis-server from " + url, e);
    }
  }

  /** Picks the jar's Linux binary matching {@code os.arch}. */
  static String resourceName() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    if (!os.contains("linux")) {
      throw new RedisServerException(
          "No embedded redis-server for os.name="
              + os
              + "; set -D"
              + OVERRIDE_PROPERTY
              + "=/path/to/redis-server");
    }
    switch (arch) {
      case "amd64":
      case "x86_64":
        return "redis-server-6.2.6-v5-linux-amd64";
      case "aarch64":
      case "arm64":
        return "redis-server-6.2.7-linux-arm64";
      default:
        throw new RedisServerException(
            "No embedded redis-server for os.arch="
                + arch
                + "; set -D"
                + OVERRIDE_PROPERTY
                + "=/path/to/redis-server");
    }
  }

  private static long resourceSize(URL url) throws IOException {
    URLConnection connection = url.openConnection();
    connection.setUseCaches(false);
    long size = connection.getContentLengthLong();
    if (size > 0) {
      return size;
    }
    try (InputStream in = url.openStream()) {
      return in.transferTo(java.io.OutputStream.nullOutputStream());
    }
  }

  private static Path extract(URL url, long size, Path target) throws IOException {
    if (Files.isRegularFile(target) && Files.size(target) == size && Files.isExecutable(target)) {
      return target;
    }
    Path dir = target.getParent();
    Files.createDirectories(dir);
    Path tmp = Files.createTempFile(dir, target.getFileName().toString(), ".tmp");
    try {
      try (InputStream in = url.openStream()) {
        Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
      }
      if (Files.size(tmp) != size) {
        throw new IOException(
            "Extracted " + Files.size(tmp) + " bytes from " + url + ", expected " + size);
      }
      Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      LOG.log(Level.DEBUG, "Extracted redis-server to {0}", target);
      return target;
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
