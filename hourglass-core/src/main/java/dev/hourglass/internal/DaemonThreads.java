package dev.hourglass.internal;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Thread factories for the client's pools: daemon threads, so they never keep a JVM alive. */
final class DaemonThreads {
  private DaemonThreads() {}

  /** Every thread named {@code name}. */
  static ThreadFactory named(String name) {
    return r -> daemon(r, name);
  }

  /** Threads named {@code prefix-1}, {@code prefix-2}, ... */
  static ThreadFactory numbered(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> daemon(r, prefix + "-" + n.incrementAndGet());
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }
}
