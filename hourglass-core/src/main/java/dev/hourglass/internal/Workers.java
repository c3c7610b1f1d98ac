package dev.hourglass.internal;

import dev.hourglass.HourglassException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The workers a client runs, so that closing the client closes them first. */
final class Workers {
  private static final Logger log = LoggerFactory.getLogger(Workers.class);

  private final Set<WorkerImpl<?>> running = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  /**
   * Makes a worker, given what it calls when it has closed (it leaves this set), and starts it.
   *
   * @throws HourglassException when the client is closed
   */
  <W extends WorkerImpl<?>> W start(Function<Consumer<WorkerImpl<?>>, W> make) {
    if (closed) {
      throw new HourglassException("this Hourglass client is closed");
    }
    W worker = make.apply(running::remove);
    running.add(worker);
    if (closed) { // close() ran meanwhile, and may not have seen it
      worker.close();
      throw new HourglassException("this Hourglass client is closed");
    }
    worker.start();
    return worker;
  }

  /** Closes every worker, each with its own shutdown timeout; no worker starts after this. */
  void close() {
    closed = true;
    for (WorkerImpl<?> w : List.copyOf(running)) {
      try {
        w.close();
      } catch (RuntimeException e) {
        log.warn("closing worker of queue {} failed", w.queue(), e);
      }
    }
  }
}
