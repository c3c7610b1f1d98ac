package dev.hourglass;

import java.util.List;
import java.util.Optional;

/**
 * One page of dead jobs.
 *
 * @param jobs the jobs of this page, oldest death first within a partition
 * @param next the cursor of the next page, empty after the last
 * @param <T> the payload type of the queue handle
 */
public record DeadPage<T>(List<JobInfo<T>> jobs, Optional<String> next) {
  public DeadPage {
    jobs = List.copyOf(jobs);
  }
}
