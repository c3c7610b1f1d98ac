package dev.hourglass.internal.store;

/**
 * The Lua scripts, one per operation; each lives in {@code dev/hourglass/lua/<name>.lua} and pulls
 * in what it shares with others from {@code includes/} (see {@link LuaSource}).
 */
public enum Script {
  ENQUEUE("enqueue", false),
  ENQUEUE_FRESH("enqueue_fresh", false),
  DICTIONARY("dictionary", false),
  PROMOTE("promote", true),
  CLAIM("claim", true),
  CLOCK("clock", true),
  ACK("ack", true),
  NACK("nack", true),
  EXTEND("extend", true),
  RELEASE("release", true),
  CANCEL("cancel", false),
  RESCHEDULE("reschedule", false),
  GET("get", false),
  LIST("list", false),
  DUE_COUNTS("due_counts", false),
  DEAD_REQUEUE("dead_requeue", false),
  DEAD_PURGE("dead_purge", false),
  STATS("stats", false),
  PAUSE("pause", false),
  SET_LIMITS("set_limits", false),
  OUTBOX("outbox", false),
  DROP("drop", false),
  QUEUE_UPSERT("queue_upsert", true),
  QUEUE_DELETE("queue_delete", false),
  SCHED_PUT("sched_put", false),
  SCHED_CHANGE("sched_change", false),
  SCHED_REFILL("sched_refill", false);

  private final String scriptName;
  private final boolean delivery;

  Script(String name, boolean delivery) {
    this.scriptName = name;
    this.delivery = delivery;
  }

  /** The script's name, e.g. {@code claim}. */
  public String scriptName() {
    return scriptName;
  }

  String fileName() {
    return scriptName + ".lua";
  }

  /**
   * Scripts of the path from due to done (promote, claim, clock, ack, nack, extend, release) run on
   * the delivery connection, so that a producer's pipelined enqueues never hold them up; so does
   * the queue settings read (queue_upsert), which every path waits for when its copy is stale.
   */
  boolean delivery() {
    return delivery;
  }
}
