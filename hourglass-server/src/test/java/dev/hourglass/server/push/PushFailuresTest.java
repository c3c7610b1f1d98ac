package dev.hourglass.server.push;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;

/** The one-line reasons of failed push deliveries, for causes a test endpoint cannot produce. */
class PushFailuresTest {
  private static String reason(Throwable t) {
    return PushFailures.exception(new ExecutionException(t), 10_000, 5_000, "hooks.example");
  }

  @Test
  void namesEachCauseWithoutClassNames() {
    ConnectException refused = new ConnectException();
    refused.initCause(new ConnectException().initCause(new ClosedChannelException()));
    assertThat(reason(refused)).isEqualTo("connection refused");
    assertThat(reason(new ConnectException("Connection refused"))).isEqualTo("connection refused");
    assertThat(reason(new ConnectException("No route to host")))
        .isEqualTo("cannot connect: No route to host");
    assertThat(reason(new ConnectException().initCause(new UnresolvedAddressException())))
        .isEqualTo("unknown host hooks.example");
    assertThat(reason(new HttpTimeoutException("request timed out")))
        .isEqualTo("timeout after 10000 ms");
    assertThat(reason(new HttpConnectTimeoutException("HTTP connect timed out")))
        .isEqualTo("connect timeout after 5000 ms");
    assertThat(reason(new IOException("HTTP/1.1 header parser received no bytes")))
        .isEqualTo("connection closed without an answer");
    assertThat(reason(new EOFException())).isEqualTo("connection closed without an answer");
    assertThat(reason(new SSLHandshakeException("PKIX path building failed")))
        .isEqualTo("TLS failed: PKIX path building failed");
    assertThat(reason(new IOException("java.lang.IllegalStateException: odd\n  at x")))
        .isEqualTo("connection failed: odd at x");
    assertThat(reason(new IOException())).isEqualTo("connection failed");
  }

  @Test
  void anAnswerIsQuotedOnOneLineUpTo200Characters() {
    assertThat(PushFailures.status(503, bytes("billing down"))).isEqualTo("HTTP 503: billing down");
    assertThat(PushFailures.status(502, bytes(""))).isEqualTo("HTTP 502");
    assertThat(PushFailures.status(500, bytes(" \r\n "))).isEqualTo("HTTP 500");
    assertThat(PushFailures.status(500, bytes("a\r\n\tb"))).isEqualTo("HTTP 500: a b");
    String emoji = "\uD83D\uDE00"; // two chars, one code point
    String cut = PushFailures.status(500, bytes("x".repeat(199) + emoji + "y"));
    assertThat(cut).isEqualTo("HTTP 500: " + "x".repeat(199)); // never half a character
    assertThat(PushFailures.status(500, bytes("z".repeat(300))))
        .hasSize("HTTP 500: ".length() + 200);
  }

  @Test
  void theSignatureIsTheHmacOfTimeDotBody() {
    // Computed independently: printf "1.{}" | openssl dgst -sha256 -hmac key
    String header = new Signatures("key").sign(1, bytes("{}"));
    assertThat(header).isEqualTo("t=1,v1=" + OPENSSL_HMAC_OF_1_DOT_BRACES);
  }

  private static final String OPENSSL_HMAC_OF_1_DOT_BRACES =
      "1ba6b8171186efc613e8bcc0cbdab2748f24984d7c5a84faa2637afa0e40d224";

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
