package dev.hourglass.internal.store;

import dev.hourglass.testing.OrderDocuments;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code hourglass-bench/run compression}: what zstd does to payloads of a given size, as Hourglass
 * stores them: order documents (hourglass-testing's OrderDocuments, about 1 KB of JSON) cut to each
 * size, compressed without a dictionary (a queue's first payloads) and with one trained on {@value
 * PayloadPacker#SAMPLES} others (as a producer trains it), by zstd-jni and by the pure-Java zstd.
 * Per size: stored size over payload size, and microseconds to compress and to open one, after a
 * warm-up. The threshold below which compression is not worth it is read here (docs/BENCHMARKS.md,
 * "Compression").
 */
public final class CompressionTable {
  private static final int[] SIZES = {64, 128, 192, 256, 384, 512, 768, 1024};
  private static final int DOCS = 2000;
  private static final int ROUNDS = 20;

  private CompressionTable() {}

  public static void main(String[] args) {
    OrderDocuments docs = new OrderDocuments(1);
    List<byte[]> samples = new ArrayList<>();
    for (int i = 0; i < PayloadPacker.SAMPLES; i++) {
      samples.add(docs.next());
    }
    NativeZstd jni = new NativeZstd();
    JavaZstd java = new JavaZstd("measured beside zstd-jni");
    ZstdDictionary dictionary = new ZstdDictionary(jni.train(samples, 16 * 1024));
    List<byte[]> payloads = new ArrayList<>();
    for (int i = 0; i < DOCS; i++) {
      payloads.add(docs.next());
    }
    System.out.printf(
        Locale.ROOT,
        "# %d order documents, mean %d bytes; dictionary %d bytes from %d samples%n",
        DOCS,
        payloads.stream().mapToInt(p -> p.length).sum() / DOCS,
        dictionary.bytes().length,
        samples.size());
    System.out.println(
        "size_bytes ratio_plain ratio_dictionary ratio_java us_compress_plain"
            + " us_compress_dictionary us_compress_java us_open_dictionary");
    for (int size : SIZES) {
      List<byte[]> cut = new ArrayList<>();
      for (byte[] p : payloads) {
        cut.add(Arrays.copyOf(p, Math.min(size, p.length)));
      }
      Row plain = measure(jni, cut, null);
      Row dict = measure(jni, cut, dictionary);
      Row pure = measure(java, cut, null);
      System.out.printf(
          Locale.ROOT,
          "%d %.3f %.3f %.3f %.2f %.2f %.2f %.2f%n",
          size,
          plain.ratio,
          dict.ratio,
          pure.ratio,
          plain.compressUs,
          dict.compressUs,
          pure.compressUs,
          dict.openUs);
    }
  }

  private record Row(double ratio, double compressUs, double openUs) {}

  private static Row measure(Zstd zstd, List<byte[]> payloads, ZstdDictionary d) {
    long in = 0;
    long out = 0;
    List<byte[]> frames = new ArrayList<>();
    for (byte[] p : payloads) {
      byte[] f = zstd.compress(p, d);
      frames.add(f);
      in += p.length;
      out += Math.min(f.length, p.length); // stored as given when not smaller
    }
    long compressNs = Long.MAX_VALUE;
    long openNs = Long.MAX_VALUE;
    for (int r = 0; r < ROUNDS; r++) { // the fastest round: the least disturbed by the machine
      long t0 = System.nanoTime();
      for (byte[] p : payloads) {
        zstd.compress(p, d);
      }
      long t1 = System.nanoTime();
      for (int i = 0; i < frames.size(); i++) {
        zstd.decompress(frames.get(i), payloads.get(i).length, d);
      }
      long t2 = System.nanoTime();
      compressNs = Math.min(compressNs, t1 - t0);
      openNs = Math.min(openNs, t2 - t1);
    }
    return new Row(
        (double) out / in, compressNs / 1e3 / payloads.size(), openNs / 1e3 / payloads.size());
  }
}
