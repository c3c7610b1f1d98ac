package dev.hourglass.embedded;

/** The server could not bind its port because something else holds it. */
final class PortInUseException extends RedisServerException {

  private static final long serialVersionUID = 1L;

  PortInUseException(String message) {
    super(message);
  }
}
