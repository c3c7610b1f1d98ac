package dev.hourglass.archive;

import java.util.List;
import java.util.Optional;

/**
 * One page of a queue's history, newest first.
 *
 * @param jobs the records of the page
 * @param next the cursor of the next page; empty on the last page
 */
public record HistoryPage(List<HistoryRecord> jobs, Optional<String> next) {
  /**
   * Keeps an unmodifiable copy of the records.
   *
   * @param jobs the records of the page
   * @param next the cursor of the next page; empty on the last page
   * @throws NullPointerException when the records or one of them is null
   */
  public HistoryPage {
    jobs = List.copyOf(jobs);
  }
}
