package dev.hourglass.testing;

/**
 * Child-JVM entry point for {@link OrphanTest}: starts a server, prints {@code REDIS_PID=<pid>} and
 * {@code DATA_DIR=<dir>}, then either waits to be killed ({@code wait}) or exits the JVM without
 * stopping the server ({@code exit}).
 */
public final class OrphanCheckMain {

  private OrphanCheckMain() {}

  public static void main(String[] args) throws InterruptedException {
    String mode = args.length > 0 ? args[0] : "wait";
    RedisServer redis = RedisServer.create();
    redis.start();
    System.out.println("REDIS_PID=" + redis.pid());
    System.out.println("DATA_DIR=" + redis.dataDir());
    System.out.flush();
    if (mode.equals("exit")) {
      System.exit(0);
    }
    Thread.sleep(60_000);
    System.exit(2); // The test should have killed us long before.
  }
}
