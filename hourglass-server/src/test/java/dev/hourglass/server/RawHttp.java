package dev.hourglass.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/** Writes HTTP/1.1 requests to a raw socket and reads the responses off it, byte by byte. */
final class RawHttp {
  private RawHttp() {}

  /**
   * Writes one request: its line, {@code Host}, these header lines, and with a {@code body} (null
   * for none) its {@code Content-Length} and the body.
   */
  static void send(Socket socket, String method, String path, List<String> headers, byte[] body)
      throws IOException {
    StringBuilder head =
        new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: localhost\r\n");
    headers.forEach(h -> head.append(h).append("\r\n"));
    if (body != null) {
      head.append("Content-Length: ").append(body.length).append("\r\n");
    }
    OutputStream out = socket.getOutputStream();
    out.write(head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
    if (body != null) {
      out.write(body);
    }
    out.flush();
  }

  record Answer(int status, String contentType, byte[] body) {
    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  /** The first final response on the stream (after any 1xx interim ones). */
  static Answer read(InputStream in, boolean head) throws IOException {
    while (true) {
      String statusLine = readLine(in);
      if (!statusLine.startsWith("HTTP/1.")) {
        throw new IOException("not an HTTP/1 status line: " + statusLine);
      }
      int status = Integer.parseInt(statusLine.split(" ", 3)[1]);
      if (status >= 200) {
        return parseRest(in, status, head);
      }
      while (!readLine(in).isEmpty()) {
        // headers of an interim response
      }
    }
  }

  private static Answer parseRest(InputStream in, int status, boolean head) throws IOException {
    String contentType = null;
    long length = -1;
    boolean chunked = false;
    for (String line = readLine(in); !line.isEmpty(); line = readLine(in)) {
      int colon = line.indexOf(':');
      String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = line.substring(colon + 1).trim();
      switch (name) {
        case "content-type" -> contentType = value;
        case "content-length" -> length = Long.parseLong(value);
        case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
        default -> {}
      }
    }
    byte[] body;
    if (head || status == 204 || status == 304) {
      body = new byte[0];
    } else if (chunked) {
      body = readChunked(in);
    } else if (length >= 0) {
      body = in.readNBytes((int) length);
    } else {
      body = in.readAllBytes();
    }
    return new Answer(status, contentType, body);
  }

  private static byte[] readChunked(InputStream in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    while (true) {
      String size = readLine(in).split(";", 2)[0].trim();
      int n = Integer.parseInt(size, 16);
      if (n == 0) {
        return out.toByteArray();
      }
      out.writeBytes(in.readNBytes(n));
      readLine(in);
    }
  }

  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b < 0) {
        throw new IOException("connection closed in the middle of a response: " + line);
      }
      if (b != '\r') {
        line.write(b);
      }
    }
    return line.toString(StandardCharsets.ISO_8859_1);
  }
}
