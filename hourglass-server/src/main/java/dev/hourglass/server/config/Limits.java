package dev.hourglass.server.config;

import java.util.Map;

/**
 * What one server holds at once ({@code max-connections}, {@code max-waiting-claims}, {@code
 * max-waiting-claims-per-client}).
 *
 * @param maxConnections HTTP connections open at once; past it new ones wait in the listen backlog
 * @param maxWaitingClaims long-poll claims waiting at once; past it a claim is refused (429)
 * @param maxWaitingClaimsPerClient long-poll claims one client (its token with auth on, else its
 *     address) may have waiting at once; past it its claim is refused (429)
 */
public record Limits(int maxConnections, int maxWaitingClaims, int maxWaitingClaimsPerClient) {

  static Limits of(Map<Setting, String> values) {
    return new Limits(
        (int) ConfigLoader.number(Setting.MAX_CONNECTIONS, values, 1, 1_000_000),
        (int) ConfigLoader.number(Setting.MAX_WAITING_CLAIMS, values, 1, 1_000_000),
        (int) ConfigLoader.number(Setting.MAX_WAITING_CLAIMS_PER_CLIENT, values, 1, 1_000_000));
  }
}
