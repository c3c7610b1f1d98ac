package dev.hourglass.embedded;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Child-JVM entry point for {@link OrphanTest}: starts a server, prints {@code REDIS_PID=<pid>} and
 * {@code DATA_DIR=<dir>}, then acts out one way for a JVM to end, chosen by the first argument:
 *
 * <ul>
 *   <li>{@code wait}: waits to be killed (it reads its standard input, which no one writes, and
 *       exits with status 2 if the test JVM goes away and closes it);
 *   <li>{@code exit}: exits without stopping its in-memory server;
 *   <li>{@code owner-stops <dir>}: runs a persistent server in {@code <dir>} and an in-memory one
 *       beside it, exits, and from its own shutdown hook, once the library's cleanup hook is done
 *       (it has killed the in-memory server and deleted its directory), writes {@code
 *       during-shutdown=1} to the persistent server (as an owner draining its jobs would) and then
 *       stops it;
 *   <li>{@code owner-forgets <dir>}: runs a persistent server in {@code <dir>}, writes {@code k=v}
 *       and exits without stopping it.
 * </ul>
 */
public final class OrphanCheckMain {

  private OrphanCheckMain() {}

  public static void main(String[] args) throws IOException {
    String mode = args.length > 0 ? args[0] : "wait";
    RedisServer redis =
        switch (mode) {
          case "owner-stops", "owner-forgets" ->
              RedisServer.builder().persistent().dataDir(Path.of(args[1])).build();
          default -> RedisServer.create();
        };
    redis.start();
    System.out.println("REDIS_PID=" + redis.pid());
    System.out.println("DATA_DIR=" + redis.dataDir());
    System.out.flush();
    switch (mode) {
      case "exit" -> System.exit(0);
      case "owner-stops" -> {
        RedisServer bystander = RedisServer.create();
        bystander.start();
        Path bystanderDir = bystander.dataDir();
        Thread ownerHook =
            new Thread(
                () -> {
                  // Shutdown hooks run concurrently: write only after the cleanup hook's last step,
                  // so the write shows the kept server outlived the whole cleanup.
                  await("the cleanup hook deletes the in-memory server's directory")
                      .atMost(Duration.ofSeconds(60))
                      .pollInSameThread()
                      .pollInterval(Duration.ofMillis(20))
                      .until(() -> !Files.exists(bystanderDir));
                  redis.command("SET", "during-shutdown", "1");
                  redis.stop();
                });
        Runtime.getRuntime().addShutdownHook(ownerHook);
        System.exit(0);
      }
      case "owner-forgets" -> {
        redis.command("SET", "k", "v");
        System.exit(0);
      }
      default -> {
        awaitEndOf(System.in);
        System.exit(2); // The test JVM is gone without killing us.
      }
    }
  }

  private static void awaitEndOf(InputStream in) throws IOException {
    while (in.read() != -1) {
      // Nothing is ever written; only the end of the stream matters.
    }
  }
}
