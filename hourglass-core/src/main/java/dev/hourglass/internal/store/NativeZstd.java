package dev.hourglass.internal.store;

import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdDictCompress;
import com.github.luben.zstd.ZstdDictDecompress;
import com.github.luben.zstd.ZstdDictTrainer;
import com.github.luben.zstd.ZstdException;
import com.github.luben.zstd.util.Native;
import java.io.Closeable;
import java.io.IOException;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * zstd through zstd-jni's native library. Contexts are pooled, per dictionary and one pool without:
 * making one costs more than compressing a small payload, and a context serves one thread at a
 * time. A pool keeps at most {@link #POOLED} contexts of each kind and closes the rest; a
 * dictionary's pools are closed when the dictionary is no longer reachable (zstd-jni's contexts
 * hold native memory that nothing else frees).
 */
final class NativeZstd extends Zstd {
  private static final int POOLED = 2 * Runtime.getRuntime().availableProcessors();
  private static final Cleaner CLEANER = Cleaner.create();

  /**
   * zstd's level 1: with a dictionary it stored the payloads measured as small as level 3, and
   * faster. Level 1's sizes and times per payload size: docs/BENCHMARKS.md, "Compression".
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
    ZstdCompressCtx ctx = p.compressors.take();
    if (ctx == null) {
      ctx = p.newCompressor();
    }
    try {
      return ctx.compress(src);
    } finally {
      p.compressors.give(ctx);
      Reference.reachabilityFence(dictionary); // its Cleaner closes the pools: not before this
    }
  }

  @Override
  byte[] decompress(byte[] frame, int contentSize, ZstdDictionary dictionary) {
    Prepared p = prepared(dictionary);
    ZstdDecompressCtx ctx = p.decompressors.take();
    if (ctx == null) {
      ctx = p.newDecompressor();
    }
    try {
      return ctx.decompress(frame, contentSize);
    } catch (ZstdException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    } finally {
      p.decompressors.give(ctx);
      Reference.reachabilityFence(dictionary);
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
    return d.prepared(
        bytes -> {
          Prepared made =
              new Prepared(new ZstdDictCompress(bytes, LEVEL), new ZstdDictDecompress(bytes));
          CLEANER.register(d, made::close);
          return made;
        });
  }

  /** Contexts of one kind waiting for a thread: at most {@link #POOLED}, the rest closed. */
  private static final class Pool<C extends Closeable> {
    private final ConcurrentLinkedQueue<C> idle = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();

    /** An idle context, or null. */
    C take() {
      C c = idle.poll();
      if (c != null) {
        size.decrementAndGet();
      }
      return c;
    }

    void give(C c) {
      if (size.incrementAndGet() <= POOLED) {
        idle.offer(c);
      } else {
        size.decrementAndGet();
        closeQuietly(c);
      }
    }

    void close() {
      for (C c = take(); c != null; c = take()) {
        closeQuietly(c);
      }
    }

    private static void closeQuietly(Closeable c) {
      try {
        c.close();
      } catch (IOException | RuntimeException e) {
        // zstd-jni's close frees native memory and throws nothing checked in practice
      }
    }
  }

  /** A dictionary as zstd uses it (none: both null), and its pooled contexts. */
  private static final class Prepared {
    final ZstdDictCompress forCompress;
    final ZstdDictDecompress forDecompress;
    final Pool<ZstdCompressCtx> compressors = new Pool<>();
    final Pool<ZstdDecompressCtx> decompressors = new Pool<>();

    Prepared(ZstdDictCompress forCompress, ZstdDictDecompress forDecompress) {
      this.forCompress = forCompress;
      this.forDecompress = forDecompress;
    }

    /** Closes the pooled contexts (the dictionary is unreachable: none is in use). */
    void close() {
      compressors.close();
      decompressors.close();
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
