package dev.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./hourglass} launcher at the repository root, end to end, as a user runs it on a fresh
 * clone: the repository's files (tracked, and untracked but not ignored, as {@code git ls-files}
 * lists them) are copied to a temporary directory without any build output, so the first run builds
 * the server through {@code ./mvnw} (1 to 2 minutes; Maven's local repository is shared, so no
 * download), starts it with its embedded Redis, serves, and stops on SIGTERM leaving no
 * redis-server behind. Part of the default build on purpose: the launcher is the first thing a new
 * user runs.
 */
@Tag("launcher")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LauncherTest {
  private static final Duration BUILD_AND_START = Duration.ofMinutes(6);

  /**
   * Liveness timeout for a step that takes a second or so (the server stopping, its log line being
   * read): room for a loaded machine, not a measured figure.
   */
  private static final Duration STEP = Duration.ofSeconds(60);

  @TempDir static Path tmp;
  private static Path clone;
  private static Path dataDir;

  @BeforeAll
  static void copyTheRepositoryAsAFreshCloneWouldHaveIt() throws Exception {
    Path root = repositoryRoot();
    clone = tmp.resolve("clone");
    dataDir = tmp.resolve("data");
    int copied = 0;
    for (String file : gitFiles(root)) {
      Path from = root.resolve(file);
      if (!Files.isRegularFile(from, LinkOption.NOFOLLOW_LINKS)) {
        continue; // deleted in the working tree but still in the index, or not a plain file
      }
      Path to = clone.resolve(file);
      Files.createDirectories(to.getParent());
      Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES);
      copied++;
    }
    for (String script : List.of("hourglass", "mvnw")) {
      Files.setPosixFilePermissions(
          clone.resolve(script), PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    assertThat(copied).isGreaterThan(50);
    assertThat(clone.resolve("hourglass-server/target")).doesNotExist();
  }

  @AfterAll
  static void noRedisLeftBehind() {
    if (dataDir != null) {
      EmbeddedRedisProcesses.killAll(dataDir); // only does something when a test failed
    }
  }

  @Test
  @Order(1)
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void firstRunBuildsStartsServesAndStopsOnSigterm() throws Exception {
    int port = ChildProcess.freePort();
    long start = System.nanoTime();
    try (ChildProcess server =
        launch("server", "--port", Integer.toString(port), "--data-dir", dataDir.toString())) {
      ApiClient api = ApiClient.onPort(port);
      api.awaitReady(BUILD_AND_START, server::isAlive, server::output);
      long readyMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      System.out.println("./hourglass server: built and ready in " + readyMs + " ms");
      assertThat(clone.resolve("hourglass-server/target/hourglass-server.jar")).isRegularFile();
      assertThat(server.stderr())
          .as(server.output())
          .anyMatch(l -> l.contains("building the Hourglass server"));
      assertListeningIsTheFirstLogLine(server, port);

      ApiClient.Response r =
          api.post(
              "/v1/queues/q/jobs", "{\"id\":\"kept\",\"payload\":{\"a\":1},\"delayMs\":3600000}");
      assertThat(r.status()).as(r.body()).isEqualTo(201);
      assertThat(EmbeddedRedisProcesses.of(dataDir)).as("its embedded redis-server").hasSize(1);

      stopWithSigterm(server);
    }
  }

  @Test
  @Order(2)
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void secondRunReusesTheJarAndKeepsTheJobs() throws Exception {
    int port = ChildProcess.freePort();
    long start = System.nanoTime();
    try (ChildProcess server =
        launch("server", "--port", Integer.toString(port), "--data-dir", dataDir.toString())) {
      ApiClient api = ApiClient.onPort(port);
      api.awaitReady(Duration.ofMinutes(2), server::isAlive, server::output);
      System.out.println(
          "./hourglass server, jar built: ready in "
              + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)
              + " ms");
      assertThat(server.stderr()).as(server.output()).noneMatch(l -> l.contains("building"));

      ApiClient.Response job = api.get("/v1/queues/q/jobs/kept");
      assertThat(job.status()).as(job.body()).isEqualTo(200);
      assertThat(job.json().get("payload").toString()).isEqualTo("{\"a\":1}");

      stopWithSigterm(server);
    }
  }

  @Test
  @Order(3)
  @Timeout(value = 8, unit = TimeUnit.MINUTES)
  void helpExitsZeroAndNamesTheServerAndItsDataDir() throws Exception {
    try (ChildProcess help = launch("--help")) {
      assertThat(help.awaitExit(BUILD_AND_START.toMinutes(), TimeUnit.MINUTES))
          .as(help.output())
          .isZero();
      assertThat(String.join("\n", help.stdout())).contains("server");
    }
    try (ChildProcess help = launch("server", "--help")) {
      assertThat(help.awaitExit(2, TimeUnit.MINUTES)).as(help.output()).isZero();
      assertThat(String.join("\n", help.stdout())).contains("--data-dir").contains("--port");
    }
  }

  @Test
  @Order(4)
  @Timeout(value = 8, unit = TimeUnit.MINUTES)
  void versionIsTheBuildsThroughTheLauncherAndTheJar() throws Exception {
    String expected = "hourglass " + System.getProperty("hourglass.version");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String jar = clone.resolve("hourglass-server/target/hourglass-server.jar").toString();
    List<List<String>> commands =
        List.of(
            List.of("./hourglass", "--version"),
            List.of("./hourglass", "server", "-V"),
            List.of(java, "-jar", jar, "--version"),
            List.of(java, "-jar", jar, "server", "--version"));
    for (List<String> command : commands) {
      try (ChildProcess run = ChildProcess.start(clone, freshEnvironment(), command)) {
        assertThat(run.awaitExit(BUILD_AND_START.toMinutes(), TimeUnit.MINUTES))
            .as("%s: %s", command, run.output())
            .isZero();
        assertThat(run.stdout()).as("%s", command).containsExactly(expected);
      }
    }
  }

  /**
   * The launcher execs java, so the process is the server JVM itself: SIGTERM runs its shutdown
   * hook, which stops the HTTP server, then the embedded Redis.
   */
  private static void stopWithSigterm(ChildProcess server) throws InterruptedException {
    server.terminate(); // SIGTERM
    Integer exit = server.awaitExit(STEP.toSeconds(), TimeUnit.SECONDS);
    assertThat(exit).as("exit code; output:\n%s", server.output()).isIn(0, 143);
    assertThat(EmbeddedRedisProcesses.awaitNone(dataDir, STEP))
        .as("redis-server of %s left after the server stopped", dataDir)
        .isEmpty();
    assertThat(server.stderr()).as(server.output()).anyMatch(l -> l.contains("Hourglass stopped"));
  }

  /** The server's first log line on standard error says where it listens. */
  private static void assertListeningIsTheFirstLogLine(ChildProcess server, int port) {
    await("the server's log line saying where it listens")
        .atMost(STEP)
        .pollInterval(Duration.ofMillis(50))
        .untilAsserted(
            () ->
                assertThat(server.stderr())
                    .as(server.output())
                    .anyMatch(l -> l.contains("listening")));
    List<String> logLines =
        server.stderr().stream().filter(l -> l.startsWith("{")).toList(); // JSON log lines
    assertThat(logLines).as(server.output()).isNotEmpty();
    assertThat(logLines.get(0)).contains("listening").contains(":" + port);
  }

  private static ChildProcess launch(String... args) {
    List<String> command = new ArrayList<>();
    command.add("./hourglass");
    command.addAll(List.of(args));
    return ChildProcess.start(clone, freshEnvironment(), command);
  }

  /**
   * The environment of a user's shell: without what Maven and Surefire set for this build, which
   * would point the launcher's own Maven build at this repository.
   */
  private static Map<String, String> freshEnvironment() {
    Map<String, String> env = new HashMap<>();
    System.getenv()
        .forEach(
            (k, v) -> {
              if (!k.startsWith("MAVEN_") && !k.startsWith("HOURGLASS_")) {
                env.put(k, v);
              }
            });
    return env;
  }

  /** Where {@code ./hourglass} lives, going up from the module's directory. */
  private static Path repositoryRoot() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null) {
      if (Files.isRegularFile(dir.resolve("hourglass"))
          && Files.isRegularFile(dir.resolve("mvnw"))) {
        return dir;
      }
      dir = dir.getParent();
    }
    throw new AssertionError("no ./hourglass above " + Path.of("").toAbsolutePath());
  }

  private static List<String> gitFiles(Path root) throws IOException, InterruptedException {
    Process git =
        new ProcessBuilder("git", "ls-files", "--cached", "--others", "--exclude-standard", "-z")
            .directory(root.toFile())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    byte[] out = readAll(git.getInputStream());
    assertThat(git.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(git.exitValue()).as("git ls-files in " + root).isZero();
    List<String> files = new ArrayList<>();
    for (String f : new String(out, StandardCharsets.UTF_8).split("\0")) {
      if (!f.isEmpty()) {
        files.add(f);
      }
    }
    return files;
  }

  private static byte[] readAll(InputStream in) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    in.transferTo(bytes);
    return bytes.toByteArray();
  }
}
