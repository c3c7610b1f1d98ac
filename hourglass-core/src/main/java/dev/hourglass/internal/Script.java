package dev.hourglass.internal;

/** The Lua scripts, one per operation; each lives in {@code dev/hourglass/lua/<name>.lua}. */
public enum Script {
  ENQUEUE("enqueue", true),
  PROMOTE("promote", true),
  CLAIM("claim", true),
  ACK("ack", true),
  NACK("nack", true),
  EXTEND("extend", true),
  RELEASE("release", true),
  CANCEL("cancel", true),
  RESCHEDULE("reschedule", true),
  GET("get", true),
  DEAD_LIST("dead_list", true),
  DEAD_REQUEUE("dead_requeue", true),
  DEAD_PURGE("dead_purge", true),
  STATS("stats", true),
  QUEUE_UPSERT("queue_upsert", false);

  private final String scriptName;
  private final String fileName;
  private final boolean partitionScript;

  Script(String name, boolean partitionScript) {
    this.scriptName = name;
    this.fileName = name + ".lua";
    this.partitionScript = partitionScript;
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
}
