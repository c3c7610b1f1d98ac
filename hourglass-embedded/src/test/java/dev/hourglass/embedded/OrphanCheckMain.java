package dev.hourglass.embedded;

import java.nio.file.Path;

/**
 * Child-JVM entry point for {@link OrphanTest}: starts a server, prints {@code REDIS_PID=<pid>} and
 * {@code DATA_DIR=<dir>}, then acts out one way for a JVM to end, chosen by the first argument:
 *
 * <ul>
 *   <li>{@code wait}: waits to be killed;
 *   <li>{@code exit}: exits without stopping its in-memory server;
 *   <li>{@code owner-stops <dir>}: runs a persistent server in {@code <dir>}, exits, and from its
 *       own shutdown hook writes {@code during-shutdown=1} (as a draining owner would) and then
 *       stops the server;
 *   <li>{@code owner-forgets <dir>}: runs a persistent server in {@code <dir>}, writes {@code k=v}
 *       and exits without stopping it.
 * </ul>
 */
public final class OrphanCheckMain {

  private OrphanCheckMain() {}

  public static void main(String[] args) throws InterruptedException {
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
        Thread ownerHook =
            new Thread(
                () -> {
                  try {
                    Thread.sleep(300); // Stands in for draining running jobs.
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
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
        Thread.sleep(60_000);
        System.exit(2); // The test should have killed us long before.
      }
    }
  }
}
