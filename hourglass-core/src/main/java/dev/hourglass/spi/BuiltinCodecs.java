package dev.hourglass.spi;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** The codecs {@link PayloadCodec#bytes()} and {@link PayloadCodec#utf8()} return. */
final class BuiltinCodecs {
  private BuiltinCodecs() {}

  static final PayloadCodec<byte[]> BYTES =
      new PayloadCodec<>() {
        @Override
        public byte[] encode(byte[] value) {
          return value;
        }

        @Override
        public byte[] decode(byte[] bytes) {
          return bytes;
        }

        @Override
        public String toString() {
          return "bytes";
        }
      };

  static final PayloadCodec<String> UTF8 =
      new PayloadCodec<>() {
        @Override
        public byte[] encode(String value) {
          return value.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public String decode(byte[] bytes) {
          try {
            return StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes))
                .toString();
          } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("the bytes are not valid UTF-8 (" + e + ")", e);
          }
        }

        @Override
        public String toString() {
          return "utf8";
        }
      };
}
