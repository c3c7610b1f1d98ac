package dev.hourglass.jackson;

import dev.hourglass.spi.PayloadCodec;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * A JSON codec of one type, whichever Jackson reads and writes it: refuses null both ways and turns
 * what Jackson throws into a one-line {@link JsonCodecException}.
 *
 * @param <T> the payload type
 */
final class JsonCodec<T> implements PayloadCodec<T> {

  /** A Jackson call that may throw. */
  @FunctionalInterface
  public interface Call<I, O> {
    O apply(I in) throws Exception;
  }

  /** Why Jackson failed: its message without location lines, and where, e.g. {@code $.items[0]}. */
  public record Failure(String reason, String path) {
    /** A failure that did not come from Jackson. */
    public static Failure of(Exception e) {
      return new Failure(e.getMessage() == null ? e.getClass().getName() : e.getMessage(), "$");
    }
  }

  private static final int MAX_REASON = 400;

  private final String name;
  private final String type;
  private final Call<T, byte[]> write;
  private final Call<byte[], T> read;
  private final Function<Exception, Failure> explain;

  /**
   * @param name what {@link #toString()} says, e.g. {@code jackson3-json}
   * @param type the type's name for messages (Jackson's {@code JavaType.toCanonical()})
   * @param explain the reason and path of an exception {@code write} or {@code read} threw
   */
  public JsonCodec(
      String name,
      String type,
      Call<T, byte[]> write,
      Call<byte[], T> read,
      Function<Exception, Failure> explain) {
    this.name = name;
    this.type = type;
    this.write = write;
    this.read = read;
    this.explain = explain;
  }

  @Override
  public byte[] encode(T value) throws JsonCodecException {
    if (value == null) {
      throw failure("encode", new Failure("the payload is null", "$"), null);
    }
    try {
      return write.apply(value);
    } catch (Exception e) {
      throw failure("encode", explain.apply(e), e);
    }
  }

  @Override
  public T decode(byte[] bytes) throws JsonCodecException {
    T value;
    try {
      value = read.apply(bytes);
    } catch (Exception e) {
      throw failure("decode", explain.apply(e), e);
    }
    if (value == null) {
      throw failure("decode", new Failure("the payload is JSON null", "$"), null);
    }
    return value;
  }

  private JsonCodecException failure(String what, Failure f, Exception cause) {
    String reason = f.reason() == null ? "no reason given" : f.reason().strip();
    reason = reason.replaceAll("\\s+", " ");
    if (reason.length() > MAX_REASON) {
      reason = reason.substring(0, MAX_REASON) + "...";
    }
    String at = "$".equals(f.path()) ? "" : " (at " + f.path() + ")";
    return new JsonCodecException(
        "cannot " + what + " payload as " + type + ": " + reason + at, cause);
  }

  /**
   * A JSON path from Jackson's references: {@code $}, then {@code .name} per property and {@code
   * [i]} per index.
   */
  public static <R> String path(
      List<R> references, Function<R, String> property, ToIntFunction<R> index) {
    StringBuilder path = new StringBuilder("$");
    for (R ref : references) {
      if (property.apply(ref) != null) {
        path.append('.').append(property.apply(ref));
      } else if (index.applyAsInt(ref) >= 0) {
        path.append('[').append(index.applyAsInt(ref)).append(']');
      }
    }
    return path.toString();
  }

  @Override
  public String toString() {
    return name;
  }
}
