package dev.hourglass.internal;

import dev.hourglass.Hourglass;
import dev.hourglass.HourglassBuilder;

/**
 * The client implementation as {@link HourglassBuilder} finds it, through {@link
 * java.util.ServiceLoader} (META-INF/services), so that the API does not depend on its internals.
 */
public final class ClientConnector implements HourglassBuilder.Connector {
  @Override
  public Hourglass connect(HourglassBuilder.Config config) {
    return HourglassClient.connect(config);
  }
}
