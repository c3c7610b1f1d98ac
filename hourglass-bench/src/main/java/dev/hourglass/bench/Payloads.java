package dev.hourglass.bench;

import dev.hourglass.testing.OrderDocuments;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Job payloads: the due time (epoch ms, 8 bytes big-endian), the job's sequence number (4 bytes),
 * then random bytes up to the payload size, or an order document ({@code --payload order}: about 1
 * KB of JSON, different per job, {@link OrderDocuments}). The due time in the payload lets the
 * consumer compute lateness the same way for every system; the sequence number finds duplicates.
 * Two instances with the same seed and size produce the same bytes, so every system gets the same
 * payloads.
 */
final class Payloads {
  /** Bytes before the random part: due time and sequence number. */
  static final int HEADER_BYTES = 12;

  /** The kinds of {@code --payload}. */
  static final List<String> KINDS = List.of("random", "order");

  private final int size;
  private final SplittableRandom random;
  private final OrderDocuments orders; // null: random bytes

  /** Random payloads of {@code size} bytes. */
  Payloads(int size, long seed) {
    this(size, seed, false);
  }

  Payloads(int size, long seed, boolean orders) {
    if (size < HEADER_BYTES) {
      throw new IllegalArgumentException("payload size " + size + " < " + HEADER_BYTES);
    }
    this.size = size;
    this.random = new SplittableRandom(seed);
    this.orders = orders ? new OrderDocuments(seed) : null;
  }

  /** The next job: a new payload carrying {@code dueMs} and {@code seq}. Not thread-safe. */
  Job job(long dueMs, int seq) {
    byte[] p;
    if (orders == null) {
      p = new byte[size];
      random.nextBytes(p);
    } else {
      byte[] doc = orders.next();
      p = new byte[HEADER_BYTES + doc.length];
      System.arraycopy(doc, 0, p, HEADER_BYTES, doc.length);
    }
    ByteBuffer.wrap(p).putLong(dueMs).putInt(seq);
    return new Job(p, dueMs);
  }

  /** A uniform random delay in {@code [minMs, maxMs]}, from this instance's random sequence. */
  long delay(long minMs, long maxMs) {
    return minMs == maxMs ? minMs : random.nextLong(minMs, maxMs + 1);
  }

  static long dueMs(byte[] payload) {
    return ByteBuffer.wrap(payload).getLong(0);
  }

  static int seq(byte[] payload) {
    return ByteBuffer.wrap(payload).getInt(8);
  }

  /** One job to enqueue: its payload and due time (epoch ms, wall clock of this machine). */
  record Job(byte[] payload, long dueMs) {}
}
