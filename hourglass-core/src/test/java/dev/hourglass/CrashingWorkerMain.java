package dev.hourglass;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * A worker process for {@link WorkerCrashTest}: run in a child JVM and killed with SIGKILL while it
 * works.
 *
 * <p>Arguments: redis URI, queue name, handler time per job in ms. It runs a {@link Worker} with
 * concurrency 4, a 2 s visibility and the default prefetch (so at the kill it also holds leased
 * jobs waiting for a thread), and prints to stdout, flushed line by line:
 *
 * <ul>
 *   <li>{@code HG READY} once the worker runs;
 *   <li>{@code HG START <id> <attempt>} when a handler starts;
 *   <li>{@code HG DONE <id> <attempt>} when a handler is about to return (its ack follows, so an
 *       acked job always has a DONE line; a DONE job may still be unacked when the process dies).
 * </ul>
 *
 * <p>It exits by itself when its stdin closes (the test JVM died) or after 90 s, so it can never
 * outlive a test run.
 */
public final class CrashingWorkerMain {
  static final int CONCURRENCY = 4;
  static final Duration VISIBILITY = Duration.ofSeconds(2);

  private CrashingWorkerMain() {}

  public static void main(String[] args) throws Exception {
    startOrphanGuard();
    String uri = args[0];
    String queue = args[1];
    long workMs = Long.parseLong(args[2]);
    Hourglass hourglass = Hourglass.builder().redisUri(uri).build();
    hourglass.worker(
        queue,
        job -> {
          emit("START " + job.id() + " " + job.attempt());
          Thread.sleep(workMs); // the handler's work
          emit("DONE " + job.id() + " " + job.attempt());
        },
        WorkerOptions.builder()
            .concurrency(CONCURRENCY)
            .visibility(VISIBILITY)
            .autoExtend(true)
            .build());
    emit("READY");
    new CountDownLatch(1).await(); // runs until killed
  }

  private static synchronized void emit(String line) {
    System.out.println("HG " + line);
    System.out.flush();
  }

  /** Exits when the parent closes our stdin (or dies), and in any case after 90 s. */
  static void startOrphanGuard() {
    Thread stdinWatch =
        new Thread(
            () -> {
              try {
                InputStream in = System.in;
                while (in.read() >= 0) {
                  // ignore input; only EOF matters
                }
              } catch (IOException ignored) {
                // treat as EOF
              }
              Runtime.getRuntime().halt(3);
            },
            "orphan-guard-stdin");
    stdinWatch.setDaemon(true);
    stdinWatch.start();
    Thread timer =
        new Thread(
            () -> {
              try {
                Thread.sleep(90_000); // keeps this guard alive until it ends the process
              } catch (InterruptedException ignored) {
                // fall through
              }
              Runtime.getRuntime().halt(4);
            },
            "orphan-guard-timer");
    timer.setDaemon(true);
    timer.start();
  }
}
