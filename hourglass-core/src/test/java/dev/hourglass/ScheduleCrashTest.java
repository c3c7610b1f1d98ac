package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hourglass.testing.RedisExtension;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A process is SIGKILLed between an occurrence's delivery and its ack, and in the middle of a
 * stream of schedule updates: afterwards there is exactly one schedule, one pending occurrence (the
 * next), and no occurrence is ever two jobs.
 */
class ScheduleCrashTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  @Test
  void killedBetweenAnOccurrencesDeliveryAndItsAck() throws Exception {
    try (Hourglass h = Hourglass.builder().redisUri(redis.uri()).build()) {
      Queue<String> q = h.queue("crash-consume", String.class);
      q.schedules().put(ScheduleSpec.every("s", Duration.ofSeconds(1), "x").build());
      Child child = new Child("crash-consume", "consume");
      String delivered;
      try {
        await()
            .atMost(Duration.ofSeconds(60))
            .until(() -> child.lines.stream().anyMatch(l -> l.startsWith("HG START ")));
        delivered =
            child.lines.stream()
                .filter(l -> l.startsWith("HG START "))
                .findFirst()
                .orElseThrow()
                .substring(9);
      } finally {
        child.kill();
      }
      // the delivery enqueued the next occurrence in the same script
      assertThat(q.schedules().list()).hasSize(1);
      List<JobInfo<String>> pending = pending(q);
      assertThat(pending).hasSize(1);
      assertThat(pending.get(0).id()).isNotEqualTo(delivered);
      assertThat(q.get(delivered).orElseThrow().state()).isEqualTo(JobState.INFLIGHT);

      ConcurrentLinkedQueue<Job<String>> got = new ConcurrentLinkedQueue<>();
      try (Worker w = q.worker(got::add, WorkerOptions.builder().build())) {
        // the killed delivery comes back by its lease (attempt 2), and occurrences go on
        await()
            .atMost(Duration.ofSeconds(60))
            .until(
                () ->
                    got.stream().anyMatch(j -> j.id().equals(delivered) && j.attempt() == 2)
                        && got.stream().filter(j -> j.attempt() == 1).count() >= 2);
      }
      List<String> firsts = got.stream().filter(j -> j.attempt() == 1).map(Job::id).toList();
      assertThat(new HashSet<>(firsts))
          .as("no occurrence delivered as two jobs")
          .hasSameSizeAs(firsts);
      assertThat(firsts).doesNotContain(delivered);
      assertThat(q.schedules().list()).hasSize(1);
    }
  }

  @Test
  void killedDuringAStreamOfScheduleUpdates() throws Exception {
    try (Hourglass h = Hourglass.builder().redisUri(redis.uri()).build()) {
      Queue<String> q = h.queue("crash-upsert", String.class);
      Child child = new Child("crash-upsert", "upsert");
      try {
        await()
            .atMost(Duration.ofSeconds(60))
            .until(() -> child.lines.stream().filter(l -> l.startsWith("HG PUT ")).count() >= 50);
      } finally {
        child.kill();
      }
      assertThat(q.schedules().list()).hasSize(1);
      ScheduleInfo<String> s = q.schedules().get("s").orElseThrow();
      List<JobInfo<String>> pending = pending(q);
      assertThat(pending).as("exactly one pending occurrence").hasSize(1);
      assertThat(pending.get(0).id()).isEqualTo("s:" + s.nextRuns().get(0).toEpochMilli());
      assertThat(pending.get(0).payload().value()).isEqualTo(s.payload().value());
    }
  }

  private static List<JobInfo<String>> pending(Queue<String> q) {
    List<JobInfo<String>> out = new ArrayList<>(q.jobs(JobState.DELAYED, 100, null).jobs());
    Set<String> seen = new HashSet<>(out.stream().map(JobInfo::id).toList());
    q.jobs(JobState.READY, 100, null).jobs().stream()
        .filter(j -> seen.add(j.id()))
        .forEach(out::add);
    return out;
  }

  /** A child JVM running {@link ScheduleCrashMain}, its output lines collected. */
  private static final class Child {
    final ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
    private final Process process;
    private final Thread reader;

    Child(String queue, String mode) throws IOException {
      String java =
          ProcessHandle.current()
              .info()
              .command()
              .orElse(
                  System.getProperty("java.home")
                      + File.separator
                      + "bin"
                      + File.separator
                      + "java");
      process =
          new ProcessBuilder(
                  java,
                  "-Xmx256m",
                  "-XX:TieredStopAtLevel=1",
                  "-cp",
                  System.getProperty("java.class.path"),
                  ScheduleCrashMain.class.getName(),
                  redis.uri(),
                  queue,
                  mode)
              .redirectErrorStream(true)
              .start();
      reader =
          new Thread(
              () -> {
                try (BufferedReader in =
                    new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                  String line;
                  while ((line = in.readLine()) != null) {
                    lines.add(line);
                  }
                } catch (IOException ignored) {
                  // the process is gone
                }
              },
              "schedule-crash-child");
      reader.setDaemon(true);
      reader.start();
    }

    void kill() throws InterruptedException {
      process.destroyForcibly(); // SIGKILL on Linux
      assertThat(process.waitFor(10, TimeUnit.SECONDS)).as("child died").isTrue();
      reader.join(10_000);
    }
  }
}
