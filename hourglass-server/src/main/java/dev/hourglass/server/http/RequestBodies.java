package dev.hourglass.server.http;

import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;

/** What the server does with request bodies its routes leave unread. */
public final class RequestBodies {
  static final int DRAIN_LIMIT = 16 * 1024 * 1024;

  private RequestBodies() {}

  /**
   * Reads and drops what is left of the request body, up to {@value #DRAIN_LIMIT} bytes; the server
   * runs it after every request, before the answer goes out. A request refused before its body was
   * read (401, 403, 405, a bad queue name), or a route with no use for a body (a GET that has one),
   * would otherwise leave it unread: Jetty then closes the connection, while the client is still
   * sending (it sees a broken connection instead of the answer) or after the answer, without saying
   * so (a client reusing the connection gets no answer to its next request).
   */
  public static void drainRest(Context ctx) {
    try {
      InputStream in = ctx.req().getInputStream();
      byte[] buffer = new byte[8192];
      long left = DRAIN_LIMIT;
      int n;
      while (left > 0 && (n = in.read(buffer, 0, (int) Math.min(buffer.length, left))) > 0) {
        left -= n;
      }
    } catch (IOException | RuntimeException e) {
      // nothing left to read, or the client went away: answer anyway
    }
  }
}
