package dev.hourglass.spring;

import dev.hourglass.spi.PayloadCodec;
import dev.hourglass.spi.PayloadCodecFactory;
import java.lang.reflect.Type;

/**
 * How the starter turns payloads into bytes and back. By default it is the application's JSON
 * mapper (Boot 4's Jackson 3 {@code JsonMapper}, or Boot 3's Jackson 2 {@code ObjectMapper});
 * declare a bean of this type to use something else. {@code byte[]} and {@code String} payloads are
 * stored as they are, whatever the mapper.
 */
public interface HourglassPayloadMapper {

  /**
   * The codecs for plain classes, handed to the {@link dev.hourglass.Hourglass} client.
   *
   * @return the factory the client's {@code queue(name, Class)} uses
   */
  PayloadCodecFactory codecFactory();

  /**
   * A codec for any type a listener method declares, generic ones included ({@code
   * List<OrderPlaced>}).
   *
   * @param type the declared payload type
   * @return a codec reading and writing that type
   * @throws IllegalArgumentException when this mapper cannot handle the type
   */
  PayloadCodec<Object> codecFor(Type type);
}
