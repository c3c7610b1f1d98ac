package dev.hourglass.server.http;

import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.http.HttpStatus;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** How the server reads request bodies, and what it does with those its routes leave unread. */
public final class RequestBodies {

  /** Request attribute: {@link #read} read all the body declared, so there is nothing to drain. */
  private static final String READ_TO_THE_END = "hourglass.bodyReadToTheEnd";

  private RequestBodies() {}

  /**
   * How much of a body the server reads and drops when it answers without using it: twice the
   * largest body it accepts, so that a client sending a body over the limit by up to as much again
   * gets its 413 rather than a connection closed under it (a body larger still may, since the
   * server then closes with bytes unread).
   *
   * @param maxBodyBytes the largest body accepted
   * @return bytes to drain at most
   */
  public static long drainLimit(long maxBodyBytes) {
    return 2 * maxBodyBytes;
  }

  /**
   * Reads and drops what is left of the request body, up to {@code limit} bytes ({@link
   * #drainLimit}); the server runs it after every request, before the answer goes out. A request
   * refused before its body was read (401, 403, 405, a bad queue name), or a route with no use for
   * a body (a GET that has one), would otherwise leave it unread: Jetty then closes the connection,
   * while the client is still sending (it sees a broken connection instead of the answer) or after
   * the answer, without saying so (a client reusing the connection gets no answer to its next
   * request).
   */
  /**
   * The request body, read in one array of the length the client declared (Javalin's {@code
   * bodyAsBytes} copies it through an 8 KB buffer and a growing stream). A body over {@code max}
   * bytes is refused with 413, as Javalin refuses it; one without a declared length (chunked) is
   * read up to the limit. A body that cannot be read fails with its {@link IOException} inside an
   * {@link UncheckedIOException}, which {@link ErrorMapper} answers by the IOException.
   */
  static byte[] read(Context ctx, long max) {
    long declared = ctx.req().getContentLengthLong();
    if (declared > max || declared > Integer.MAX_VALUE - 8) {
      throw tooLarge();
    }
    try {
      InputStream in = ctx.req().getInputStream();
      if (declared >= 0) {
        byte[] body = in.readNBytes((int) declared);
        if (body.length == declared) {
          ctx.attribute(READ_TO_THE_END, Boolean.TRUE); // nothing left for drainRest
        }
        return body;
      }
      byte[] body = in.readNBytes((int) Math.min(max + 1, Integer.MAX_VALUE - 8));
      if (body.length > max) {
        throw tooLarge();
      }
      return body;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static HttpResponseException tooLarge() {
    return new HttpResponseException(
        HttpStatus.CONTENT_TOO_LARGE.getCode(), HttpStatus.CONTENT_TOO_LARGE.getMessage());
  }

  /**
   * Reads and drops what a route left unread of the request's body, up to {@code limit} bytes, so
   * that the answer reaches a client still sending; called after every request. A client that went
   * away is not an error here.
   *
   * @param ctx the answered request
   * @param limit bytes to drain at most ({@link #drainLimit})
   */
  public static void drainRest(Context ctx, long limit) {
    if (ctx.attribute(READ_TO_THE_END) != null) {
      return;
    }
    try {
      InputStream in = ctx.req().getInputStream();
      // Nearly always the body was read to its end (or there was none): no buffer for that.
      if (in.read() < 0) {
        return;
      }
      byte[] buffer = new byte[8192];
      long left = limit - 1;
      int n;
      while (left > 0 && (n = in.read(buffer, 0, (int) Math.min(buffer.length, left))) > 0) {
        left -= n;
      }
    } catch (IOException | RuntimeException e) {
      // nothing left to read, or the client went away: answer anyway
    }
  }
}
