package dev.hourglass.server.http;

import io.javalin.http.Context;
import java.io.IOException;
import java.util.concurrent.CancellationException;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.AbstractEndPoint;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.ConnectionMetaData;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;

/**
 * Notices that the client of a request that waits (a long-poll claim) has gone, without a thread.
 *
 * <p>Jetty reads nothing from an HTTP/1 connection while a request on it is handled, so a client
 * that closes its socket goes unseen until the answer is written, and even then the first write
 * usually succeeds into the socket's buffer. So the watch registers read interest on the
 * connection's end point with the selector: the peer's FIN or RST makes it readable, and a
 * non-blocking read of -1 or an error says the client has gone. Bytes instead mean the client sent
 * its next request before this one's answer (pipelining, which HTTP advises against after a POST);
 * they cannot be handed back to Jetty's parser, so the connection is closed and the client sees
 * both requests fail. Failures Jetty itself reports for the request (an HTTP/2 reset, an idle
 * timeout) count as gone too.
 *
 * <p>{@link #stop} must be called before the answer is written: Jetty aborts a connection that is
 * still read-interested when its request completes.
 */
final class ClientWatch {
  private static final CancellationException STOPPED =
      new CancellationException("the request answers: watch stopped");

  private enum State {
    WATCHING,
    STOPPED,
    GONE
  }

  private final Runnable onGone;
  private final EndPoint endPoint;
  private final Callback readable = new Readable();
  private State state = State.WATCHING;
  private boolean registered;

  private ClientWatch(Runnable onGone, EndPoint endPoint) {
    this.onGone = onGone;
    this.endPoint = endPoint;
  }

  /**
   * Watches the client of {@code ctx}, whose body must have been read; {@code onGone} runs once, on
   * a Jetty thread, when it goes before {@link #stop}.
   */
  static ClientWatch start(Context ctx, Runnable onGone) {
    Request request = ServletContextRequest.getServletContextRequest(ctx.req());
    if (request == null) {
      return new ClientWatch(onGone, null);
    }
    ConnectionMetaData connection = request.getConnectionMetaData();
    HttpVersion version = connection.getHttpVersion();
    EndPoint endPoint =
        (version == HttpVersion.HTTP_1_1 || version == HttpVersion.HTTP_1_0)
                && connection.getConnection().getEndPoint() instanceof AbstractEndPoint e
            ? e
            : null;
    ClientWatch watch = new ClientWatch(onGone, endPoint);
    request.addFailureListener(failure -> watch.gone());
    if (endPoint != null) {
      synchronized (watch) {
        watch.register();
      }
    }
    return watch;
  }

  /**
   * Runs {@code onFailure} on a Jetty thread when the exchange of {@code ctx} ends without its
   * answer fully written (the client went during the write).
   */
  static void whenAnswerFails(Context ctx, Runnable onFailure) {
    Request request = ServletContextRequest.getServletContextRequest(ctx.req());
    if (request != null) {
      Request.addCompletionListener(
          request,
          failure -> {
            if (failure != null) {
              onFailure.run();
            }
          });
    }
  }

  /**
   * Ends the watch before the answer is written.
   *
   * @return false when the client has gone: write nothing, and hand back what it would have got
   */
  boolean stop() {
    synchronized (this) {
      if (state == State.GONE) {
        return false;
      }
      state = State.STOPPED;
    }
    unregister();
    return true;
  }

  private void gone() {
    synchronized (this) {
      if (state != State.WATCHING) {
        return;
      }
      state = State.GONE;
    }
    unregister();
    onGone.run();
  }

  /** Under the lock, in state WATCHING. */
  private void register() {
    registered = endPoint.tryFillInterested(readable);
  }

  /** Withdraws the read interest, if it is still there; the callback then sees the new state. */
  private void unregister() {
    boolean withdraw;
    synchronized (this) {
      withdraw = registered;
      registered = false;
    }
    if (withdraw) {
      ((AbstractEndPoint) endPoint).getFillInterest().onFail(STOPPED);
    }
  }

  private void onReadable() {
    boolean closeConnection = false;
    synchronized (this) {
      registered = false;
      if (state != State.WATCHING) {
        return;
      }
      int n;
      try {
        n = endPoint.fill(BufferUtil.allocate(1)); // empty, in Jetty's flush mode
      } catch (IOException e) {
        n = -1;
      }
      if (n == 0) {
        register(); // woken without data: keep watching
        return;
      }
      closeConnection = n > 0;
      state = State.GONE;
    }
    if (closeConnection) {
      endPoint.close(new IOException("request pipelined during a long-poll claim"));
    }
    onGone.run();
  }

  /** The selector's call when the connection is readable; blocking, so run on Jetty's pool. */
  private final class Readable implements Callback {
    @Override
    public void succeeded() {
      onReadable();
    }

    @Override
    public void failed(Throwable x) {
      synchronized (ClientWatch.this) {
        registered = false;
      }
      if (x != STOPPED) {
        gone(); // the end point failed or closed
      }
    }
  }
}
