package dev.hourglass.bench;

import dev.hourglass.Hourglass;
import dev.hourglass.Queue;
import dev.hourglass.ScheduleSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;

/**
 * What schedules cost Redis: {@code --schedules N} schedules of {@code every} 60 s in one queue
 * (their first occurrence an hour away, so nothing falls due), then {@code used_memory} and {@code
 * used_memory_dataset} growth per schedule (its state with 16 listed times, definition, record
 * template, and its pending occurrence: a job), and the Redis commands per second (INFO
 * commandstats, commands inside scripts included) over {@code --seconds} while one client runs the
 * queue's promoters and no consumer is busy. Hourglass only; an embedded Redis unless {@code
 * --redis URL}.
 */
final class ScheduleBench {
  private ScheduleBench() {}

  public static void main(String[] args) throws Exception {
    int schedules = 10_000;
    int seconds = 30;
    String url = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--schedules" -> schedules = Integer.parseInt(args[++i]);
        case "--seconds" -> seconds = Integer.parseInt(args[++i]);
        case "--redis" -> url = args[++i];
        default -> {
          System.err.println("usage: schedules [--schedules N] [--seconds S] [--redis URL]");
          System.exit(2);
        }
      }
    }
    try (RedisTarget redis = RedisTarget.open(url);
        Hourglass h = Hourglass.builder().redisUri(redis.uri()).build()) {
      System.out.println("# " + redis.describe());
      Queue<byte[]> q = h.queue("schedules-bench");
      Instant start = Instant.now().plus(Duration.ofHours(1));
      byte[] payload = "{\"report\":\"hourly\",\"tenant\":42}".getBytes();
      q.schedules().put(spec("s-0", start, payload)); // the queue and its partition exist now
      RedisTarget.Memory before = redis.memory();
      List<CompletableFuture<?>> inFlight = new ArrayList<>();
      for (int i = 1; i < schedules; i++) {
        inFlight.add(q.schedules().putAsync(spec("s-" + i, start, payload)));
        if (inFlight.size() == 200) {
          CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new)).join();
          inFlight.clear();
        }
      }
      CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new)).join();
      RedisTarget.Memory after = redis.memory();
      int added = schedules - 1;

      q.claim(1, null); // starts this client's promoters for the queue; nothing is due
      Thread.sleep(3000);
      Map<String, Long> first = redis.commandCalls();
      long t0 = System.nanoTime();
      Thread.sleep(seconds * 1000L);
      long nanos = System.nanoTime() - t0;
      Map<String, Long> second = redis.commandCalls();
      Map<String, Long> delta = new HashMap<>();
      second.forEach((cmd, calls) -> delta.put(cmd, calls - first.getOrDefault(cmd, 0L)));
      delta.merge("info", -1L, Long::sum); // the first snapshot, counted by the second
      delta.values().removeIf(calls -> calls <= 0);
      long total = delta.values().stream().mapToLong(Long::longValue).sum();
      StringJoiner byCommand = new StringJoiner(",");
      delta.entrySet().stream()
          .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
          .forEach(e -> byCommand.add(e.getKey() + ":" + e.getValue()));
      System.out.printf(
          "schedules=%d pending=%d used_memory_per_schedule=%d dataset_per_schedule=%d"
              + " seconds=%d commands_per_s=%.2f by_command=%s%n",
          schedules,
          q.stats().delayed(),
          (after.used() - before.used()) / added,
          (after.dataset() - before.dataset()) / added,
          seconds,
          total * 1e9 / nanos,
          byCommand);
    }
  }

  private static ScheduleSpec<byte[]> spec(String id, Instant start, byte[] payload) {
    return ScheduleSpec.every(id, Duration.ofSeconds(60), payload).startAt(start).build();
  }
}
