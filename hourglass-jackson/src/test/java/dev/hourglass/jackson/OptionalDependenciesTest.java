package dev.hourglass.jackson;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.spi.PayloadCodec;
import dev.hourglass.spi.PayloadCodecFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Each Jackson line works with only its own jars on the class path: an application brings one. */
class OptionalDependenciesTest {

  @Test
  void jackson3CodecsNeedNoJackson2() throws Exception {
    try (URLClassLoader loader =
        isolated(
            Jackson3Codecs.class,
            PayloadCodec.class,
            tools.jackson.databind.ObjectMapper.class,
            tools.jackson.core.JsonParser.class,
            com.fasterxml.jackson.annotation.JsonProperty.class)) {
      assertThatThrownBy(() -> loader.loadClass("com.fasterxml.jackson.databind.ObjectMapper"))
          .isInstanceOf(ClassNotFoundException.class);

      PayloadCodec<Object> codec = codecOf(loader, Jackson3Codecs.class.getName(), List.class);

      assertThat(codec.decode(codec.encode(List.of("a", 1)))).isEqualTo(List.of("a", 1));
    }
  }

  @Test
  void jacksonCodecsNeedNoJackson3AndWorkWithoutJsr310UntilAPayloadHoldsJavaTime()
      throws Exception {
    try (URLClassLoader loader =
        isolated(
            JacksonCodecs.class,
            PayloadCodec.class,
            com.fasterxml.jackson.databind.ObjectMapper.class,
            com.fasterxml.jackson.core.JsonParser.class,
            com.fasterxml.jackson.annotation.JsonProperty.class)) {
      assertThatThrownBy(() -> loader.loadClass("tools.jackson.databind.ObjectMapper"))
          .isInstanceOf(ClassNotFoundException.class);
      assertThatThrownBy(
              () -> loader.loadClass("com.fasterxml.jackson.datatype.jsr310.JavaTimeModule"))
          .isInstanceOf(ClassNotFoundException.class);

      PayloadCodec<Object> lists = codecOf(loader, JacksonCodecs.class.getName(), List.class);
      PayloadCodec<Object> instants = codecOf(loader, JacksonCodecs.class.getName(), Instant.class);

      assertThat(lists.decode(lists.encode(List.of("a", 1)))).isEqualTo(List.of("a", 1));
      assertThatThrownBy(() -> instants.encode(Instant.EPOCH))
          .hasMessageStartingWith("cannot encode payload as java.time.Instant: ")
          .hasMessageContaining("jackson-datatype-jsr310");
    }
  }

  @Test
  void withJsr310OnTheClassPathJackson2WritesInstantsAsJackson3Does() throws Exception {
    PayloadCodec<Instant> two = JacksonCodecs.create().codec(Instant.class);
    PayloadCodec<Instant> three = Jackson3Codecs.create().codec(Instant.class);
    Instant t = Instant.parse("2026-01-02T03:04:05.678Z");

    assertThat(new String(two.encode(t), StandardCharsets.UTF_8))
        .isEqualTo("\"2026-01-02T03:04:05.678Z\"")
        .isEqualTo(new String(three.encode(t), StandardCharsets.UTF_8));
  }

  /**
   * A loader that sees only the code sources (jars or class folders) of these classes, and the JDK.
   */
  private static URLClassLoader isolated(Class<?>... anchors) {
    URL[] urls =
        Arrays.stream(anchors)
            .map(c -> c.getProtectionDomain().getCodeSource().getLocation())
            .distinct()
            .toArray(URL[]::new);
    return new URLClassLoader(urls, ClassLoader.getPlatformClassLoader());
  }

  /** {@code factory.create().codecFor(type)}, called through the loader. */
  private static PayloadCodec<Object> codecOf(ClassLoader loader, String factory, Class<?> type)
      throws ReflectiveOperationException {
    try {
      Object codecs = loader.loadClass(factory).getMethod("create").invoke(null);
      Class<?> factoryType = loader.loadClass(PayloadCodecFactory.class.getName());
      Object codec =
          ((Optional<?>) factoryType.getMethod("codecFor", Class.class).invoke(codecs, type))
              .orElseThrow();
      return adapt(loader, codec);
    } catch (InvocationTargetException e) {
      throw new AssertionError("calling the isolated codecs failed", e.getCause());
    }
  }

  /** The isolated loader's codec seen through this loader's interface. */
  private static PayloadCodec<Object> adapt(ClassLoader loader, Object codec)
      throws ReflectiveOperationException {
    Class<?> codecType = loader.loadClass(PayloadCodec.class.getName());
    Method encode = codecType.getMethod("encode", Object.class);
    Method decode = codecType.getMethod("decode", byte[].class);
    return new PayloadCodec<>() {
      @Override
      public byte[] encode(Object value) throws Exception {
        return (byte[]) call(encode, value);
      }

      @Override
      public Object decode(byte[] bytes) throws Exception {
        return call(decode, (Object) bytes);
      }

      private Object call(Method method, Object argument) throws Exception {
        try {
          return method.invoke(codec, argument);
        } catch (InvocationTargetException e) {
          throw (Exception) e.getCause();
        }
      }
    };
  }
}
