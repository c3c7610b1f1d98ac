package dev.hourglass.forward;

import java.util.List;

/** A test consumer of what a forwarder published, in arrival order. */
interface Sink extends AutoCloseable {
  List<Arrival> arrivals();

  /** Connects again after the broker restarted (no-op when the client reconnects itself). */
  void reconnect() throws Exception;

  @Override
  void close() throws Exception;
}
