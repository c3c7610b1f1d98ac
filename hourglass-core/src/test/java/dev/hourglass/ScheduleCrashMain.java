package dev.hourglass;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * A child JVM for {@link ScheduleCrashTest}, killed with SIGKILL. Arguments: redis URI, queue,
 * mode. Mode {@code consume}: a worker whose handler prints {@code HG START <id>} and then never
 * returns (so the kill lands between an occurrence's delivery and its ack). Mode {@code upsert}:
 * puts the schedule {@code s} again and again, alternating its interval (so that each put removes
 * the pending occurrence and enqueues another), printing {@code HG PUT <n>} after each.
 */
public final class ScheduleCrashMain {
  static final Duration VISIBILITY = Duration.ofSeconds(2);

  private ScheduleCrashMain() {}

  public static void main(String[] args) throws Exception {
    CrashingWorkerMain.startOrphanGuard();
    Hourglass hourglass = Hourglass.builder().redisUri(args[0]).build();
    Queue<String> queue = hourglass.queue(args[1], String.class);
    if (args[2].equals("consume")) {
      hourglass.worker(
          args[1],
          job -> {
            emit("START " + job.id());
            new CountDownLatch(1).await(); // never acks
          },
          WorkerOptions.builder().concurrency(1).visibility(VISIBILITY).build());
      emit("READY");
      new CountDownLatch(1).await();
    }
    for (long n = 0; ; n++) {
      queue
          .schedules()
          .put(ScheduleSpec.every("s", Duration.ofSeconds(1 + n % 2), "put-" + n).build());
      emit("PUT " + n);
    }
  }

  private static synchronized void emit(String line) {
    System.out.println("HG " + line);
    System.out.flush();
  }
}
