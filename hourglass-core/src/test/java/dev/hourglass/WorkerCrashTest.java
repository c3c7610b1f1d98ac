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
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A worker process is killed with SIGKILL in the middle of its work (no shutdown hook, no close,
 * leases held). Every job must still be acked exactly once in the end: the ones the dead process
 * held come back when their leases lapse and a worker in this JVM finishes them. Invariants 1 (no
 * loss) and 2 (at least once, receipts) of docs/ARCHITECTURE.md.
 */
class WorkerCrashTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  private static final String QUEUE = "crash";
  private static final int JOBS = 300;
  private static final long CHILD_WORK_MS = 40;
  private static final int KILL_AFTER_DONE = 60;

  @Test
  void sigkilledWorkerLosesNoJobAndItsLeasedJobsComeBack() throws Exception {
    List<String> ids = IntStream.range(0, JOBS).mapToObj(i -> "job-" + i).toList();
    try (Hourglass hourglass = Hourglass.builder().redisUri(redis.uri()).build()) {
      Queue<byte[]> queue = hourglass.queue(QUEUE);
      List<EnqueueResult> enqueued =
          queue.enqueueAll(
              ids.stream().map(id -> JobSpec.builder().id(id).payload(id).build()).toList());
      assertThat(enqueued).allMatch(EnqueueResult::created);

      // --- a child JVM works on the queue and is killed mid-way ---
      Process child = startChild();
      ChildOutput out = new ChildOutput(child);
      try {
        await("child worker has finished " + KILL_AFTER_DONE + " jobs; output: " + out.tail())
            .atMost(Duration.ofSeconds(40))
            .pollInterval(Duration.ofMillis(5))
            .until(
                () -> {
                  if (!child.isAlive()) {
                    throw new AssertionError("child exited early: " + out.tail());
                  }
                  // Kill while a handler runs (a job started and not done), so the kill lands
                  // mid-job and not in a gap between claims.
                  return out.done.size() >= KILL_AFTER_DONE && out.started.size() > out.done.size();
                });
        child.destroyForcibly(); // SIGKILL on Linux
        assertThat(child.waitFor(10, TimeUnit.SECONDS)).as("child died").isTrue();
        assertThat(child.exitValue()).as("exit status of a SIGKILLed JVM").isEqualTo(128 + 9);
      } finally {
        child.destroyForcibly();
      }
      out.awaitEof();

      Set<String> childStarted = Set.copyOf(out.started.keySet());
      Set<String> childDone = Set.copyOf(out.done.keySet());
      Set<String> inFlightAtKill = new HashSet<>(childStarted);
      inFlightAtKill.removeAll(childDone);

      QueueStats atKill = queue.stats();
      assertThat(childDone).as("child finished some but not all jobs").hasSizeLessThan(JOBS);
      // With prefetch a handler thread starts its next job without waiting for the last one's ack,
      // so how many acks were still on their way at the kill depends on timing; exactly those jobs
      // are handled twice (checked below).
      assertThat(atKill.counters().acked())
          .as("acks happen after DONE")
          .isLessThanOrEqualTo(childDone.size());
      assertThat(atKill.inflight()).as("the dead child still holds leases").isPositive();
      assertThat(inFlightAtKill).as("handlers were running at the kill").isNotEmpty();
      assertThat(atKill.total()).isEqualTo(JOBS - atKill.counters().acked());

      // --- a worker in this JVM finishes the rest ---
      ConcurrentLinkedQueue<Job<byte[]>> survivorDeliveries = new ConcurrentLinkedQueue<>();
      Worker survivor =
          hourglass.worker(
              QUEUE,
              job -> survivorDeliveries.add(job),
              WorkerOptions.builder().concurrency(8).visibility(Duration.ofSeconds(10)).build());
      try {
        await("every job acked")
            .atMost(RedisProbe.LIVENESS)
            .until(() -> queue.stats().counters().acked() == JOBS && queue.stats().total() == 0);
      } finally {
        survivor.close(Duration.ofSeconds(5));
      }

      QueueStats end = queue.stats();
      assertThat(end.counters().enqueued()).isEqualTo(JOBS);
      assertThat(end.counters().acked()).as("each job acked exactly once").isEqualTo(JOBS);
      assertThat(end.delayed()).isZero();
      assertThat(end.ready()).isZero();
      assertThat(end.inflight()).isZero();
      assertThat(end.dead()).isZero();
      assertThat(end.counters().dead()).isZero();
      assertThat(end.counters().retried())
          .as("lapsed leases were counted as retries")
          .isGreaterThanOrEqualTo(inFlightAtKill.size());

      Map<String, List<Integer>> survivorAttempts = new HashMap<>();
      for (Job<byte[]> d : survivorDeliveries) {
        survivorAttempts.computeIfAbsent(d.id(), k -> new ArrayList<>()).add(d.attempt());
      }
      assertThat(survivorAttempts.values())
          .as("the survivor got each job once (no concurrent redelivery)")
          .allMatch(list -> list.size() == 1);

      Set<String> union = new HashSet<>(childDone);
      union.addAll(survivorAttempts.keySet());
      assertThat(union)
          .as("every job was finished by the child or the survivor")
          .containsExactlyInAnyOrderElementsOf(ids);

      for (String id : inFlightAtKill) {
        assertThat(survivorAttempts.get(id))
            .as(
                "job %s was in a handler of the killed child; it must come back as attempt >= 2",
                id)
            .isNotNull()
            .allMatch(a -> a >= 2);
      }
      assertThat(survivorDeliveries)
          .as("redeliveries of leased jobs")
          .anyMatch(d -> d.attempt() >= 2);

      Set<String> firstAttemptsBySurvivor =
          survivorDeliveries.stream()
              .filter(d -> d.attempt() == 1)
              .map(Job::id)
              .collect(Collectors.toSet());
      assertThat(firstAttemptsBySurvivor)
          .as("a job the child had claimed never comes back as a first attempt")
          .doesNotContainAnyElementsOf(childStarted);

      Set<String> doneTwice = new HashSet<>(childDone);
      doneTwice.retainAll(survivorAttempts.keySet());
      assertThat(doneTwice)
          .as("only jobs finished but not yet acked at the kill are handled twice")
          .hasSize((int) (childDone.size() - atKill.counters().acked()));
      System.out.printf(
          "crash summary: child started %d, done %d, acked at kill %d, in handlers at kill %d, inflight at kill %d,"
              + " survivor deliveries %d (attempt>=2: %d), done twice %d%n",
          childStarted.size(),
          childDone.size(),
          atKill.counters().acked(),
          inFlightAtKill.size(),
          atKill.inflight(),
          survivorDeliveries.size(),
          survivorDeliveries.stream().filter(d -> d.attempt() >= 2).count(),
          doneTwice.size());
    }
  }

  private static Process startChild() throws IOException {
    String java =
        ProcessHandle.current()
            .info()
            .command()
            .orElse(
                System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
    String classpath = System.getProperty("java.class.path");
    List<String> command =
        List.of(
            java,
            "-Xmx256m",
            "-XX:TieredStopAtLevel=1",
            "-cp",
            classpath,
            CrashingWorkerMain.class.getName(),
            redis.uri(),
            QUEUE,
            Long.toString(CHILD_WORK_MS));
    return new ProcessBuilder(command).redirectErrorStream(true).start();
  }

  /**
   * Reads the child's stdout until EOF: START and DONE lines by id (value: attempt), and a tail for
   * diagnostics.
   */
  private static final class ChildOutput {
    final Map<String, Integer> started = new ConcurrentHashMap<>();
    final Map<String, Integer> done = new ConcurrentHashMap<>();
    private final Deque<String> tail = new ArrayDeque<>();
    private final Thread reader;

    ChildOutput(Process child) {
      reader =
          new Thread(
              () -> {
                try (BufferedReader in =
                    new BufferedReader(
                        new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                  String line;
                  while ((line = in.readLine()) != null) {
                    record(line);
                  }
                } catch (IOException ignored) {
                  // the process is gone
                }
              },
              "crash-child-stdout");
      reader.setDaemon(true);
      reader.start();
    }

    private void record(String line) {
      synchronized (tail) {
        tail.addLast(line);
        if (tail.size() > 40) {
          tail.removeFirst();
        }
      }
      String[] parts = line.split(" ");
      if (parts.length == 4 && parts[0].equals("HG")) {
        int attempt = Integer.parseInt(parts[3]);
        if (parts[1].equals("START")) {
          started.put(parts[2], attempt);
        } else if (parts[1].equals("DONE")) {
          done.put(parts[2], attempt);
        }
      }
    }

    String tail() {
      synchronized (tail) {
        return String.join("\n", tail);
      }
    }

    void awaitEof() throws InterruptedException {
      reader.join(10_000);
      assertThat(reader.isAlive()).as("child stdout reached EOF").isFalse();
    }
  }
}
