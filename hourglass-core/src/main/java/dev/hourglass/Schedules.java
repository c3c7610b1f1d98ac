package dev.hourglass;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A queue's schedules (recurring jobs): each makes one job per occurrence of a cron expression or a
 * fixed interval, with the id {@code <schedule id>:<occurrence time in epoch ms>}. At most one
 * occurrence of a schedule is pending at a time; when it is delivered, cancelled or expires, the
 * next is enqueued in the same Redis call: the first later than both that moment and it. Get one
 * with {@link Queue#schedules()}. Each method has an async twin, whose future fails with the
 * exceptions the blocking one throws.
 *
 * @param <T> the payload type of the queue handle
 */
public interface Schedules<T> {
  /**
   * What {@link #put} did.
   *
   * @param schedule the schedule as written
   * @param created true when no schedule of that id existed
   * @param <T> the payload type
   */
  record PutResult<T>(ScheduleInfo<T> schedule, boolean created) {}

  /**
   * Creates or replaces a schedule. The same put from any number of clients, at once or after
   * restarts, leaves one schedule and never two jobs for one occurrence. The pending occurrence is
   * replaced, so that the next delivery carries the new definition; when the timing (cron or
   * interval, zone, start, end) is unchanged it keeps its time, and so its id.
   *
   * @param spec the schedule
   * @return the schedule as written, and whether it was created
   * @throws InvalidArgumentException naming the field (an invalid cron, an interval under 1 s, an
   *     end before the start, an option out of range); nothing is written
   */
  PutResult<T> put(ScheduleSpec<T> spec);

  /**
   * {@link #put} without blocking.
   *
   * @param spec the schedule
   * @return the future of the result
   */
  CompletableFuture<PutResult<T>> putAsync(ScheduleSpec<T> spec);

  /**
   * One schedule.
   *
   * @param id the schedule id
   * @return it, or empty
   */
  Optional<ScheduleInfo<T>> get(String id);

  /**
   * {@link #get} without blocking.
   *
   * @param id the schedule id
   * @return the future of it, or empty
   */
  CompletableFuture<Optional<ScheduleInfo<T>>> getAsync(String id);

  /**
   * Every schedule of the queue, by id.
   *
   * @return the schedules
   */
  List<ScheduleInfo<T>> list();

  /**
   * {@link #list} without blocking.
   *
   * @return the future of the schedules
   */
  CompletableFuture<List<ScheduleInfo<T>>> listAsync();

  /**
   * Pauses a schedule: its pending occurrence is removed, and it enqueues none until resumed.
   *
   * @param id the schedule id
   * @return the schedule
   * @throws ScheduleNotFoundException when there is none
   */
  ScheduleInfo<T> pause(String id);

  /**
   * {@link #pause} without blocking.
   *
   * @param id the schedule id
   * @return the future of the schedule
   */
  CompletableFuture<ScheduleInfo<T>> pauseAsync(String id);

  /**
   * Resumes a schedule: the first occurrence later than now is enqueued.
   *
   * @param id the schedule id
   * @return the schedule
   * @throws ScheduleNotFoundException when there is none
   */
  ScheduleInfo<T> resume(String id);

  /**
   * {@link #resume} without blocking.
   *
   * @param id the schedule id
   * @return the future of the schedule
   */
  CompletableFuture<ScheduleInfo<T>> resumeAsync(String id);

  /**
   * Deletes a schedule and its pending occurrence; a delivered occurrence finishes normally.
   *
   * @param id the schedule id
   * @return true when it existed
   */
  boolean delete(String id);

  /**
   * {@link #delete} without blocking.
   *
   * @param id the schedule id
   * @return the future of whether it existed
   */
  CompletableFuture<Boolean> deleteAsync(String id);
}
