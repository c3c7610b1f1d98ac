package dev.hourglass.server.http;

import dev.hourglass.Delivery;
import dev.hourglass.server.json.ApiException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The claims this server holds: those that may wait (a long poll, {@code waitMs > 0}) are limited
 * in total ({@code --max-waiting-claims}) and per client ({@code --max-waiting-claims-per-client});
 * past a limit a claim is refused with 429 {@code rate_limited} before it touches Redis. At
 * shutdown every claim held is answered with no jobs now instead of being waited out.
 */
final class LongPolls {
  private final int max;
  private final int maxPerClient;
  private final Set<CompletableFuture<List<Delivery<byte[]>>>> held = ConcurrentHashMap.newKeySet();
  private final Map<String, Integer> waitingByClient = new HashMap<>();
  private int waiting;
  private volatile boolean closing;

  LongPolls(int max, int maxPerClient) {
    this.max = max;
    this.maxPerClient = maxPerClient;
  }

  /** Claims held now, waiting or not ({@code hourglass_claims_waiting}). */
  int held() {
    return held.size();
  }

  /** True once the server stops: claims no longer wait. */
  boolean isClosing() {
    return closing;
  }

  /**
   * Runs {@code claim} for {@code client} and holds its answer until it completes. A claim that
   * {@code waits} takes one of the client's places and one of the server's for as long as it is
   * held; with none left it is refused (429) and {@code claim} is not run.
   */
  CompletableFuture<List<Delivery<byte[]>>> hold(
      String client, boolean waits, Supplier<CompletableFuture<List<Delivery<byte[]>>>> claim) {
    if (waits) {
      enter(client);
    }
    CompletableFuture<List<Delivery<byte[]>>> claimed;
    try {
      claimed = claim.get();
    } catch (RuntimeException e) {
      if (waits) {
        leave(client);
      }
      throw e;
    }
    held.add(claimed);
    claimed.whenComplete(
        (jobs, failure) -> {
          held.remove(claimed);
          if (waits) {
            leave(client);
          }
        });
    return claimed;
  }

  private synchronized void enter(String client) {
    if (waiting >= max) {
      throw refused(
          "the server holds "
              + max
              + " waiting claims, its limit (--max-waiting-claims); claim again later");
    }
    int mine = waitingByClient.getOrDefault(client, 0);
    if (mine >= maxPerClient) {
      throw refused(
          client
              + " holds "
              + mine
              + " waiting claims, the limit per client (--max-waiting-claims-per-client);"
              + " claim again once one is answered");
    }
    waiting++;
    waitingByClient.put(client, mine + 1);
  }

  private synchronized void leave(String client) {
    waiting--;
    waitingByClient.computeIfPresent(client, (c, n) -> n == 1 ? null : n - 1);
  }

  private static ApiException refused(String message) {
    return new ApiException(429, "rate_limited", message);
  }

  /**
   * The server is stopping: claims no longer wait, and every claim held is answered with no jobs
   * now. A job leased for one of them after this goes straight back to ready.
   */
  void closing() {
    closing = true;
    for (CompletableFuture<List<Delivery<byte[]>>> c : List.copyOf(held)) {
      c.complete(List.of());
    }
  }
}
