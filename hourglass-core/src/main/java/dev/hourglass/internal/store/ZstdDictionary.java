package dev.hourglass.internal.store;

/**
 * A zstd dictionary of one queue, by the id it names itself by (which every frame compressed with
 * it names too), and what the {@link Zstd} implementation made of it to compress and read with.
 */
public final class ZstdDictionary {
  final long id;
  final byte[] bytes;

  /** The implementation's prepared form, made on first use ({@link NativeZstd}). */
  volatile Object prepared;

  ZstdDictionary(byte[] bytes) {
    this.id = Zstd.dictionaryId(bytes);
    this.bytes = bytes;
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
