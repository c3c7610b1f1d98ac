package dev.hourglass.bench;

import dev.hourglass.bench.Payloads.Job;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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

  /** Batches each producer keeps in flight, for both systems alike. */
  static final int BATCHES_IN_FLIGHT = 4;

  /**
   * Enqueues jobs {@code 0..count-1} with {@link SystemUnderTest#enqueueBatchAsync}, {@code
   * batchSize} per call, at most {@value #BATCHES_IN_FLIGHT} calls in flight; after each call
   * completes tells {@code progress} how many are stored (calls to it never overlap). Returns when
   * Redis holds all of them.
   */
  static void batches(
      SystemUnderTest sut, int count, int batchSize, IntFunction<Job> job, IntConsumer progress)
      throws InterruptedException {
    batches(sut, count, batchSize, job, (first, size, stored) -> progress.accept(stored));
  }

  /** Told after each batch call completed: its jobs {@code first..first+size-1}, and the total. */
  interface BatchStored {
    void stored(int first, int size, int storedSoFar);
  }

  /** As above, telling {@code progress} which jobs each completed call stored. */
  static void batches(
      SystemUnderTest sut, int count, int batchSize, IntFunction<Job> job, BatchStored progress)
      throws InterruptedException {
    batches(sut::enqueueBatchAsync, count, batchSize, job, progress);
  }

  /**
   * Sends one batch; the future completes once Redis holds all of its jobs. {@link
   * SystemUnderTest#enqueueBatchAsync}, or the scale workload's raw-Redis baseline.
   */
  interface BatchSender {
    CompletableFuture<?> send(List<Job> jobs);
  }

  /** As above, for any batch sender. */
  static void batches(
      BatchSender sender, int count, int batchSize, IntFunction<Job> job, BatchStored progress)
      throws InterruptedException {
    Semaphore inFlight = new Semaphore(BATCHES_IN_FLIGHT);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    int[] stored = {0}; // guarded by itself
    List<Job> batch = new ArrayList<>(batchSize);
    for (int i = 0; i < count && failure.get() == null; i++) {
      batch.add(job.apply(i));
      if (batch.size() == batchSize || i == count - 1) {
        int size = batch.size();
        int first = i + 1 - size;
        inFlight.acquire();
        sender
            .send(batch)
            .whenComplete(
                (ok, e) -> {
                  if (e != null) {
                    failure.compareAndSet(null, e);
                  }
                  synchronized (stored) {
                    stored[0] += size;
                    progress.stored(first, size, stored[0]);
                  }
                  inFlight.release();
                });
        batch = new ArrayList<>(batchSize);
      }
    }
    inFlight.acquire(BATCHES_IN_FLIGHT); // every call has completed
    if (failure.get() != null) {
      throw new IllegalStateException("a batch enqueue failed", failure.get());
    }
  }
}
