package dev.hourglass.internal.store;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One script argument that carries many values, little-endian, as Lua's {@code struct.unpack} reads
 * them: the scripts read a whole batch of jobs from one argument instead of a few arguments per
 * job, which Redis would otherwise parse, wrap and copy one by one.
 */
final class Blob {
  private byte[] bytes;
  private int size;

  Blob(int expectedBytes) {
    this.bytes = new byte[expectedBytes];
  }

  private void room(int n) {
    if (size + n > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + n));
    }
  }

  /** An unsigned byte, struct {@code B}. */
  Blob u8(int v) {
    room(1);
    bytes[size++] = (byte) v;
    return this;
  }

  /** An unsigned 16-bit integer, struct {@code H}. */
  Blob u16(int v) {
    room(2);
    bytes[size++] = (byte) v;
    bytes[size++] = (byte) (v >>> 8);
    return this;
  }

  /** A 32-bit integer, struct {@code I4}. */
  Blob u32(long v) {
    room(4);
    for (int i = 0; i < 4; i++) {
      bytes[size++] = (byte) (v >>> (8 * i));
    }
    return this;
  }

  /** A signed 48-bit integer, struct {@code i6}. */
  Blob i48(long v) {
    room(6);
    for (int i = 0; i < 6; i++) {
      bytes[size++] = (byte) (v >>> (8 * i));
    }
    return this;
  }

  /** Raw bytes. */
  Blob raw(byte[] b) {
    room(b.length);
    System.arraycopy(b, 0, bytes, size, b.length);
    size += b.length;
    return this;
  }

  /**
   * A string after its length in bytes in one byte, struct {@code Bc0}: at most 255 bytes of UTF-8
   * (ids, members, receipts, decimal numbers; ASCII nearly always, which is copied as it is).
   */
  Blob shortText(String s) {
    int n = s.length();
    for (int i = 0; i < n; i++) {
      if (s.charAt(i) >= 0x80) {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        checkShort(utf8.length);
        return u8(utf8.length).raw(utf8);
      }
    }
    checkShort(n);
    room(1 + n);
    bytes[size++] = (byte) n;
    for (int i = 0; i < n; i++) {
      bytes[size++] = (byte) s.charAt(i);
    }
    return this;
  }

  private static void checkShort(int n) {
    if (n > 255) {
      throw new IllegalArgumentException("a short text of " + n + " bytes");
    }
  }

  byte[] toBytes() {
    return Arrays.copyOf(bytes, size);
  }

  /** The bytes without a copy, when they fill the array this blob was made with. */
  byte[] bytesExact() {
    return size == bytes.length ? bytes : toBytes();
  }
}
