package dev.hourglass.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A single-node Kafka (KRaft, broker and controller in one) in this JVM, on fixed free loopback
 * ports, so {@link #stop()} then {@link #start()} brings the same broker back at the same address
 * with its data. Topics are created on first use with one partition.
 *
 * <p>Needs {@code org.apache.kafka:kafka_2.13} on the class path (an optional dependency of this
 * module: a module using this class declares it).
 */
public final class KafkaBroker implements AutoCloseable {
  private final Path dir;
  private final int port;
  private final int controllerPort;
  private KafkaRaftServer server;

  private KafkaBroker(Path dir, int port, int controllerPort) {
    this.dir = dir;
    this.port = port;
    this.controllerPort = controllerPort;
  }

  /**
   * A new broker on free ports, formatted and started.
   *
   * @return the running broker; close it to stop it and delete its data
   */
  public static KafkaBroker create() {
    Path dir;
    try {
      dir = Files.createTempDirectory("hourglass-kafka");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // Two ports checked free together, below the ones the system hands out: two calls of any()
    // may both get the same port back (the first is free again once it returns), which Kafka
    // refuses as two listeners on one port.
    int port = FreePorts.pair(1);
    KafkaBroker broker = new KafkaBroker(dir, port, port + 1);
    try {
      format(dir);
      broker.start();
      return broker;
    } catch (RuntimeException | Error e) {
      broker.close(); // its data directory must not outlive a failed start
      throw e;
    }
  }

  private static void format(Path dir) {
    try {
      new Formatter()
          .setNodeId(1)
          .setClusterId(Uuid.randomUuid().toString())
          .addDirectory(dir.toString())
          .setMetadataLogDirectory(dir.toString())
          .setControllerListenerName("CONTROLLER")
          .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
          .setSupportedFeatures(Feature.PRODUCTION_FEATURES)
          .setPrintStream(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()))
          .run();
    } catch (Exception e) { // Formatter.run() declares Exception
      throw new IllegalStateException("cannot format the Kafka log directory " + dir, e);
    }
  }

  /**
   * Where clients connect.
   *
   * @return {@code 127.0.0.1:<port>}
   */
  public String bootstrapServers() {
    return "127.0.0.1:" + port;
  }

  /**
   * The broker's client port, kept across {@link #stop()} and {@link #start()}.
   *
   * @return the port
   */
  public int port() {
    return port;
  }

  /** Starts the broker (again) on the same ports and data. */
  public synchronized void start() {
    if (server != null) {
      return;
    }
    KafkaRaftServer s = new KafkaRaftServer(config(), Time.SYSTEM);
    try {
      s.startup();
    } catch (RuntimeException | Error e) {
      s.shutdown(); // what started of it must not keep running
      throw e;
    }
    server = s;
  }

  /** Shuts the broker down and waits until it has; its data stays. */
  public synchronized void stop() {
    if (server == null) {
      return;
    }
    server.shutdown();
    server.awaitShutdown();
    server = null;
  }

  @Override
  public synchronized void close() {
    stop();
    Waits.deleteTree(dir);
  }

  private KafkaConfig config() {
    Map<String, Object> p = new HashMap<>();
    p.put("process.roles", "broker,controller");
    p.put("node.id", "1");
    p.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
    p.put(
        "listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
    p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
    p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    p.put("controller.listener.names", "CONTROLLER");
    p.put("inter.broker.listener.name", "PLAINTEXT");
    p.put("log.dirs", dir.toString());
    p.put("offsets.topic.replication.factor", "1");
    p.put("offsets.topic.num.partitions", "1");
    p.put("transaction.state.log.replication.factor", "1");
    p.put("transaction.state.log.min.isr", "1");
    p.put("share.coordinator.state.topic.replication.factor", "1");
    p.put("share.coordinator.state.topic.min.isr", "1");
    p.put("group.initial.rebalance.delay.ms", "0");
    p.put("num.partitions", "1");
    return new KafkaConfig(p, false);
  }
}
