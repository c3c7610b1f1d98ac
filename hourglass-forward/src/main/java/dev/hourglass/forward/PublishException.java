package dev.hourglass.forward;

/**
 * A publish that the broker did not confirm, with the one-line reason stored as the job's last
 * error. {@link #brokerDown()} tells a failed connection (reconnect after a pause) from a refusal
 * of this one message (the connection is fine).
 */
final class PublishException extends Exception {
  private static final long serialVersionUID = 1L;
  private final boolean brokerDown;

  PublishException(String reason, boolean brokerDown) {
    super(reason, null, false, false);
    this.brokerDown = brokerDown;
  }

  String reason() {
    return getMessage();
  }

  boolean brokerDown() {
    return brokerDown;
  }
}
