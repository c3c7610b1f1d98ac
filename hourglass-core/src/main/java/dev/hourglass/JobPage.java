package dev.hourglass;

import dev.hourglass.spi.PayloadCodec;
import java.util.List;
import java.util.Optional;

/**
 * One page of a queue's jobs in one state ({@link Queue#jobs}, {@link DeadLetters#list}), across
 * all its partitions: ordered by due time (delayed, ready), lease deadline (inflight) or time of
 * death (dead), ties by id.
 *
 * @param jobs the jobs of this page
 * @param next the cursor of the next page, empty after the last
 * @param <T> the payload type of the queue handle
 */
public record JobPage<T>(List<JobInfo<T>> jobs, Optional<String> next) {
  /**
   * Keeps an unmodifiable copy of the jobs.
   *
   * @param jobs the jobs of this page
   * @param next the cursor of the next page, empty after the last
   * @throws NullPointerException when the jobs or one of them is null
   */
  public JobPage {
    jobs = List.copyOf(jobs);
  }

  /**
   * The same page with its payloads seen through another codec.
   *
   * @param codec the codec to read the payloads with
   * @param <U> its payload type
   * @return a copy of this page, its payloads the same bytes
   * @throws InvalidArgumentException when the codec is null
   */
  public <U> JobPage<U> as(PayloadCodec<U> codec) {
    return new JobPage<>(jobs.stream().map(j -> j.as(codec)).toList(), next);
  }
}
