package dev.hourglass.bench;

import dev.hourglass.testing.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The processes of a soak: the Redis topology ({@link SoakTopology}), the Hourglass server in a JVM
 * of its own, and the consumer JVMs (library Workers and one HTTP consumer), each of which the
 * faults may SIGKILL and restart. The server and consumers use the topology's {@link
 * SoakTopology#clientUri()}. Child output goes to files in the run directory.
 */
final class SoakProcesses implements AutoCloseable {
  private static final String JAVA = ProcessHandle.current().info().command().orElse("java");
  private static final Duration SERVER_START = Duration.ofSeconds(120);
  private static final int SERVER_ATTEMPTS = 20;

  private final Path dir;
  private final SoakTopology topology;
  private final int serverPort;
  private Process server;
  private final List<String> consumerModes;
  private final Process[] consumers;

  /** Every JVM started, for the shutdown hook: an interrupted soak leaves none behind. */
  private final Queue<Process> spawned = new ConcurrentLinkedQueue<>();

  /** The processes of a soak in {@code dir} on {@code topology} (which they close). */
  SoakProcesses(Path dir, SoakTopology topology, int libraryConsumers, int httpConsumers) {
    this.dir = dir;
    this.topology = topology;
    this.serverPort = FreePorts.any();
    this.consumerModes = new ArrayList<>();
    for (int i = 0; i < libraryConsumers; i++) {
      consumerModes.add("library");
    }
    for (int i = 0; i < httpConsumers; i++) {
      consumerModes.add("http");
    }
    this.consumers = new Process[consumerModes.size()];
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(() -> spawned.forEach(Process::destroyForcibly), "soak-children"));
  }

  /** Starts the topology, the server (once it answers) and every consumer. */
  void start() {
    topology.start();
    if (topology.queueSettings() != null) {
      try (dev.hourglass.Hourglass client =
          dev.hourglass.Hourglass.builder().redisUri(topology.producerUri()).build()) {
        client.configureQueue(SoakConsumer.QUEUE, topology.queueSettings());
      }
    }
    startServer();
    for (int i = 0; i < consumers.length; i++) {
      startConsumer(i);
    }
    awaitConsumersStarted();
  }

  /**
   * Until every consumer JVM has said it started (its first line of output), so that the producers
   * do not begin while no one consumes: that start-up would count as lateness outside the faults.
   */
  private void awaitConsumersStarted() {
    long deadline = System.nanoTime() + SERVER_START.toNanos();
    for (int i = 0; i < consumers.length; i++) {
      Path out = dir.resolve(consumerName(i) + ".out");
      while (!started(out)) {
        if (System.nanoTime() > deadline || !consumers[i].isAlive()) {
          throw new IllegalStateException(consumerName(i) + " did not start; see " + out);
        }
        SoakConsumer.pause();
      }
    }
  }

  private static boolean started(Path out) {
    try {
      return Files.exists(out) && Files.readString(out).contains(" started");
    } catch (IOException e) {
      return false;
    }
  }

  String serverUrl() {
    return "http://127.0.0.1:" + serverPort;
  }

  int consumerCount() {
    return consumers.length;
  }

  String consumerName(int i) {
    return "c" + i + "-" + consumerModes.get(i);
  }

  synchronized void killServer() {
    server.destroyForcibly();
    awaitExit(server);
  }

  /**
   * Starts the server JVM on its fixed port and waits until {@code /health/live} answers; a JVM
   * that exits first (the killed one's port not yet free, Redis down) is started again, up to
   * {@value #SERVER_ATTEMPTS} times.
   */
  synchronized void startServer() {
    for (int attempt = 1; ; attempt++) {
      if (startServerOnce()) {
        return;
      }
      if (attempt == SERVER_ATTEMPTS) {
        throw new IllegalStateException(
            "the server exited " + attempt + " times at start; see server.out");
      }
      SoakConsumer.pause();
    }
  }

  private boolean startServerOnce() {
    server =
        spawn(
            "server",
            List.of(
                "dev.hourglass.server.Main",
                "server",
                "--port",
                Integer.toString(serverPort),
                "--redis",
                topology.clientUri(),
                "--data-dir",
                dir.resolve("server-data").toString(),
                "--log-format",
                "text"));
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    long deadline = System.nanoTime() + SERVER_START.toNanos();
    while (System.nanoTime() < deadline) {
      if (!server.isAlive()) {
        return false;
      }
      try {
        HttpResponse<Void> r =
            http.send(
                HttpRequest.newBuilder(URI.create(serverUrl() + "/health/live")).build(),
                HttpResponse.BodyHandlers.discarding());
        if (r.statusCode() == 200) {
          return true;
        }
      } catch (IOException e) {
        // not listening yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while the server started", e);
      }
      SoakConsumer.pause();
    }
    throw new IllegalStateException("the server did not answer within " + SERVER_START);
  }

  synchronized void killConsumer(int i) {
    consumers[i].destroyForcibly();
    awaitExit(consumers[i]);
  }

  synchronized void startConsumer(int i) {
    String mode = consumerModes.get(i);
    String target = mode.equals("library") ? topology.clientUri() : serverUrl();
    String name = consumerName(i);
    consumers[i] =
        spawn(
            name,
            List.of(
                SoakConsumer.class.getName(),
                mode,
                target,
                dir.resolve(name + ".ledger").toString(),
                name));
  }

  /** Restarts whatever is not running (after the faults stopped). */
  synchronized void ensureRunning() {
    topology.ensureRunning();
    if (server == null || !server.isAlive()) {
      startServer();
    }
    for (int i = 0; i < consumers.length; i++) {
      if (!consumers[i].isAlive()) {
        startConsumer(i);
      }
    }
  }

  private Process spawn(String name, List<String> mainAndArgs) {
    List<String> command = new ArrayList<>(List.of(JAVA, "-Xmx256m", "-XX:TieredStopAtLevel=1"));
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.addAll(mainAndArgs);
    Path log = dir.resolve(name + ".out");
    try {
      Files.createDirectories(dir);
      Process p =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .start();
      spawned.removeIf(old -> !old.isAlive());
      spawned.add(p);
      return p;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name, e);
    }
  }

  private static void awaitExit(Process p) {
    try {
      p.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public synchronized void close() {
    for (Process c : consumers) {
      if (c != null) {
        c.destroyForcibly();
        awaitExit(c);
      }
    }
    if (server != null) {
      server.destroyForcibly();
      awaitExit(server);
    }
    topology.close();
  }
}
