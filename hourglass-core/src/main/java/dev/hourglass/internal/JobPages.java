package dev.hourglass.internal;

import dev.hourglass.InvalidArgumentException;
import dev.hourglass.JobInfo;
import dev.hourglass.JobPage;
import dev.hourglass.JobState;
import dev.hourglass.QueueStats;
import dev.hourglass.internal.QueueTopology.Snapshot;
import dev.hourglass.internal.store.Listings;
import dev.hourglass.internal.store.Partition;
import dev.hourglass.internal.store.Replies.Counts;
import dev.hourglass.internal.store.Replies.Listed;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Reads a queue's jobs by state: pages merged across partitions in one order, and counts of the
 * delayed jobs by when they fall due. Arguments are checked at once.
 */
final class JobPages {
  static final int MAX_LIMIT = 1000;
  private static final Comparator<Listed> ORDER =
      Comparator.comparingLong(Listed::score).thenComparing(Listed::member);

  private final QueueTopology topology;
  private final Listings listings;
  private final JobViews views;

  JobPages(QueueTopology topology, Listings listings, JobViews views) {
    this.topology = topology;
    this.listings = listings;
    this.views = views;
  }

  /** The queue's counts by state, summed over its partitions. */
  CompletableFuture<QueueStats> stats() {
    return topology
        .snapshotAsync()
        .thenCompose(
            s -> {
              List<CompletableFuture<Counts>> replies = new ArrayList<>();
              for (Partition part : s.partitions()) {
                replies.add(listings.stats(part));
              }
              return CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new))
                  .thenApply(
                      done ->
                          QueueCounts.sum(
                              topology.name(),
                              replies.stream().map(CompletableFuture::join).toList()));
            });
  }

  /**
   * Where a page ends: the state listed, and the score and member of its last job (jobs of equal
   * score follow in the order of their members, as Redis orders them).
   */
  private record Cursor(JobState state, long score, String member) {
    String encode() {
      String text = state.label() + ":" + score + ":" + member;
      return Base64.getUrlEncoder()
          .withoutPadding()
          .encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    static Cursor decode(String cursor, JobState state) {
      try {
        String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
        String[] parts = text.split(":", 3);
        if (parts.length == 3 && parts[0].equals(state.label())) {
          return new Cursor(state, Long.parseLong(parts[1]), parts[2]);
        }
      } catch (IllegalArgumentException e) {
        // below
      }
      throw new InvalidArgumentException(
          "cursor", "is not a cursor from a previous page of " + state.label() + " jobs");
    }
  }

  /**
   * A page of up to {@code limit} jobs in {@code state} after {@code cursor} (null or empty: the
   * first page). Each partition gives its first jobs after the cursor, and the page takes the first
   * of them all, so pages follow one order across partitions.
   */
  CompletableFuture<JobPage<byte[]>> page(JobState state, int limit, String cursor) {
    if (state == null) {
      throw new InvalidArgumentException("state", "is required");
    }
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new InvalidArgumentException(
          "limit", "must be between 1 and " + MAX_LIMIT + ", was " + limit);
    }
    Cursor from = cursor == null || cursor.isEmpty() ? null : Cursor.decode(cursor, state);
    return topology.snapshotAsync().thenCompose(s -> merge(s, state, limit, from));
  }

  private CompletableFuture<JobPage<byte[]>> merge(
      Snapshot s, JobState state, int limit, Cursor from) {
    long width = s.settings().slotWidth().toMillis();
    List<CompletableFuture<List<Listed>>> parts = new ArrayList<>();
    for (Partition p : s.partitions()) {
      parts.add(
          listings.list(
              p,
              state.label(),
              from == null ? null : from.score(),
              from == null ? "" : from.member(),
              limit,
              width));
    }
    return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
        .thenApply(
            done -> {
              List<Listed> all = new ArrayList<>();
              boolean more = false;
              for (CompletableFuture<List<Listed>> part : parts) {
                List<Listed> listed = part.join();
                all.addAll(listed);
                more |= listed.size() >= limit;
              }
              all.sort(ORDER);
              more |= all.size() > limit;
              List<Listed> taken = all.subList(0, Math.min(limit, all.size()));
              List<JobInfo<byte[]>> jobs = new ArrayList<>(taken.size());
              for (Listed l : taken) {
                jobs.add(
                    views.info(
                        l.id(),
                        state,
                        l.record(),
                        state == JobState.INFLIGHT ? l.score() : 0,
                        state == JobState.DEAD ? l.score() : 0));
              }
              Optional<String> next = Optional.empty();
              if (more && !taken.isEmpty()) {
                Listed last = taken.get(taken.size() - 1);
                next = Optional.of(new Cursor(state, last.score(), last.member()).encode());
              }
              return new JobPage<>(jobs, next);
            });
  }

  /**
   * How many delayed jobs fall due within each horizon from now (server clock), summed over the
   * partitions; see due_counts.lua for what is exact.
   */
  CompletableFuture<List<Long>> dueWithin(List<Duration> horizons) {
    if (horizons == null || horizons.isEmpty() || horizons.size() > 16) {
      throw new InvalidArgumentException("horizons", "must hold 1 to 16 durations");
    }
    List<Long> ms = new ArrayList<>();
    for (Duration h : horizons) {
      if (h == null || h.isNegative() || h.isZero() || h.toDays() > 3650) {
        throw new InvalidArgumentException("horizons", "must be positive and at most 10 years");
      }
      if (!ms.isEmpty() && h.toMillis() <= ms.get(ms.size() - 1)) {
        throw new InvalidArgumentException("horizons", "must be in ascending order");
      }
      ms.add(h.toMillis());
    }
    return topology
        .snapshotAsync()
        .thenCompose(
            s -> {
              List<CompletableFuture<List<Long>>> parts = new ArrayList<>();
              for (Partition p : s.partitions()) {
                parts.add(listings.dueCounts(p, ms));
              }
              return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
                  .thenApply(
                      done -> {
                        long[] sums = new long[ms.size()];
                        for (CompletableFuture<List<Long>> part : parts) {
                          List<Long> counts = part.join();
                          for (int i = 0; i < sums.length; i++) {
                            sums[i] += counts.get(i);
                          }
                        }
                        List<Long> out = new ArrayList<>();
                        for (long n : sums) {
                          out.add(n);
                        }
                        return out;
                      });
            });
  }
}
