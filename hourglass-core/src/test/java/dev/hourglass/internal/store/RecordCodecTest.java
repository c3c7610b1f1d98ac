package dev.hourglass.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The record a new job gets, as Java builds it for tools, reads back as enqueue.lua writes it. */
class RecordCodecTest {
  @Test
  void aNewRecordIsThirtyBytesMoreThanItsPayloadAndDecodesToItsFields() {
    byte[] payload = new byte[120];
    payload[0] = 42;
    byte[] record =
        RecordCodec.newRecord(1_790_000_123_456L, 1_789_990_000_000L, 5, 30_000, payload);

    assertThat(record).hasSize(150);
    RecordCodec.Decoded d = RecordCodec.decode(record);
    assertThat(d.due()).isEqualTo(1_790_000_123_456L);
    assertThat(d.created()).isEqualTo(1_789_990_000_000L);
    assertThat(d.expireAt()).isZero();
    assertThat(d.attempts()).isZero();
    assertThat(d.maxAttempts()).isEqualTo(5);
    assertThat(d.visibilityMs()).isEqualTo(30_000);
    assertThat(d.backoff()).as("the queue's default").isNull();
    assertThat(d.lastError()).isEmpty();
    assertThat(d.payload()).isEqualTo(payload);
  }
}
