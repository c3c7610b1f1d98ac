package dev.hourglass.spring.autoconfigure;

import java.util.Map;
import java.util.function.Predicate;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Fails startup when {@code hourglass.*} asks for forwarding or the archive and the application
 * lacks the module that runs it, or gives archive settings while the archive is off: otherwise such
 * a configuration would silently do nothing.
 */
final class OptionalModules {
  static final String FORWARDER = "dev.hourglass.forward.Forwarder";
  static final String ARCHIVE = "dev.hourglass.archive.Archive";

  private OptionalModules() {}

  /**
   * Checks the properties against the classes present.
   *
   * @param present whether a class of that name can be loaded
   * @throws InvalidConfigurationPropertyValueException naming the property to fix
   */
  static void check(HourglassProperties properties, Predicate<String> present) {
    for (Map.Entry<String, HourglassQueueProperties> q : properties.getQueues().entrySet()) {
      if (q.getValue().getForward() != null && !present.test(FORWARDER)) {
        throw new InvalidConfigurationPropertyValueException(
            "hourglass.queues." + q.getKey() + ".forward",
            null,
            "Forwarding needs the module dev.hourglass:hourglass-forward; add it as a dependency.");
      }
    }
    HourglassArchiveProperties archive = properties.getArchive();
    if (archive.isEnabled()) {
      if (!present.test(ARCHIVE)) {
        throw new InvalidConfigurationPropertyValueException(
            "hourglass.archive.enabled",
            "true",
            "The archive needs the module dev.hourglass:hourglass-archive; add it as a dependency.");
      }
      return;
    }
    if (archive.getJdbcUrl() != null) {
      throw archiveOff("jdbc-url");
    }
    if (archive.getUser() != null) {
      throw archiveOff("user");
    }
    if (archive.getPassword() != null) {
      throw archiveOff("password");
    }
  }

  private static InvalidConfigurationPropertyValueException archiveOff(String key) {
    return new InvalidConfigurationPropertyValueException(
        "hourglass.archive." + key,
        null,
        "It is set but the archive is off: set hourglass.archive.enabled=true.");
  }
}
