package dev.hourglass.internal.store;

import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdDictCompress;
import com.github.luben.zstd.ZstdDictDecompress;
import com.github.luben.zstd.ZstdDictTrainer;
import com.github.luben.zstd.ZstdException;
import com.github.luben.zstd.util.Native;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * zstd through zstd-jni's native library. Contexts are pooled, per dictionary and one pool without:
 * making one costs more than compressing a small payload, and a context serves one thread at a
 * time.
 */
final class NativeZstd extends Zstd {
  /**
   * zstd's level 1: with a dictionary as small as with level 3 on the payloads measured (docs:
   * BENCHMARKS.md, "Compression"), and faster.
   */
  private static final int LEVEL = 1;

  private final Prepared plain;

  /**
   * @throws LinkageError when the native library does not load on this platform
   */
  NativeZstd() {
    Native.load();
    this.plain = new Prepared(null, null);
  }

  @Override
  String describe() {
    return "zstd-jni (native)";
  }

  @Override
  boolean dictionaries() {
    return true;
  }

  @Override
  byte[] compress(byte[] src, ZstdDictionary dictionary) {
    Prepared p = prepared(dictionary);
    ZstdCompressCtx ctx = p.compressors.poll();
    if (ctx == null) {
      ctx = p.newCompressor();
    }
    try {
      return ctx.compress(src);
    } finally {
      p.compressors.offer(ctx);
    }
  }

  @Override
  byte[] decompress(byte[] frame, int contentSize, ZstdDictionary dictionary) {
    Prepared p = prepared(dictionary);
    ZstdDecompressCtx ctx = p.decompressors.poll();
    if (ctx == null) {
      ctx = p.newDecompressor();
    }
    try {
      return ctx.decompress(frame, contentSize);
    } catch (ZstdException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    } finally {
      p.decompressors.offer(ctx);
    }
  }

  @Override
  byte[] train(List<byte[]> samples, int maxBytes) {
    int total = 0;
    for (byte[] s : samples) {
      total += s.length;
    }
    ZstdDictTrainer trainer = new ZstdDictTrainer(total, maxBytes, LEVEL);
    samples.forEach(trainer::addSample);
    try {
      return trainer.trainSamples();
    } catch (ZstdException e) {
      return null; // too few samples, or too alike: no dictionary helps
    }
  }

  private Prepared prepared(ZstdDictionary d) {
    if (d == null) {
      return plain;
    }
    Object p = d.prepared;
    if (p == null) {
      synchronized (d) {
        p = d.prepared;
        if (p == null) {
          p = new Prepared(new ZstdDictCompress(d.bytes, LEVEL), new ZstdDictDecompress(d.bytes));
          d.prepared = p;
        }
      }
    }
    return (Prepared) p;
  }

  /** A dictionary as zstd uses it (none: both null), and its pooled contexts. */
  private static final class Prepared {
    final ZstdDictCompress forCompress;
    final ZstdDictDecompress forDecompress;
    final ConcurrentLinkedQueue<ZstdCompressCtx> compressors = new ConcurrentLinkedQueue<>();
    final ConcurrentLinkedQueue<ZstdDecompressCtx> decompressors = new ConcurrentLinkedQueue<>();

    Prepared(ZstdDictCompress forCompress, ZstdDictDecompress forDecompress) {
      this.forCompress = forCompress;
      this.forDecompress = forDecompress;
    }

    ZstdCompressCtx newCompressor() {
      ZstdCompressCtx ctx =
          new ZstdCompressCtx().setLevel(LEVEL).setContentSize(true).setChecksum(false);
      return forCompress == null ? ctx : ctx.loadDict(forCompress);
    }

    ZstdDecompressCtx newDecompressor() {
      ZstdDecompressCtx ctx = new ZstdDecompressCtx();
      return forDecompress == null ? ctx : ctx.loadDict(forDecompress);
    }
  }
}
