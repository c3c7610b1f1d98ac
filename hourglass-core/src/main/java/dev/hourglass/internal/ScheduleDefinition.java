package dev.hourglass.internal;

import dev.hourglass.Backoff;
import dev.hourglass.internal.store.ScheduleCalls;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A schedule's definition as the client wrote it, and its bytes in Redis (the {@code <id>#d} field
 * of includes/schedule.lua, which only clients read). Null fields were not given. {@code anchorMs}:
 * what an interval counts from (its start, else its creation), kept across puts.
 */
record ScheduleDefinition(
    String cron,
    String zone,
    long everyMs,
    long anchorMs,
    Long startAtMs,
    Long endAtMs,
    Integer maxAttempts,
    Backoff backoff,
    Long visibilityMs,
    Long ttlMs,
    Integer priority,
    byte[] payload) {
  private static final int VERSION = 1;

  /**
   * The timing: a put that leaves it unchanged keeps the pending occurrence's time (sched_put.lua
   * compares it as written).
   */
  String timing() {
    String bounds = "|" + startAtMs + "|" + endAtMs;
    return cron != null
        ? "cron|" + cron + "|" + zone + bounds
        : "every|" + everyMs + "|" + anchorMs + bounds;
  }

  byte[] encode() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(VERSION);
      writeString(out, cron);
      writeString(out, zone);
      out.writeLong(everyMs);
      out.writeLong(anchorMs);
      writeLong(out, startAtMs);
      writeLong(out, endAtMs);
      writeLong(out, maxAttempts == null ? null : (long) maxAttempts);
      writeBytes(out, backoff == null ? null : ScheduleCalls.backoffBytes(backoff));
      writeLong(out, visibilityMs);
      writeLong(out, ttlMs);
      writeLong(out, priority == null ? null : (long) priority);
      writeBytes(out, payload);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  static ScheduleDefinition decode(byte[] b) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(b))) {
      int version = in.readByte();
      if (version != VERSION) {
        throw new IllegalStateException("schedule definition of version " + version);
      }
      String cron = readString(in);
      String zone = readString(in);
      long every = in.readLong();
      long anchor = in.readLong();
      Long start = readLong(in);
      Long end = readLong(in);
      Long max = readLong(in);
      byte[] backoff = readBytes(in);
      Long vis = readLong(in);
      Long ttl = readLong(in);
      Long prio = readLong(in);
      byte[] payload = readBytes(in);
      return new ScheduleDefinition(
          cron,
          zone,
          every,
          anchor,
          start,
          end,
          max == null ? null : max.intValue(),
          backoff == null ? null : ScheduleCalls.backoffOf(backoff),
          vis,
          ttl,
          prio == null ? null : prio.intValue(),
          payload);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void writeString(DataOutputStream out, String s) throws IOException {
    out.writeBoolean(s != null);
    if (s != null) {
      out.writeUTF(s);
    }
  }

  private static String readString(DataInputStream in) throws IOException {
    return in.readBoolean() ? in.readUTF() : null;
  }

  private static void writeLong(DataOutputStream out, Long v) throws IOException {
    out.writeBoolean(v != null);
    if (v != null) {
      out.writeLong(v);
    }
  }

  private static Long readLong(DataInputStream in) throws IOException {
    return in.readBoolean() ? in.readLong() : null;
  }

  private static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
    out.writeInt(b == null ? -1 : b.length);
    if (b != null) {
      out.write(b);
    }
  }

  private static byte[] readBytes(DataInputStream in) throws IOException {
    int n = in.readInt();
    return n < 0 ? null : in.readNBytes(n);
  }
}
