package dev.hourglass.server.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One configured token: its SHA-256 (the token itself is not kept), its role, and the queue name
 * patterns it may touch ({@code *} matches any run of characters, {@code ?} one character),
 * compiled once.
 *
 * @param name a label for logs; never the token
 */
public record TokenRule(String name, byte[] sha256, Role role, List<Pattern> queuePatterns) {
  /** The shortest token accepted, so that tokens cannot be guessed. */
  public static final int MIN_TOKEN_CHARS = 16;

  /**
   * A rule for a token given in plain text; only its SHA-256 is kept.
   *
   * @param name a label for logs
   * @param token the secret the client sends as {@code Authorization: Bearer <token>}
   * @param role what the token may do
   * @param queuePatterns the queue name globs it may touch
   * @return the rule
   */
  public static TokenRule of(String name, String token, Role role, List<String> queuePatterns) {
    return new TokenRule(
        name, sha256(token), role, queuePatterns.stream().map(TokenRule::glob).toList());
  }

  /**
   * Whether one of the token's queue patterns matches a queue's whole name.
   *
   * @param queue a queue's name
   * @return true when a pattern matches
   */
  public boolean allowsQueue(String queue) {
    for (Pattern p : queuePatterns) {
      if (p.matcher(queue).matches()) {
        return true;
      }
    }
    return false;
  }

  static Pattern glob(String pattern) {
    StringBuilder re = new StringBuilder();
    for (char c : pattern.toCharArray()) {
      switch (c) {
        case '*' -> re.append(".*");
        case '?' -> re.append('.');
        default -> re.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return Pattern.compile(re.toString());
  }

  static byte[] sha256(String token) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JVM lacks SHA-256", e);
    }
  }
}
