package dev.hourglass.internal;

/** The Lua scripts, one per operation; each lives in {@code dev/hourglass/lua/<name>.lua}. */
public enum Script {
  ENQUEUE("enqueue", true, false),
  PROMOTE("promote", true, true),
  CLAIM("claim", true, true),
  ACK("ack", true, true),
  NACK("nack", true, true),
  EXTEND("extend", true, true),
  RELEASE("release", true, true),
  CANCEL("cancel", true, false),
  RESCHEDULE("reschedule", true, false),
  GET("get", true, false),
  DEAD_LIST("dead_list", true, false),
  DEAD_REQUEUE("dead_requeue", true, false),
  DEAD_PURGE("dead_purge", true, false),
  STATS("stats", true, false),
  QUEUE_UPSERT("queue_upsert", false, true);

  private final String scriptName;
  private final String fileName;
  private final boolean partitionScript;
  private final boolean delivery;

  Script(String name, boolean partitionScript, boolean delivery) {
    this.scriptName = name;
    this.fileName = name + ".lua";
    this.partitionScript = partitionScript;
    this.delivery = delivery;
  }

  /** The script's name, e.g. {@code claim}. */
  String scriptName() {
    return scriptName;
  }

  String fileName() {
    return fileName;
  }

  /** Partition scripts get the shared prelude (keys, record codec, helpers) prepended. */
  boolean partitionScript() {
    return partitionScript;
  }

  /**
   * Scripts of the path from due to done (promote, claim, ack, nack, extend, release) run on the
   * delivery connection, so that a producer's pipelined enqueues never hold them up; so does the
   * queue settings read (queue_upsert), which every path waits for once its copy is 30 s old.
   */
  boolean delivery() {
    return delivery;
  }
}
