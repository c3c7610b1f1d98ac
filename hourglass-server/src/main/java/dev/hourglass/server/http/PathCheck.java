package dev.hourglass.server.http;

import dev.hourglass.server.json.JsonOut;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Refuses a request whose path does not decode (a {@code %} not followed by two hex digits, or
 * bytes that are not UTF-8) with 400 {@code bad_request}, after reading the rest of its body,
 * before any route sees it. Jetty refuses most such paths itself, before any handler; what it lets
 * through is a bad escape inside a path parameter ({@code /v1/queues/a;%}), on which Javalin's
 * decoder failed and the request was answered 500 (found by FuzzTest).
 */
public final class PathCheck extends Handler.Wrapper {
  private final long drainLimit;

  /**
   * The check, wrapped around the server's handler.
   *
   * @param drainLimit what is read and dropped of a refused request's body at most
   */
  public PathCheck(long drainLimit) {
    this.drainLimit = drainLimit;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    if (decodes(request.getHttpURI().getPath())) {
      return super.handle(request, response, callback);
    }
    ByteBuffer answer =
        ByteBuffer.wrap(
            JsonOut.error(
                "bad_request", "malformed request: the path is not percent-encoded UTF-8"));
    drainThen(
        request,
        drainLimit,
        () -> {
          response.setStatus(400);
          response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
          response.write(true, answer, callback);
        });
    return true;
  }

  /** Whether every escape of the raw path is {@code %} and two hex digits, and the bytes UTF-8. */
  static boolean decodes(String rawPath) {
    if (rawPath == null || rawPath.indexOf('%') < 0) {
      return true;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(rawPath.length());
    for (int i = 0; i < rawPath.length(); i++) {
      char c = rawPath.charAt(i);
      if (c == '%') {
        if (i + 2 >= rawPath.length()) {
          return false;
        }
        int hi = Character.digit(rawPath.charAt(i + 1), 16);
        int lo = Character.digit(rawPath.charAt(i + 2), 16);
        if (hi < 0 || lo < 0) {
          return false;
        }
        bytes.write(hi * 16 + lo);
        i += 2;
      } else {
        byte[] encoded = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        bytes.write(encoded, 0, encoded.length);
      }
    }
    try {
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes.toByteArray()));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }

  /**
   * Reads and drops up to {@code left} bytes of the body without blocking, then runs {@code then}.
   */
  private static void drainThen(Request request, long left, Runnable then) {
    long still = left;
    while (true) {
      Content.Chunk chunk = request.read();
      if (chunk == null) {
        long pending = still;
        request.demand(() -> drainThen(request, pending, then));
        return;
      }
      boolean done = chunk.isLast() || Content.Chunk.isFailure(chunk);
      still -= chunk.remaining();
      chunk.release();
      if (done || still <= 0) {
        then.run();
        return;
      }
    }
  }
}
