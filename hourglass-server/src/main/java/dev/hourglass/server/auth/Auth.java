package dev.hourglass.server.auth;

import dev.hourglass.server.http.ApiException;
import java.security.MessageDigest;
import java.util.List;
import java.util.Optional;

/**
 * Checks bearer tokens against the configured rules. Tokens are compared as SHA-256 digests with
 * {@link MessageDigest#isEqual} (constant time), against every rule, so the answer's timing does
 * not tell how much of a token matched or which rule it was. With no rules, auth is off and every
 * request passes.
 */
public final class Auth {
  private static final String BEARER = "Bearer ";
  private final List<TokenRule> rules;

  public Auth(List<TokenRule> rules) {
    this.rules = List.copyOf(rules);
  }

  public boolean enabled() {
    return !rules.isEmpty();
  }

  /**
   * The rule of the request's token, or empty when auth is off.
   *
   * @throws ApiException 401 when auth is on and the token is missing or unknown
   */
  public Optional<TokenRule> authenticate(String authorizationHeader) {
    if (!enabled()) {
      return Optional.empty();
    }
    // The scheme name is case-insensitive (RFC 9110, 11.1).
    if (authorizationHeader == null
        || !authorizationHeader.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      throw new ApiException(401, "unauthorized", "send the header Authorization: Bearer <token>");
    }
    byte[] presented = TokenRule.sha256(authorizationHeader.substring(BEARER.length()).trim());
    TokenRule match = null;
    for (TokenRule rule : rules) {
      if (MessageDigest.isEqual(rule.sha256(), presented) && match == null) {
        match = rule;
      }
    }
    if (match == null) {
      throw new ApiException(401, "unauthorized", "the token is not valid");
    }
    return Optional.of(match);
  }

  /**
   * Checks that the request may do this, on this queue (null for requests not about one queue).
   *
   * @throws ApiException 401 without a valid token, 403 when the token lacks the role or queue
   */
  public void check(String authorizationHeader, Permission permission, String queue) {
    Optional<TokenRule> rule = authenticate(authorizationHeader);
    if (rule.isEmpty()) {
      return;
    }
    TokenRule r = rule.get();
    if (!r.role().may(permission)) {
      throw new ApiException(
          403,
          "forbidden",
          "token '" + r.name() + "' (" + r.role().name().toLowerCase() + ") may not do this");
    }
    if (queue != null && !r.allowsQueue(queue)) {
      throw new ApiException(
          403, "forbidden", "token '" + r.name() + "' may not use queue " + queue);
    }
  }

  /** Whether the request's token may see this queue (for filtering lists); true with auth off. */
  public boolean maySee(String authorizationHeader, String queue) {
    return authenticate(authorizationHeader).map(r -> r.allowsQueue(queue)).orElse(true);
  }
}
