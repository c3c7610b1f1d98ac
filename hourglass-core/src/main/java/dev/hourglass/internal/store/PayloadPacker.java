package dev.hourglass.internal.store;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How one client stores the payloads of one queue: a payload of at least the queue's threshold is
 * compressed with zstd when that makes it smaller, with the queue's dictionary once there is one.
 * The first compressible payload looks the dictionary up; when the queue has none, the client keeps
 * the first {@value #SAMPLES} such payloads (their first {@value #SAMPLE_BYTES} bytes), trains a
 * dictionary on them in the background and publishes it, unless another producer published one
 * first, which it then uses instead ({@link Payloads#publish}). Payloads compressed meanwhile go
 * without a dictionary.
 */
public final class PayloadPacker {
  private static final Logger log = LoggerFactory.getLogger(PayloadPacker.class);

  static final int SAMPLES = 100;
  static final int SAMPLE_BYTES = 4096;
  private static final int MAX_DICTIONARY_BYTES = 16 * 1024;

  /** Most samples asked for: a queue whose payloads train no dictionary by then gets none. */
  private static final int MOST_SAMPLES = 16 * SAMPLES;

  /** A payload as an enqueue stores it: its record flags, its bytes, the dictionary they name. */
  public record Packed(int flags, byte[] bytes, ZstdDictionary dictionary) {}

  private enum Learning {
    NOT_STARTED,
    LOOKING_UP,
    SAMPLING,
    TRAINING,
    DONE
  }

  private final Payloads payloads;
  private final Executor background;
  private final String queue;
  private volatile ZstdDictionary dictionary;

  // guarded by this
  private Learning learning = Learning.NOT_STARTED;
  private final List<byte[]> samples = new ArrayList<>();
  private int wanted = SAMPLES;

  public PayloadPacker(Payloads payloads, Executor background, String queue) {
    this.payloads = payloads;
    this.background = background;
    this.queue = queue;
  }

  /**
   * The payload as stored: compressed when it has {@code threshold} bytes or more (0: never) and
   * compression makes it smaller. {@code first} is the queue's partition 0, which names its
   * dictionary.
   */
  public Packed pack(byte[] payload, int threshold, Partition first) {
    if (threshold <= 0 || payload.length < threshold) {
      return new Packed(0, payload, null);
    }
    ZstdDictionary d = dictionary;
    if (d == null) {
      learn(payload, first);
    }
    byte[] z = payloads.compress(payload, d);
    return z == null ? new Packed(0, payload, null) : new Packed(RecordCodec.COMPRESSED, z, d);
  }

  private synchronized void learn(byte[] payload, Partition first) {
    switch (learning) {
      case NOT_STARTED -> {
        if (!payloads.zstd().dictionaries()) {
          learning = Learning.DONE;
          return;
        }
        learning = Learning.LOOKING_UP;
        payloads.current(first).whenComplete((d, e) -> lookedUp(d, e));
      }
      case SAMPLING -> {
        samples.add(Arrays.copyOf(payload, Math.min(payload.length, SAMPLE_BYTES)));
        if (samples.size() >= wanted) {
          learning = Learning.TRAINING;
          List<byte[]> taken = List.copyOf(samples);
          samples.clear();
          try {
            background.execute(() -> train(taken, first));
          } catch (RejectedExecutionException closing) {
            learning = Learning.DONE; // the client is closing
          }
        }
      }
      default -> {} // looking up, training: payloads go without a dictionary meanwhile
    }
  }

  private synchronized void lookedUp(ZstdDictionary d, Throwable failure) {
    if (failure != null) {
      learning = Learning.NOT_STARTED; // the next compressible payload asks again
    } else if (d != null) {
      dictionary = d;
      learning = Learning.DONE;
    } else {
      learning = Learning.SAMPLING;
    }
  }

  private void train(List<byte[]> taken, Partition first) {
    try {
      trainAndPublish(taken, first);
    } catch (RuntimeException e) {
      log.warn("queue {}: training a zstd dictionary failed", queue, e);
      trainedNothing();
    }
  }

  /** Training gave no dictionary: ask for more samples, up to {@link #MOST_SAMPLES}. */
  private synchronized void trainedNothing() {
    wanted *= 4;
    learning = wanted > MOST_SAMPLES ? Learning.DONE : Learning.SAMPLING;
    if (learning == Learning.DONE) {
      log.info("queue {}: its payloads train no zstd dictionary; compressed without", queue);
    }
  }

  private void trainAndPublish(List<byte[]> taken, Partition first) {
    int total = 0;
    for (byte[] s : taken) {
      total += s.length;
    }
    byte[] trained =
        payloads.zstd().train(taken, Math.max(1024, Math.min(MAX_DICTIONARY_BYTES, total / 8)));
    if (trained == null || Zstd.dictionaryId(trained) == 0) {
      trainedNothing();
      return;
    }
    payloads
        .publish(first, new ZstdDictionary(trained))
        .whenComplete(
            (d, e) -> {
              synchronized (this) {
                if (e != null) {
                  log.warn(
                      "queue {}: publishing its zstd dictionary failed; sampling again", queue, e);
                  learning = Learning.SAMPLING; // published on the next round of samples
                } else {
                  dictionary = d;
                  learning = Learning.DONE;
                }
              }
            });
  }
}
