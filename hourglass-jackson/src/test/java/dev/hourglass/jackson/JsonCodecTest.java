package dev.hourglass.jackson;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.spi.PayloadCodec;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** What the codecs of both Jackson lines do, without Redis: the same JSON, the same errors. */
class JsonCodecTest {
  static final String LINES = "dev.hourglass.jackson.JacksonLine#both";
  static final OrderClosed ORDER =
      new OrderClosed("42", 1999, Instant.parse("2026-01-02T03:04:05.678Z"));
  static final String ORDER_JSON =
      "{\"orderId\":\"42\",\"amount\":1999,\"closedAt\":\"2026-01-02T03:04:05.678Z\"}";

  @ParameterizedTest
  @MethodSource(LINES)
  void aRecordIsJsonWithInstantsAsIsoText(JacksonLine line) throws Exception {
    byte[] json = line.orders().encode(ORDER);

    assertThat(new String(json, StandardCharsets.UTF_8)).isEqualTo(ORDER_JSON);
    assertThat(line.orders().decode(json)).isEqualTo(ORDER);
  }

  @ParameterizedTest
  @MethodSource(LINES)
  void aGenericListRoundTrips(JacksonLine line) throws Exception {
    List<Item> items = List.of(new Item("a", 1), new Item("b", 2));

    List<Item> back = line.itemList().decode(line.itemList().encode(items));

    assertThat(back).containsExactly(new Item("a", 1), new Item("b", 2));
    assertThat(back.get(0)).isInstanceOf(Item.class);
  }

  @ParameterizedTest
  @MethodSource(LINES)
  void notJsonFailsInOneLineNamingTheType(JacksonLine line) {
    assertThatThrownBy(() -> line.orders().decode(bytes("not json")))
        .isInstanceOf(JsonCodecException.class)
        .hasMessageStartingWith(
            "cannot decode payload as dev.hourglass.jackson.OrderClosed: Unrecognized token 'not'")
        .hasMessageNotContaining("\n")
        .hasMessageNotContaining("Source")
        .hasCauseInstanceOf(line.exception());
  }

  @ParameterizedTest
  @MethodSource(LINES)
  void aWrongFieldFailsWithItsPath(JacksonLine line) {
    String json = "[{\"sku\":\"a\",\"quantity\":1},{\"sku\":\"b\",\"quantity\":\"many\"}]";

    assertThatThrownBy(() -> line.itemList().decode(bytes(json)))
        .hasMessageStartingWith(
            "cannot decode payload as java.util.List<dev.hourglass.jackson.Item>: ")
        .hasMessageContaining("\"many\"")
        .hasMessageEndingWith(" (at $[1].quantity)")
        .hasMessageNotContaining("\n");
  }

  @ParameterizedTest
  @MethodSource(LINES)
  void unknownPropertiesAreIgnored(JacksonLine line) throws Exception {
    String json = ORDER_JSON.replace("}", ",\"note\":\"x\"}");

    assertThat(line.orders().decode(bytes(json))).isEqualTo(ORDER);
  }

  @ParameterizedTest
  @MethodSource(LINES)
  void trailingTokensAreRefused(JacksonLine line) {
    assertThatThrownBy(() -> line.orders().decode(bytes(ORDER_JSON + " {}")))
        .hasMessageStartingWith("cannot decode payload as dev.hourglass.jackson.OrderClosed: ");
  }

  @ParameterizedTest
  @MethodSource(LINES)
  void nullIsRefusedBothWays(JacksonLine line) {
    assertThatThrownBy(() -> line.orders().decode(bytes("null")))
        .isInstanceOf(JsonCodecException.class)
        .hasMessage(
            "cannot decode payload as dev.hourglass.jackson.OrderClosed: the payload is JSON null");
    assertThatThrownBy(() -> line.orders().encode(null))
        .isInstanceOf(JsonCodecException.class)
        .hasMessage(
            "cannot encode payload as dev.hourglass.jackson.OrderClosed: the payload is null");
  }

  @ParameterizedTest
  @MethodSource(LINES)
  void aValueJacksonCannotWriteFailsTheEncodeNamingTheTypeAndPath(JacksonLine line) {
    PayloadCodec<Exploding> codec = line.codecs().codecFor(Exploding.class).orElseThrow();

    assertThatThrownBy(() -> codec.encode(new Exploding()))
        .isInstanceOf(JsonCodecException.class)
        .hasMessage(
            "cannot encode payload as dev.hourglass.jackson.JsonCodecTest$Exploding:"
                + " boom (at $.boom)");
  }

  /** A value whose getter throws. */
  public static final class Exploding {
    public int getBoom() {
      throw new IllegalStateException("boom");
    }
  }

  @ParameterizedTest
  @MethodSource(LINES)
  void codecsAreMadeOncePerType(JacksonLine line) {
    assertThat(line.codecs().codecFor(OrderClosed.class).orElseThrow()).isSameAs(line.orders());
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
