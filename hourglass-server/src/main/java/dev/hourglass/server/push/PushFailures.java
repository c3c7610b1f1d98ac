package dev.hourglass.server.push;

import java.io.EOFException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;

/**
 * A failed push delivery as the job's last error: one line naming the cause as an operator reads it
 * ({@code HTTP 503: billing down}, {@code timeout after 10000 ms}, {@code connection refused}),
 * never a Java class name or a stack trace.
 */
final class PushFailures {
  /** How much of an answer's body the reason quotes. */
  static final int ANSWER_CHARS = 200;

  // Enough bytes for ANSWER_CHARS characters of UTF-8.
  static final int ANSWER_BYTES = ANSWER_CHARS * 4;
  private static final Pattern CLASS_PREFIX =
      Pattern.compile("\\b(?:[a-z_][a-z0-9_]*\\.)+[A-Z]\\w*(?:Exception|Error)(?::\\s*)?");

  private PushFailures() {}

  /** {@code HTTP <status>}, then {@code : } and the answer's first characters when it had any. */
  static String status(int status, byte[] answerPrefix) {
    String text = oneLine(new String(answerPrefix, StandardCharsets.UTF_8));
    if (text.length() > ANSWER_CHARS) {
      int end = ANSWER_CHARS;
      if (Character.isHighSurrogate(text.charAt(end - 1))) {
        end--;
      }
      text = text.substring(0, end);
    }
    return text.isEmpty() ? "HTTP " + status : "HTTP " + status + ": " + text;
  }

  /** The reason for a POST that got no answer. */
  static String exception(Throwable failure, long timeoutMs, long connectTimeoutMs, String host) {
    Throwable t = failure;
    while ((t instanceof ExecutionException || t instanceof CompletionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof UnresolvedAddressException || c instanceof UnknownHostException) {
        return "unknown host " + host;
      }
    }
    if (t instanceof HttpConnectTimeoutException) {
      return "connect timeout after " + connectTimeoutMs + " ms";
    }
    if (t instanceof HttpTimeoutException) {
      return "timeout after " + timeoutMs + " ms";
    }
    String message = message(t);
    if (t instanceof ConnectException) {
      return message.isEmpty() || message.toLowerCase(Locale.ROOT).contains("refused")
          ? "connection refused"
          : "cannot connect: " + message;
    }
    if (t instanceof SSLException) {
      return message.isEmpty() ? "TLS failed" : "TLS failed: " + message;
    }
    String lower = message.toLowerCase(Locale.ROOT);
    if (t instanceof EOFException
        || lower.contains("received no bytes")
        || lower.contains("connection reset")
        || lower.contains("closed")) {
      return "connection closed without an answer";
    }
    return message.isEmpty() ? "connection failed" : "connection failed: " + message;
  }

  /** The first message in the chain, without class names, on one line. */
  private static String message(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c.getMessage() != null && !c.getMessage().isBlank()) {
        return oneLine(CLASS_PREFIX.matcher(c.getMessage()).replaceAll(""));
      }
    }
    return "";
  }

  static String oneLine(String text) {
    return text.replaceAll("[\\s\\p{Cntrl}]+", " ").strip();
  }

  /**
   * Reads at most {@code limit} bytes of an answer's body, then stops reading: the reason quotes
   * only its start, and an endpoint's huge or endless error page must not be buffered.
   */
  static final class AnswerPrefix implements java.net.http.HttpResponse.BodySubscriber<byte[]> {
    private final byte[] buffer;
    private int size;
    private Flow.Subscription subscription;
    private final CompletableFuture<byte[]> result = new CompletableFuture<>();

    AnswerPrefix(int limit) {
      this.buffer = new byte[limit];
    }

    @Override
    public CompletionStage<byte[]> getBody() {
      return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
      subscription = s;
      s.request(1);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
      for (ByteBuffer b : items) {
        int n = Math.min(b.remaining(), buffer.length - size);
        b.get(buffer, size, n);
        size += n;
      }
      if (size == buffer.length) {
        subscription.cancel();
        complete();
      } else {
        subscription.request(1);
      }
    }

    @Override
    public void onError(Throwable t) {
      complete(); // what came before the failure is still the start of the answer
    }

    @Override
    public void onComplete() {
      complete();
    }

    private void complete() {
      result.complete(java.util.Arrays.copyOf(buffer, size));
    }
  }
}
