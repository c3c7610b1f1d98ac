package dev.hourglass.internal.store;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * zstd, the compression of payloads: zstd-jni's native library where it loads ({@link NativeZstd}:
 * dictionaries trained, compressed with and read), else aircompressor's pure-Java zstd ({@link
 * JavaZstd}: frames without a dictionary only). Both write and read standard zstd frames, so either
 * reads what the other wrote without a dictionary.
 */
abstract class Zstd {
  private static final Logger log = LoggerFactory.getLogger(Zstd.class);

  static final String PROPERTY = "hourglass.zstd";

  /** The largest payload a frame may announce: the largest a client accepts (64 MiB). */
  static final long MAX_CONTENT = 64L * 1024 * 1024;

  private static final int FRAME_MAGIC = 0xFD2FB528;
  private static final int DICTIONARY_MAGIC = 0xEC30A437;

  /**
   * The implementation a new client uses: zstd-jni's where its library loads (tried once per
   * process), unless the system property {@value #PROPERTY} is {@code java}.
   */
  static Zstd choose() {
    return "java".equals(System.getProperty(PROPERTY))
        ? new JavaZstd(PROPERTY + "=java")
        : Loaded.INSTANCE;
  }

  /** The native implementation, or the pure-Java one where it does not load. */
  private static final class Loaded {
    static final Zstd INSTANCE = load();

    private static Zstd load() {
      try {
        return new NativeZstd();
      } catch (LinkageError | RuntimeException e) { // no native library for this platform
        log.info(
            "zstd-jni's native library did not load ({}): payloads are compressed in pure Java,"
                + " without dictionaries",
            e.toString());
        return new JavaZstd(e.toString());
      }
    }
  }

  /** What this implementation is, for logs and errors. */
  abstract String describe();

  /** Whether dictionaries can be trained and used here. */
  abstract boolean dictionaries();

  /** A frame of {@code src}, compressed with {@code dictionary} (null: none). */
  abstract byte[] compress(byte[] src, ZstdDictionary dictionary);

  /**
   * The content of {@code frame}, compressed with {@code dictionary} (null: none).
   *
   * @throws IllegalArgumentException when the frame cannot be read
   */
  abstract byte[] decompress(byte[] frame, int contentSize, ZstdDictionary dictionary);

  /** A dictionary of at most {@code maxBytes} trained on {@code samples}, or null. */
  abstract byte[] train(List<byte[]> samples, int maxBytes);

  /** The header fields of a frame this reads: the dictionary it names (0: none), its size. */
  record Frame(long dictionaryId, int contentSize) {}

  /**
   * The header of the zstd frame at {@code from} in {@code b} (RFC 8878, 3.1.1): its dictionary id
   * and content size.
   *
   * @throws IllegalArgumentException when {@code b} starts no frame or announces no size, or one
   *     above {@link #MAX_CONTENT}
   */
  static Frame frame(byte[] b, int from) {
    if (b.length - from < 6 || (int) le(b, from, 4) != FRAME_MAGIC) {
      throw new IllegalArgumentException("not a zstd frame");
    }
    int descriptor = b[from + 4] & 0xff;
    boolean singleSegment = (descriptor & 0x20) != 0;
    int dictionaryBytes = new int[] {0, 1, 2, 4}[descriptor & 3];
    int sizeFlag = descriptor >>> 6;
    int sizeBytes = new int[] {singleSegment ? 1 : 0, 2, 4, 8}[sizeFlag];
    int at = from + 5 + (singleSegment ? 0 : 1);
    if (sizeBytes == 0 || b.length < at + dictionaryBytes + sizeBytes) {
      throw new IllegalArgumentException("a zstd frame without its content size");
    }
    long dictionary = le(b, at, dictionaryBytes);
    long size = le(b, at + dictionaryBytes, sizeBytes) + (sizeBytes == 2 ? 256 : 0);
    if (size < 0 || size > MAX_CONTENT) {
      throw new IllegalArgumentException("a zstd frame of " + size + " bytes");
    }
    return new Frame(dictionary, (int) size);
  }

  /** The id a zstd dictionary names itself by (0 for raw content). */
  static long dictionaryId(byte[] dictionary) {
    return dictionary.length >= 8 && (int) le(dictionary, 0, 4) == DICTIONARY_MAGIC
        ? le(dictionary, 4, 4)
        : 0;
  }

  private static long le(byte[] b, int at, int n) {
    long v = 0;
    for (int i = n - 1; i >= 0; i--) {
      v = (v << 8) | (b[at + i] & 0xff);
    }
    return v;
  }
}
