package dev.hourglass.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A process started by a test (a server JVM, the launcher script), with its standard output and
 * error collected line by line, so a test can wait for a line and show everything when it fails.
 * {@link #close()} kills it if it still runs.
 */
final class ChildProcess implements AutoCloseable {
  private final Process process;
  private final List<String> stdout = new CopyOnWriteArrayList<>();
  private final List<String> stderr = new CopyOnWriteArrayList<>();
  private final Thread outReader;
  private final Thread errReader;

  private ChildProcess(Process process) {
    this.process = process;
    this.outReader = collect(process.getInputStream(), stdout, "stdout");
    this.errReader = collect(process.getErrorStream(), stderr, "stderr");
  }

  static ChildProcess start(Path workDir, Map<String, String> env, List<String> command) {
    ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile());
    pb.environment().putAll(env);
    pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    try {
      return new ChildProcess(pb.start());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + command, e);
    }
  }

  /**
   * {@code java -cp <this JVM's class path> dev.hourglass.server.Main args...}: the server in a JVM
   * of its own, which a test may kill outright.
   */
  static ChildProcess serverJvm(Path workDir, String... args) {
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> command = new ArrayList<>();
    command.addAll(
        List.of(
            java,
            "-Xmx256m",
            "-XX:TieredStopAtLevel=1",
            "-cp",
            System.getProperty("java.class.path"),
            Main.class.getName()));
    command.addAll(List.of(args));
    return start(workDir, Map.of(), command);
  }

  /**
   * {@link #serverJvm} with {@code --port port} and these arguments, once it answers ready within
   * {@code timeout}; killed if it does not.
   */
  static ChildProcess readyServerJvm(Path workDir, int port, Duration timeout, String... args)
      throws InterruptedException {
    List<String> all = new ArrayList<>(List.of("server", "--port", Integer.toString(port)));
    all.addAll(List.of(args));
    ChildProcess p = serverJvm(workDir, all.toArray(String[]::new));
    try {
      ApiClient.onPort(port).awaitReady(timeout, p::isAlive, p::output);
    } catch (AssertionError e) {
      p.close();
      throw e;
    }
    return p;
  }

  private static Thread collect(InputStream in, List<String> lines, String name) {
    Thread t =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                  lines.add(line);
                }
              } catch (IOException e) {
                lines.add("<" + name + " read failed: " + e + ">");
              }
            },
            "child-" + name);
    t.setDaemon(true);
    t.start();
    return t;
  }

  Process process() {
    return process;
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  List<String> stdout() {
    return List.copyOf(stdout);
  }

  List<String> stderr() {
    return List.copyOf(stderr);
  }

  /** Both streams, for failure messages. */
  String output() {
    return "--- stdout ---\n"
        + String.join("\n", stdout)
        + "\n--- stderr ---\n"
        + String.join("\n", stderr)
        + "\n---";
  }

  /** Waits for the exit and for both streams to be read to their end; returns the exit code. */
  Integer awaitExit(long timeout, TimeUnit unit) throws InterruptedException {
    if (!process.waitFor(timeout, unit)) {
      return null;
    }
    outReader.join(5000);
    errReader.join(5000);
    return process.exitValue();
  }

  /**
   * SIGTERM, through the process handle: {@link Process#destroy()} sends the same signal but also
   * closes our ends of the pipes, and the lines the process writes while it shuts down are lost.
   */
  void terminate() {
    process.toHandle().destroy();
  }

  /** SIGKILL to the process and waits for it to be gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      kill();
    }
  }

  static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
