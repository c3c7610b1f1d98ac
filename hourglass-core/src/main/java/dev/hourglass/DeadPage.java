package dev.hourglass;

import java.util.List;
import java.util.Optional;

/**
 * One page of dead jobs.
 *
 * @param jobs the jobs of this page, oldest death first within a partition
 * @param next the cursor of the next page, empty after the last
 */
public record DeadPage(List<JobInfo> jobs, Optional<String> next) {}
