package dev.hourglass.jackson;

import dev.hourglass.spi.PayloadCodec;
import dev.hourglass.spi.PayloadCodecFactory;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.json.JsonMapper;

/**
 * JSON payloads with Jackson 3 ({@code tools.jackson.databind}, the Jackson of Spring Boot 4): a
 * {@link PayloadCodecFactory} for {@code HourglassBuilder.codecs(...)}, and codecs for generic
 * types.
 *
 * <pre>{@code
 * Hourglass hourglass = Hourglass.builder().redisUri(uri).codecs(Jackson3Codecs.create()).build();
 * Queue<OrderClosed> closed = hourglass.queue("order-closed", OrderClosed.class);
 * }</pre>
 *
 * <p>{@link #codecFor} answers for every class; a value the mapper cannot write fails the enqueue,
 * and bytes it cannot read as the type fail the decode with a {@link JsonCodecException} (the job
 * goes dead and never reaches a handler). JSON {@code null} is refused both ways: a handler never
 * gets a null payload. Codecs are cached per type and thread-safe.
 */
public final class Jackson3Codecs implements PayloadCodecFactory {
  private final ObjectMapper mapper;
  private final Map<JavaType, PayloadCodec<?>> codecs = new ConcurrentHashMap<>();

  private Jackson3Codecs(ObjectMapper mapper) {
    this.mapper = Objects.requireNonNull(mapper, "mapper");
  }

  /**
   * Codecs on a mapper with Jackson 3's defaults ({@code JsonMapper.builder().build()}: {@code
   * java.time} values as ISO-8601 text, unknown properties ignored, trailing tokens refused, no
   * module looked for). {@code JacksonCodecs.create()} reads and writes the same JSON.
   *
   * @return a new factory with a mapper of its own
   */
  public static Jackson3Codecs create() {
    return new Jackson3Codecs(JsonMapper.builder().build());
  }

  /**
   * Codecs on this mapper, as it is configured (for instance Spring Boot's {@code JsonMapper}).
   *
   * @param mapper the mapper
   * @return a new factory
   * @throws NullPointerException when the mapper is null
   */
  public static Jackson3Codecs of(ObjectMapper mapper) {
    return new Jackson3Codecs(mapper);
  }

  /**
   * The mapper the codecs use.
   *
   * @return the mapper given or made at creation
   */
  public ObjectMapper mapper() {
    return mapper;
  }

  @Override
  public <T> Optional<PayloadCodec<T>> codecFor(Class<T> type) {
    return Optional.of(codec(type));
  }

  /**
   * The codec for this class, made on first use and cached.
   *
   * @param type the payload class
   * @param <T> the payload type
   * @return a thread-safe codec writing and reading the class as JSON
   */
  public <T> PayloadCodec<T> codec(Class<T> type) {
    return codec(mapper.constructType(type));
  }

  /**
   * The codec for a generic type: {@code codec(new TypeReference<List<Order>>() {})}.
   *
   * @param type the payload type
   * @param <T> the payload type
   * @return a thread-safe codec writing and reading the type as JSON
   */
  public <T> PayloadCodec<T> codec(TypeReference<T> type) {
    return codec(mapper.constructType(type));
  }

  /**
   * The codec for this type; the caller vouches that {@code T} is the type's Java type.
   *
   * @param type the payload type as the mapper constructs it
   * @param <T> its Java type
   * @return a thread-safe codec writing and reading the type as JSON
   * @throws NullPointerException when the type is null
   */
  @SuppressWarnings("unchecked")
  public <T> PayloadCodec<T> codec(JavaType type) {
    Objects.requireNonNull(type, "type");
    return (PayloadCodec<T>) codecs.computeIfAbsent(type, this::newCodec);
  }

  private PayloadCodec<?> newCodec(JavaType type) {
    ObjectReader reader = mapper.readerFor(type);
    ObjectWriter writer = mapper.writerFor(type);
    return new JsonCodec<>(
        "jackson3-json",
        type.toCanonical(),
        writer::writeValueAsBytes,
        reader::readValue,
        Jackson3Codecs::explain);
  }

  private static JsonCodec.Failure explain(Exception e) {
    if (e instanceof JacksonException j) {
      String path =
          JsonCodec.path(
              j.getPath(),
              JacksonException.Reference::getPropertyName,
              JacksonException.Reference::getIndex);
      return new JsonCodec.Failure(j.getOriginalMessage(), path);
    }
    return JsonCodec.Failure.of(e);
  }
}
