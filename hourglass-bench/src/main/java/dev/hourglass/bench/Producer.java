package dev.hourglass.bench;

import dev.hourglass.bench.Payloads.Job;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;

/** Enqueues generated jobs from the calling thread, one by one or in batches. */
final class Producer {
  private Producer() {}

  /**
   * Enqueues jobs {@code 0..count-1} with {@link SystemUnderTest#enqueueAsync}, at most {@code
   * window} in flight; returns when Redis holds all of them.
   */
  static void singles(SystemUnderTest sut, int count, int window, IntFunction<Job> job)
      throws InterruptedException {
    Semaphore inFlight = new Semaphore(window);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    for (int i = 0; i < count && failure.get() == null; i++) {
      Job next = job.apply(i);
      inFlight.acquire();
      sut.enqueueAsync(next)
          .whenComplete(
              (ok, e) -> {
                if (e != null) {
                  failure.compareAndSet(null, e);
                }
                inFlight.release();
              });
    }
    inFlight.acquire(window); // every call has completed
    if (failure.get() != null) {
      throw new IllegalStateException("an enqueue failed", failure.get());
    }
  }

  /**
   * Enqueues jobs {@code 0..count-1} with {@link SystemUnderTest#enqueueBatch}, {@code batchSize}
   * per call, one call at a time; after each call tells {@code progress} how many are stored.
   */
  static void batches(
      SystemUnderTest sut, int count, int batchSize, IntFunction<Job> job, IntConsumer progress) {
    List<Job> batch = new ArrayList<>(batchSize);
    for (int i = 0; i < count; i++) {
      batch.add(job.apply(i));
      if (batch.size() == batchSize || i == count - 1) {
        sut.enqueueBatch(batch);
        progress.accept(i + 1);
        batch = new ArrayList<>(batchSize);
      }
    }
  }
}
