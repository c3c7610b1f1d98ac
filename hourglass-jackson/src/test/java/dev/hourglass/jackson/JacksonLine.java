package dev.hourglass.jackson;

import dev.hourglass.spi.PayloadCodec;
import dev.hourglass.spi.PayloadCodecFactory;
import java.util.List;

/**
 * The codecs of one Jackson line, as the tests use them.
 *
 * @param itemList the codec of {@code List<Item>}, made from that line's TypeReference
 * @param exception the base class of what that Jackson throws
 */
record JacksonLine(
    String name,
    PayloadCodecFactory codecs,
    PayloadCodec<List<Item>> itemList,
    Class<? extends Exception> exception) {

  static final JacksonCodecs JACKSON_2 = JacksonCodecs.create();
  static final Jackson3Codecs JACKSON_3 = Jackson3Codecs.create();

  /** Both lines, each with its {@code create()} factory. */
  static List<JacksonLine> both() {
    return List.of(
        new JacksonLine(
            "Jackson 2",
            JACKSON_2,
            JACKSON_2.codec(new com.fasterxml.jackson.core.type.TypeReference<List<Item>>() {}),
            com.fasterxml.jackson.core.JacksonException.class),
        new JacksonLine(
            "Jackson 3",
            JACKSON_3,
            JACKSON_3.codec(new tools.jackson.core.type.TypeReference<List<Item>>() {}),
            tools.jackson.core.JacksonException.class));
  }

  PayloadCodec<OrderClosed> orders() {
    return codecs.codecFor(OrderClosed.class).orElseThrow();
  }

  @Override
  public String toString() {
    return name;
  }
}
