package dev.hourglass.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A RabbitMQ node for tests and benchmarks: Debian's {@code rabbitmq-server} run as a plain child
 * process on a free loopback port, with its own data directory, no plugins and the {@code
 * guest/guest} login. {@link #stop()} and {@link #start()} bring the same node (same port, same
 * data) down and up again. Its epmd listens on 127.0.0.1 only; {@link #close()} asks epmd to exit
 * when this broker started it, which epmd refuses while another node still uses it.
 *
 * <p>Needs {@value #SERVER} (Debian: {@code apt-get install rabbitmq-server}); without it {@link
 * #create()} fails saying so.
 */
public final class RabbitMqBroker implements AutoCloseable {
  /** The RabbitMQ server script this broker runs. */
  public static final String SERVER = "/usr/lib/rabbitmq/bin/rabbitmq-server";

  private static final long START_TIMEOUT_MS = 120_000;

  private final Path base;

  /** The node's Erlang distribution port is its AMQP port plus this. */
  private static final int DIST_PORT_OFFSET = 10_000;

  private final int port;
  private final boolean epmdWasRunning;
  private final Thread cleanup = new Thread(this::killNow, "rabbitmq-broker-cleanup");
  private Process process;

  private RabbitMqBroker(Path base, int port) {
    this.base = base;
    this.port = port;
    this.epmdWasRunning = listening(4369);
    Runtime.getRuntime().addShutdownHook(cleanup);
  }

  /**
   * A new node on a free port, started and accepting AMQP connections.
   *
   * @return the running node; close it to stop it and delete its data
   * @throws IllegalStateException when {@value #SERVER} is missing or the node does not start
   */
  public static RabbitMqBroker create() {
    if (!Files.isExecutable(Path.of(SERVER))) {
      throw new IllegalStateException(
          SERVER
              + " is missing: install RabbitMQ (Debian: apt-get install -y --no-install-recommends"
              + " rabbitmq-server; .ci/run does this)");
    }
    try {
      Path base = Files.createTempDirectory("hourglass-rabbitmq");
      for (String dir : List.of("home", "mnesia", "log")) {
        Files.createDirectories(base.resolve(dir));
      }
      Files.writeString(base.resolve("enabled_plugins"), "[].\n");
      // The distribution port is port + 10000: both free, and below the ephemeral ports, which a
      // connection of another test could take between the check and the node's start.
      RabbitMqBroker broker = new RabbitMqBroker(base, FreePorts.pair(DIST_PORT_OFFSET));
      try {
        broker.start();
      } catch (RuntimeException | Error e) {
        broker.close(); // its data directory and shutdown hook must not outlive a failed start
        throw e;
      }
      return broker;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The node's AMQP port, kept across restarts.
   *
   * @return the port
   */
  public int port() {
    return port;
  }

  /**
   * Where clients connect.
   *
   * @return {@code amqp://guest:guest@127.0.0.1:<port>/%2f}
   */
  public String uri() {
    return "amqp://guest:guest@127.0.0.1:" + port + "/%2f";
  }

  /** Starts the node (again), waiting until it answers the AMQP protocol header. */
  public synchronized void start() {
    if (process != null && process.isAlive()) {
      return;
    }
    ProcessBuilder pb = new ProcessBuilder(SERVER);
    Map<String, String> env = pb.environment();
    env.put("HOME", base.resolve("home").toString());
    env.put("ERL_EPMD_ADDRESS", "127.0.0.1");
    env.put("RABBITMQ_NODENAME", "hgtest" + port + "@localhost");
    env.put("RABBITMQ_NODE_IP_ADDRESS", "127.0.0.1");
    env.put("RABBITMQ_NODE_PORT", Integer.toString(port));
    env.put("RABBITMQ_DIST_PORT", Integer.toString(port + DIST_PORT_OFFSET));
    env.put("RABBITMQ_MNESIA_BASE", base.resolve("mnesia").toString());
    env.put("RABBITMQ_LOG_BASE", base.resolve("log").toString());
    env.put("RABBITMQ_ENABLED_PLUGINS_FILE", base.resolve("enabled_plugins").toString());
    env.put("RABBITMQ_CONFIG_FILE", base.resolve("rabbitmq").toString());
    env.put("RABBITMQ_PID_FILE", base.resolve("pid").toString());
    pb.redirectErrorStream(true);
    pb.redirectOutput(ProcessBuilder.Redirect.appendTo(base.resolve("console.log").toFile()));
    try {
      process = pb.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MS);
    while (!answersAmqp()) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        String log = consoleTail();
        killNow();
        throw new IllegalStateException("RabbitMQ did not start on port " + port + ":\n" + log);
      }
      Waits.pause(100);
    }
  }

  /** Stops the node gracefully (SIGTERM) and waits until it has exited; its data stays. */
  public synchronized void stop() {
    if (process == null) {
      return;
    }
    beam().ifPresent(ProcessHandle::destroy);
    process.destroy();
    try {
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        killNow();
      }
      beam().ifPresent(h -> h.onExit().join());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      killNow();
    }
    process = null;
  }

  /**
   * Freezes the node (SIGSTOP) or lets it run again (SIGCONT): a frozen broker keeps its
   * connections open and answers nothing, as a hung one does.
   *
   * @param frozen true to freeze, false to let it run
   * @throws IllegalStateException when the node is not running
   */
  public synchronized void freeze(boolean frozen) {
    long pid = beam().orElseThrow(() -> new IllegalStateException("RabbitMQ is not running")).pid();
    try {
      int rc =
          new ProcessBuilder("kill", frozen ? "-STOP" : "-CONT", Long.toString(pid))
              .start()
              .waitFor();
      if (rc != 0) {
        throw new IllegalStateException("kill " + (frozen ? "-STOP " : "-CONT ") + pid + ": " + rc);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Stops the node, deletes its data and, when this broker started epmd, asks epmd to exit. */
  @Override
  public synchronized void close() {
    stop();
    Waits.deleteTree(base);
    if (!epmdWasRunning) {
      try {
        // epmd refuses to exit while another node is registered with it.
        new ProcessBuilder("epmd", "-kill")
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start()
            .waitFor(10, TimeUnit.SECONDS);
      } catch (IOException e) {
        // no epmd on the path: nothing to stop
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    try {
      Runtime.getRuntime().removeShutdownHook(cleanup);
    } catch (IllegalStateException e) {
      // the JVM is shutting down
    }
  }

  private void killNow() {
    beam().ifPresent(ProcessHandle::destroyForcibly);
    Process p = process;
    if (p != null) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
  }

  /** The Erlang VM, by the pid file the node writes (the start script may not exec it). */
  private java.util.Optional<ProcessHandle> beam() {
    try {
      String pid = Files.readString(base.resolve("pid")).strip();
      return pid.isEmpty() ? java.util.Optional.empty() : ProcessHandle.of(Long.parseLong(pid));
    } catch (IOException | NumberFormatException e) {
      return java.util.Optional.empty();
    }
  }

  private boolean answersAmqp() {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      s.setSoTimeout(2000);
      OutputStream out = s.getOutputStream();
      out.write(new byte[] {'A', 'M', 'Q', 'P', 0, 0, 9, 1});
      out.flush();
      InputStream in = s.getInputStream();
      return in.read() == 1; // a method frame: connection.start
    } catch (IOException e) {
      return false;
    }
  }

  private static boolean listening(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private String consoleTail() {
    try {
      List<String> lines = Files.readAllLines(base.resolve("console.log"), StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(no console output)";
    }
  }
}
