package dev.hourglass.server.auth;

import dev.hourglass.server.json.ApiException;
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

  /**
   * Checks tokens against these rules.
   *
   * @param rules the configured tokens; none turns auth off
   */
  public Auth(List<TokenRule> rules) {
    this.rules = List.copyOf(rules);
  }

  /**
   * Whether auth is on.
   *
   * @return true when at least one token is configured
   */
  public boolean enabled() {
    return !rules.isEmpty();
  }

  /**
   * The rule of the request's token, or empty when auth is off.
   *
   * @param authorizationHeader the request's {@code Authorization} header, or null when it has none
   * @return the matching rule, or empty when auth is off
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
   * Checks that the request's token may do this kind of request, and returns its rule (empty when
   * auth is off) for the queue checks that follow.
   *
   * @param authorizationHeader the request's {@code Authorization} header, or null when it has none
   * @param permission what the request does
   * @return the token's rule, or empty when auth is off
   * @throws ApiException 401 without a valid token, 403 when the token lacks the role
   */
  public Optional<TokenRule> authorize(String authorizationHeader, Permission permission) {
    Optional<TokenRule> rule = authenticate(authorizationHeader);
    if (rule.isPresent() && !rule.get().role().may(permission)) {
      TokenRule r = rule.get();
      throw new ApiException(
          403,
          "forbidden",
          "token '" + r.name() + "' (" + r.role().name().toLowerCase() + ") may not do this");
    }
    return rule;
  }

  /**
   * Checks that the token (empty: auth off) may use this queue.
   *
   * @param rule the request's token rule, from {@link #authorize}
   * @param queue the queue the request names
   * @throws ApiException 403 when its queue patterns do not match
   */
  public static void checkQueue(Optional<TokenRule> rule, String queue) {
    if (!maySee(rule, queue)) {
      throw new ApiException(
          403, "forbidden", "token '" + rule.get().name() + "' may not use queue " + queue);
    }
  }

  /**
   * Whether the token (empty: auth off) may see this queue, e.g. in a list.
   *
   * @param rule the request's token rule, from {@link #authorize}
   * @param queue a queue's name
   * @return true when auth is off or one of the token's queue patterns matches
   */
  public static boolean maySee(Optional<TokenRule> rule, String queue) {
    return rule.map(r -> r.allowsQueue(queue)).orElse(true);
  }
}
