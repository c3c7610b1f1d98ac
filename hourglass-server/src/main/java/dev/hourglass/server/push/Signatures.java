package dev.hourglass.server.push;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code Hourglass-Signature} header of a push delivery: {@code t=<epoch ms>,v1=<hex
 * HMAC-SHA256 of "<t>.<body>">}, keyed by the queue's secret (its UTF-8 bytes). The receiver
 * recomputes it over the exact bytes it received and compares in constant time; {@code t} lets it
 * refuse old deliveries replayed.
 */
final class Signatures {
  static final String HEADER = "Hourglass-Signature";
  private static final String ALGORITHM = "HmacSHA256";

  private final SecretKeySpec key;

  Signatures(String secret) {
    this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM);
  }

  /** The header's value for {@code body} sent at {@code epochMs}. */
  String sign(long epochMs, byte[] body) {
    Mac mac;
    try {
      mac = Mac.getInstance(ALGORITHM); // not thread-safe: one per signature
      mac.init(key);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
    mac.update((epochMs + ".").getBytes(StandardCharsets.US_ASCII));
    mac.update(body);
    return "t=" + epochMs + ",v1=" + HexFormat.of().formatHex(mac.doFinal());
  }
}
