package dev.hourglass.server.http;

import dev.hourglass.server.json.JsonOut;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's own error answers (a request too malformed to reach the API: a bad URI, oversized
 * headers) in the API's JSON error shape instead of an HTML page.
 */
public final class JsonErrorHandler extends ErrorHandler {
  /**
   * Every method gets the JSON body: Jetty's default writes error pages only for GET, POST and
   * HEAD, and answers others (e.g. {@code PUT *}) with an empty body and no Content-Type.
   */
  @Override
  public boolean errorPageForMethod(String method) {
    return true;
  }

  @Override
  protected void generateResponse(
      Request request,
      Response response,
      int code,
      String message,
      Throwable cause,
      Callback callback) {
    String errorCode =
        switch (code) {
          case 404 -> "not_found";
          case 405 -> "method_not_allowed";
          case 413 -> "payload_too_large";
          // The request line names a version the server does not speak: the client's doing.
          case 505 -> "http_version_not_supported";
          default -> code >= 500 ? "internal" : "bad_request";
        };
    String text = code >= 500 && code != 505 ? "internal error" : "malformed request: " + message;
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    // Jetty gives up the body of a request it refuses here and closes the connection, but did not
    // always say so: a client that reused the connection got no answer to its next request (found
    // by FuzzTest). Saying it every time makes the close one the client expects.
    response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
    response.write(true, ByteBuffer.wrap(JsonOut.error(errorCode, text)), callback);
  }
}
