package dev.hourglass.server.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Files the server serves from its jar. */
final class Resources {
  private Resources() {}

  /**
   * @throws IllegalStateException when the jar lacks the file (a build fault)
   */
  static byte[] read(String path) {
    try (InputStream in = Resources.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("missing from the jar: " + path);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
