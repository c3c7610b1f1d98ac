package dev.hourglass.internal.store;

import io.airlift.compress.MalformedInputException;
import io.airlift.compress.zstd.ZstdCompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * zstd in pure Java (aircompressor), where zstd-jni's native library does not load: it writes and
 * reads frames without a dictionary, and trains none. A frame that names a dictionary needs
 * zstd-jni.
 */
final class JavaZstd extends Zstd {
  private final String why;

  /** Decompressors hold a block's worth of buffers: pooled, one thread at a time each. */
  private final ConcurrentLinkedQueue<ZstdDecompressor> decompressors =
      new ConcurrentLinkedQueue<>();

  JavaZstd(String why) {
    this.why = why;
  }

  @Override
  String describe() {
    return "aircompressor (pure Java; zstd-jni not used: " + why + ")";
  }

  @Override
  boolean dictionaries() {
    return false;
  }

  @Override
  byte[] compress(byte[] src, ZstdDictionary dictionary) {
    if (dictionary != null) {
      throw new IllegalStateException("pure-Java zstd compresses without a dictionary only");
    }
    ZstdCompressor c = new ZstdCompressor();
    byte[] out = new byte[c.maxCompressedLength(src.length)];
    int n = c.compress(src, 0, src.length, out, 0, out.length);
    return Arrays.copyOf(out, n);
  }

  @Override
  byte[] decompress(byte[] frame, int contentSize, ZstdDictionary dictionary) {
    if (dictionary != null) {
      throw new IllegalArgumentException(
          "the payload was compressed with "
              + dictionary
              + ", which needs zstd-jni's native library, and this process uses "
              + describe());
    }
    ZstdDecompressor d = decompressors.poll();
    if (d == null) {
      d = new ZstdDecompressor();
    }
    try {
      byte[] out = new byte[contentSize];
      int n = d.decompress(frame, 0, frame.length, out, 0, out.length);
      if (n != contentSize) {
        throw new IllegalArgumentException(
            "a zstd frame of " + n + " bytes announced " + contentSize);
      }
      return out;
    } catch (MalformedInputException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    } finally {
      decompressors.offer(d);
    }
  }

  @Override
  byte[] train(List<byte[]> samples, int maxBytes) {
    return null;
  }
}
