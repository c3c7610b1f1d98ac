package dev.hourglass.jackson;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.Module;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.hourglass.spi.PayloadCodec;
import dev.hourglass.spi.PayloadCodecFactory;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * JSON payloads with Jackson 2 ({@code com.fasterxml.jackson.databind}): a {@link
 * PayloadCodecFactory} for {@code HourglassBuilder.codecs(...)}, and codecs for generic types.
 *
 * <pre>{@code
 * Hourglass hourglass = Hourglass.builder().redisUri(uri).codecs(JacksonCodecs.create()).build();
 * Queue<OrderClosed> closed = hourglass.queue("order-closed", OrderClosed.class);
 * }</pre>
 *
 * <p>{@link #codecFor} answers for every class; a value the mapper cannot write fails the enqueue,
 * and bytes it cannot read as the type fail the decode with a {@link JsonCodecException} (the job
 * goes dead and never reaches a handler). JSON {@code null} is refused both ways: a handler never
 * gets a null payload. Codecs are cached per type and thread-safe; the mapper must not be
 * reconfigured once codecs are made from it.
 */
public final class JacksonCodecs implements PayloadCodecFactory {
  private static final String JAVA_TIME_MODULE =
      "com.fasterxml.jackson.datatype.jsr310.JavaTimeModule";

  private final ObjectMapper mapper;
  private final Map<JavaType, PayloadCodec<?>> codecs = new ConcurrentHashMap<>();

  private JacksonCodecs(ObjectMapper mapper) {
    this.mapper = Objects.requireNonNull(mapper, "mapper");
  }

  /**
   * Codecs on {@link #defaultMapper()}.
   *
   * @return a new factory with a mapper of its own
   */
  public static JacksonCodecs create() {
    return new JacksonCodecs(defaultMapper());
  }

  /**
   * Codecs on this mapper, as it is configured (for instance the application's own).
   *
   * @param mapper the mapper; not to be reconfigured once codecs are made from it
   * @return a new factory
   * @throws NullPointerException when the mapper is null
   */
  public static JacksonCodecs of(ObjectMapper mapper) {
    return new JacksonCodecs(mapper);
  }

  /**
   * A mapper with Jackson 2's defaults changed to Jackson 3's where they differ for payloads, so it
   * reads and writes the JSON {@code Jackson3Codecs.create()} does: {@code java.time} values as
   * ISO-8601 text ({@code JavaTimeModule}, registered when {@code jackson-datatype-jsr310} is on
   * the class path; no other module is looked for), unknown properties ignored (a producer that
   * adds a field does not kill the jobs of consumers not yet upgraded), trailing tokens after the
   * JSON value refused, and objects without properties written as {@code {}}.
   *
   * @return a new mapper
   */
  public static ObjectMapper defaultMapper() {
    JsonMapper.Builder builder =
        JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
    javaTimeModule().ifPresent(builder::addModule);
    return builder.build();
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

  private static Optional<Module> javaTimeModule() {
    try {
      Class<?> module = Class.forName(JAVA_TIME_MODULE, true, JacksonCodecs.class.getClassLoader());
      return Optional.of((Module) module.getDeclaredConstructor().newInstance());
    } catch (ClassNotFoundException e) {
      return Optional.empty();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot create " + JAVA_TIME_MODULE, e);
    }
  }

  private PayloadCodec<?> newCodec(JavaType type) {
    ObjectReader reader = mapper.readerFor(type);
    ObjectWriter writer = mapper.writerFor(type);
    return new JsonCodec<>(
        "jackson-json",
        type.toCanonical(),
        writer::writeValueAsBytes,
        reader::readValue,
        JacksonCodecs::explain);
  }

  private static JsonCodec.Failure explain(Exception e) {
    if (e instanceof JsonMappingException m) {
      String path =
          JsonCodec.path(
              m.getPath(),
              JsonMappingException.Reference::getFieldName,
              JsonMappingException.Reference::getIndex);
      return new JsonCodec.Failure(m.getOriginalMessage(), path);
    }
    if (e instanceof JacksonException j) {
      return new JsonCodec.Failure(j.getOriginalMessage(), "$");
    }
    return JsonCodec.Failure.of(e);
  }
}
