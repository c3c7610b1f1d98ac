package dev.hourglass.spring.autoconfigure;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs blocking stops (workers, forwarders: each waits up to its own timeout) at once, one thread
 * each, and waits for all of them, so that shutting down takes the longest one's time, not their
 * sum.
 */
final class ParallelStop {
  private ParallelStop() {}

  /** One stop to run, named for its thread. */
  record Stop(String name, Runnable action) {}

  /** Runs every stop on a thread of its own and returns when all have returned. */
  static void all(List<Stop> stops) {
    List<Thread> threads = new ArrayList<>();
    for (Stop stop : stops) {
      Thread t = new Thread(stop.action(), stop.name());
      t.start();
      threads.add(t);
    }
    for (Thread t : threads) {
      joinUninterruptibly(t);
    }
  }

  /** Waits for the thread to end; an interrupt meanwhile is kept for the caller. */
  static void joinUninterruptibly(Thread t) {
    boolean interrupted = false;
    while (t.isAlive()) {
      try {
        t.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
