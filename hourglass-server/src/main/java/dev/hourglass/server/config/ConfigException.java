package dev.hourglass.server.config;

/** Bad configuration: the message names the setting and says what to fix. */
public final class ConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * A configuration error.
   *
   * @param message names the setting and says what to fix
   */
  public ConfigException(String message) {
    super(message);
  }
}
