package dev.hourglass.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.Zstd;
import dev.hourglass.testing.OrderDocuments;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The two zstd implementations read each other's frames without a dictionary; the frame header is
 * read as zstd-jni reads it; a dictionary trained on order documents shrinks them to a fraction,
 * and the pure-Java one refuses a frame that names one.
 */
class ZstdTest {
  private final NativeZstd jni = new NativeZstd();
  private final JavaZstd java = new JavaZstd("test");

  @Test
  void eachReadsWhatTheOtherWroteWithoutADictionary() {
    OrderDocuments docs = new OrderDocuments(1);
    for (int i = 0; i < 50; i++) {
      byte[] doc = docs.next();
      byte[] byJni = jni.compress(doc, null);
      byte[] byJava = java.compress(doc, null);
      assertThat(java.decompress(byJni, doc.length, null)).isEqualTo(doc);
      assertThat(jni.decompress(byJava, doc.length, null)).isEqualTo(doc);
      assertThat(jni.decompress(byJni, doc.length, null)).isEqualTo(doc);
    }
  }

  @Test
  void theFrameHeaderIsReadAsZstdReadsIt() {
    Random r = new Random(5);
    for (int size : new int[] {0, 1, 255, 256, 300, 65_791, 65_792, 70_000, 1 << 20}) {
      byte[] src = new byte[size];
      r.nextBytes(src);
      for (byte[] frame : List.of(jni.compress(src, null), java.compress(src, null))) {
        dev.hourglass.internal.store.Zstd.Frame f =
            dev.hourglass.internal.store.Zstd.frame(frame, 0);
        assertThat(f.contentSize()).isEqualTo(Zstd.getFrameContentSize(frame)).isEqualTo(size);
        assertThat(f.dictionaryId()).isZero();
      }
    }
  }

  @Test
  void aTrainedDictionaryShrinksOrderDocumentsAndOnlyZstdJniReadsItsFrames() {
    OrderDocuments docs = new OrderDocuments(2);
    List<byte[]> samples = new ArrayList<>();
    for (int i = 0; i < PayloadPacker.SAMPLES; i++) {
      samples.add(docs.next());
    }
    ZstdDictionary d = new ZstdDictionary(jni.train(samples, 16 * 1024));
    assertThat(d.id()).isEqualTo(Zstd.getDictIdFromDict(d.bytes())).isNotZero();
    long plain = 0;
    long compressed = 0;
    for (int i = 0; i < 200; i++) {
      byte[] doc = docs.next();
      byte[] frame = jni.compress(doc, d);
      dev.hourglass.internal.store.Zstd.Frame f = dev.hourglass.internal.store.Zstd.frame(frame, 0);
      assertThat(f.dictionaryId()).isEqualTo(d.id()).isEqualTo(Zstd.getDictIdFromFrame(frame));
      assertThat(jni.decompress(frame, f.contentSize(), d)).isEqualTo(doc);
      plain += doc.length;
      compressed += frame.length;
    }
    assertThat((double) compressed / plain).isLessThan(0.25);
    byte[] frame = jni.compress(docs.next(), d);
    assertThatThrownBy(() -> java.decompress(frame, 10, d))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("zstd-jni");
    assertThat(java.train(samples, 16 * 1024)).isNull();
    assertThat(java.dictionaries()).isFalse();
  }

  @Test
  void damagedFramesAreRefused() {
    byte[] frame = jni.compress(new OrderDocuments(3).next(), null);
    assertThatThrownBy(() -> dev.hourglass.internal.store.Zstd.frame(new byte[] {1, 2, 3}, 0))
        .isInstanceOf(IllegalArgumentException.class);
    byte[] cut = Arrays.copyOf(frame, frame.length / 2);
    int size = dev.hourglass.internal.store.Zstd.frame(cut, 0).contentSize();
    assertThatThrownBy(() -> jni.decompress(cut, size, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> java.decompress(cut, size, null))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
