package dev.hourglass.server;

import dev.hourglass.embedded.RedisServer;
import java.util.List;

/**
 * Tells which keys changed between two points in a test, reading the digest of every key ({@link
 * RedisState}) only when Redis's count of writes ({@link RedisState#writes}) moved: a request that
 * wrote nothing costs two INFO calls instead of two digests of a database that grows as a fuzz
 * runs. A write the digest leaves out (a partition's {@code meta}, a {@code wake} list) moves the
 * count too, and then the digests decide.
 */
final class WriteWatch {
  private final RedisServer redis;
  private RedisState state;
  private long stateWrites = -1;

  WriteWatch(RedisServer redis) {
    this.redis = redis;
  }

  /** A point to compare with later. */
  record Mark(long writes, RedisState state) {}

  /** The data now: the state last read when no write happened since, else a fresh read. */
  Mark mark() {
    long writes = RedisState.writes(redis);
    if (writes != stateWrites) {
      read(writes);
    }
    return new Mark(writes, state);
  }

  /** The keys added, removed or changed since {@code mark}; empty when none. */
  List<String> changesSince(Mark mark) {
    long writes = RedisState.writes(redis);
    if (writes == mark.writes()) {
      return List.of();
    }
    read(writes);
    return state.changesSince(mark.state());
  }

  /**
   * Reads the state, stamped with a count read before it: a write between the two leaves the state
   * newer than its stamp, never older, so the next mark at a later count reads again.
   */
  private void read(long writesBefore) {
    state = RedisState.read(redis);
    stateWrites = writesBefore;
  }
}
