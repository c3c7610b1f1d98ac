package dev.hourglass.spring.autoconfigure;

import dev.hourglass.Backoff;
import dev.hourglass.Hourglass;
import dev.hourglass.HourglassBuilder;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.QueueSettings;
import dev.hourglass.spi.PayloadCodecFactory;
import dev.hourglass.spi.ScriptListener;
import java.util.Objects;
import java.util.function.Consumer;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Builds the client from {@link HourglassProperties}, and the Redis URI from {@code
 * spring.data.redis.*} when {@code hourglass.redis-uri} is not set. A value the client refuses
 * fails startup naming the property.
 */
final class HourglassClientFactory {
  private final HourglassProperties properties;
  private final Binder binder;

  HourglassClientFactory(HourglassProperties properties, Binder binder) {
    this.properties = properties;
    this.binder = binder;
  }

  /** The Redis URI the client will use. */
  String redisUri() {
    String uri = properties.getRedisUri();
    return uri != null && !uri.isBlank() ? uri.strip() : new SpringRedisUri(binder).uri();
  }

  Hourglass build(PayloadCodecFactory codecs, ScriptListener scriptListener) {
    SpringRedisUri spring = new SpringRedisUri(binder);
    HourglassBuilder builder =
        Hourglass.builder()
            .redisUri(redisUri())
            .prefix(properties.getPrefix())
            .commandTimeout(properties.getCommandTimeout())
            .maxPayloadBytes(properties.getMaxPayloadBytes())
            .compressAbove(properties.getCompressAbove())
            .defaultQueueSettings(queueSettings())
            .codecs(codecs)
            .scriptListener(scriptListener);
    if (properties.getConnectTimeout() != null) {
      builder.connectTimeout(properties.getConnectTimeout());
    } else {
      spring.connectTimeout().ifPresent(builder::connectTimeout);
    }
    try {
      return builder.build();
    } catch (InvalidArgumentException e) {
      throw invalid(e, property(e.field()));
    }
  }

  /** The {@code hourglass.defaults.*} settings as the client's default queue settings. */
  QueueSettings queueSettings() {
    HourglassProperties.Defaults d = properties.getDefaults();
    QueueSettings.Builder b = QueueSettings.builder();
    set("max-attempts", d.getMaxAttempts(), b::maxAttempts);
    set("visibility", d.getVisibility(), b::visibility);
    if (d.getTtl() != null) {
      set("ttl", d.getTtl(), b::ttl);
    }
    if (d.getBackoff() != null && !d.getBackoff().isBlank()) {
      set("backoff", d.getBackoff(), text -> b.backoff(Backoff.parseSchedule(text)));
    }
    try {
      return b.build();
    } catch (InvalidArgumentException e) {
      throw invalid(e, "hourglass.defaults");
    }
  }

  private static <T> void set(String key, T value, Consumer<T> setter) {
    try {
      setter.accept(value);
    } catch (InvalidArgumentException e) {
      throw new InvalidConfigurationPropertyValueException(
          "hourglass.defaults." + key, Objects.toString(value), e.getMessage());
    }
  }

  /** The property behind a builder field the client named in an error. */
  private static String property(String field) {
    return switch (field) {
      case "redisUri" -> "hourglass.redis-uri";
      case "commandTimeout" -> "hourglass.command-timeout";
      case "connectTimeout" -> "hourglass.connect-timeout";
      case "maxPayloadBytes" -> "hourglass.max-payload-bytes";
      case "compressAbove" -> "hourglass.compress-above";
      default -> "hourglass." + field;
    };
  }

  private static InvalidConfigurationPropertyValueException invalid(
      InvalidArgumentException e, String property) {
    InvalidConfigurationPropertyValueException failure =
        new InvalidConfigurationPropertyValueException(property, null, e.getMessage());
    failure.initCause(e);
    return failure;
  }
}
