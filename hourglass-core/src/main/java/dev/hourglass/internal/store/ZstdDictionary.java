package dev.hourglass.internal.store;

import java.util.function.Function;

/**
 * A zstd dictionary of one queue, by the id it names itself by (which every frame compressed with
 * it names too), and what the {@link Zstd} implementation made of it to compress and read with.
 */
public final class ZstdDictionary {
  private final long id;
  private final byte[] bytes;

  /** The implementation's prepared form, made on first use ({@link NativeZstd}). */
  private volatile Object prepared;

  ZstdDictionary(byte[] bytes) {
    this.id = Zstd.dictionaryId(bytes);
    this.bytes = bytes;
  }

  long id() {
    return id;
  }

  byte[] bytes() {
    return bytes;
  }

  /**
   * The implementation's prepared form of this dictionary, made from its bytes by {@code make} on
   * first use, once.
   */
  @SuppressWarnings("unchecked")
  <T> T prepared(Function<byte[], T> make) {
    Object p = prepared;
    if (p == null) {
      synchronized (this) {
        p = prepared;
        if (p == null) {
          prepared = p = make.apply(bytes);
        }
      }
    }
    return (T) p;
  }

  /** The field of a partition's meta hash that holds dictionary {@code id}. */
  static String field(long id) {
    return "z" + id;
  }

  @Override
  public String toString() {
    return "zstd dictionary " + id + " (" + bytes.length + " bytes)";
  }
}
