package dev.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.embedded.RedisServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server on {@code --redis rediss://...?verifyPeer=NONE}: Redis listens on a plain port (which
 * {@link RedisServer} probes for readiness) and on a TLS port, and the server must use the TLS one.
 * The certificate is self-signed and made at test time with the JDK's own {@code keytool}, so the
 * test needs nothing but a JDK. Peer verification against a CA is not tested.
 */
class TlsRedisTest {
  private static final String PASSWORD = "changeit";

  @TempDir static Path certs;
  private static RedisServer redis;
  private static int tlsPort;

  @BeforeAll
  static void startTlsRedis() throws Exception {
    Path cert = certs.resolve("redis.crt");
    Path key = certs.resolve("redis.key");
    writeSelfSignedPem(certs.resolve("redis.p12"), cert, key);
    tlsPort = freePort();
    redis =
        RedisServer.builder()
            .args(
                "--tls-port", Integer.toString(tlsPort),
                "--tls-cert-file", cert.toString(),
                "--tls-key-file", key.toString(),
                "--tls-ca-cert-file", cert.toString(),
                "--tls-auth-clients", "no")
            .build();
    redis.start();
  }

  @AfterAll
  static void stopTlsRedis() {
    if (redis != null) {
      redis.close();
    }
  }

  @Test
  void enqueueClaimAckOverTls() {
    String uri = "rediss://127.0.0.1:" + tlsPort + "?verifyPeer=NONE";
    try (TestServer s = TestServer.startQuickStop(uri)) {
      RoundTrip.enqueueClaimAck(s, "over-tls");
      // Every connection but the one asking came in on the TLS port.
      List<String> localPorts = clientLocalPorts();
      assertThat(localPorts).contains(Integer.toString(tlsPort));
      assertThat(localPorts.stream().filter(p -> p.equals(Integer.toString(redis.port()))))
          .hasSize(1);
    }
  }

  /** The local port ({@code laddr}) of every client connection, from {@code CLIENT LIST}. */
  private static List<String> clientLocalPorts() {
    List<String> ports = new ArrayList<>();
    for (String line : redis.command("CLIENT", "LIST").split("\n")) {
      for (String field : line.split(" ")) {
        if (field.startsWith("laddr=")) {
          ports.add(field.substring(field.lastIndexOf(':') + 1));
        }
      }
    }
    return ports;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /**
   * Makes a self-signed RSA certificate for 127.0.0.1 with {@code keytool} into a PKCS12 store, and
   * writes the certificate and its PKCS#8 private key as the PEM files Redis reads.
   */
  private static void writeSelfSignedPem(Path store, Path certPem, Path keyPem)
      throws IOException, InterruptedException, GeneralSecurityException {
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    Process p =
        new ProcessBuilder(
                keytool.toString(),
                "-genkeypair",
                "-alias",
                "redis",
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-validity",
                "2",
                "-dname",
                "CN=127.0.0.1",
                "-ext",
                "SAN=ip:127.0.0.1",
                "-storetype",
                "PKCS12",
                "-keystore",
                store.toString(),
                "-storepass",
                PASSWORD,
                "-keypass",
                PASSWORD)
            .redirectErrorStream(true)
            .start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("keytool finished").isTrue();
    assertThat(p.exitValue()).as("keytool: " + output).isZero();
    KeyStore keyStore = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      keyStore.load(in, PASSWORD.toCharArray());
    }
    Files.writeString(certPem, pem("CERTIFICATE", keyStore.getCertificate("redis").getEncoded()));
    Files.writeString(
        keyPem, pem("PRIVATE KEY", keyStore.getKey("redis", PASSWORD.toCharArray()).getEncoded()));
  }

  private static String pem(String type, byte[] der) {
    Base64.Encoder base64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII));
    return "-----BEGIN "
        + type
        + "-----\n"
        + base64.encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }
}
