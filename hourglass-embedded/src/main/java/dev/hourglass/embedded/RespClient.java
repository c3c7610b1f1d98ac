package dev.hourglass.embedded;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A minimal RESP2 client: one command per fresh {@link Socket}, no pooling, no pipelining.
 *
 * <p>Replies are decoded to text: simple strings, integers and bulk strings become their text, a
 * nil reply becomes {@code null}, and arrays become their elements' texts joined by {@code '\n'}
 * (nested arrays are flattened, nil elements are written as an empty line). An error reply throws
 * {@link RedisCommandException}.
 *
 * <p>Threading: stateless; every call uses its own connection.
 */
final class RespClient {

  private RespClient() {}

  /**
   * Sends one command and reads its reply.
   *
   * @param host the server's host
   * @param port the server's port
   * @param timeout both the connect and the read timeout
   * @param args the command and its arguments, e.g. {@code "SET", "k", "v"}
   * @return the decoded reply, {@code null} for a nil reply
   * @throws IOException if the connection fails or the server closes it before replying
   * @throws RedisCommandException if the server replies with an error
   */
  static String call(String host, int port, Duration timeout, String... args) throws IOException {
    try (Socket socket = connect(host, port, timeout)) {
      write(socket.getOutputStream(), args);
      return read(new BufferedInputStream(socket.getInputStream()));
    }
  }

  /**
   * Sends a command after which the server closes the connection (such as {@code SHUTDOWN}), and
   * waits for that close.
   *
   * @throws IOException if the connection fails
   * @throws RedisCommandException if the server replies with an error instead of closing
   */
  static void callExpectingClose(String host, int port, Duration timeout, String... args)
      throws IOException {
    try (Socket socket = connect(host, port, timeout)) {
      write(socket.getOutputStream(), args);
      InputStream in = new BufferedInputStream(socket.getInputStream());
      try {
        String reply = read(in);
        throw new IOException("Expected the server to close the connection, got: " + reply);
      } catch (EOFException expected) {
        // The server went away, which is exactly what the command asks for.
      }
    }
  }

  private static Socket connect(String host, int port, Duration timeout) throws IOException {
    Socket socket = new Socket();
    try {
      int millis = (int) Math.max(1, timeout.toMillis());
      socket.connect(new InetSocketAddress(host, port), millis);
      socket.setSoTimeout(millis);
      socket.setTcpNoDelay(true);
      return socket;
    } catch (IOException e) {
      socket.close();
      throw e;
    }
  }

  private static void write(OutputStream raw, String... args) throws IOException {
    if (args.length == 0) {
      throw new IllegalArgumentException("A command needs at least its name");
    }
    OutputStream out = new BufferedOutputStream(raw);
    out.write(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
    for (String arg : args) {
      byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
      out.write(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
      out.write(bytes);
      out.write('\r');
      out.write('\n');
    }
    out.flush();
  }

  private static String read(InputStream in) throws IOException {
    int type = in.read();
    if (type < 0) {
      throw new EOFException("Connection closed before a reply");
    }
    String line = readLine(in);
    switch (type) {
      case '+':
      case ':':
        return line;
      case '-':
        throw new RedisCommandException(line);
      case '$':
        return readBulk(in, Integer.parseInt(line));
      case '*':
        return readArray(in, Integer.parseInt(line));
      default:
        throw new IOException("Unexpected RESP type '" + (char) type + "' followed by: " + line);
    }
  }

  private static String readBulk(InputStream in, int length) throws IOException {
    if (length < 0) {
      return null;
    }
    byte[] bytes = in.readNBytes(length);
    if (bytes.length != length || in.read() != '\r' || in.read() != '\n') {
      throw new EOFException("Truncated bulk string");
    }
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static String readArray(InputStream in, int count) throws IOException {
    if (count < 0) {
      return null;
    }
    List<String> items = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String item = read(in);
      items.add(item == null ? "" : item);
    }
    return String.join("\n", items);
  }

  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int previous = -1;
    while (true) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("Connection closed in the middle of a reply");
      }
      if (previous == '\r' && b == '\n') {
        byte[] bytes = line.toByteArray();
        return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
      }
      line.write(b);
      previous = b;
    }
  }
}
