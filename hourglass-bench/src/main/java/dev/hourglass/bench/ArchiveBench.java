package dev.hourglass.bench;

import dev.hourglass.Delivery;
import dev.hourglass.Hourglass;
import dev.hourglass.JobSpec;
import dev.hourglass.Queue;
import dev.hourglass.archive.Archive;
import dev.hourglass.archive.ArchiveSettings;
import dev.hourglass.keyspace.Keyspace;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code hourglass-bench/run archive [--jobs N] [--payload-bytes B] [--redis URI]}: the archive's
 * cost per finished job. On one Redis (embedded unless given) and an embedded PostgreSQL: enqueue
 * and ack N jobs with the outbox off, then with it on (one client, one ack at a time: the mean ack
 * latency of each), the outbox streams' memory per record (MEMORY USAGE after the acks, before any
 * archiving), and then the rows per second the archiver stores into PostgreSQL while draining the N
 * records. Prints one {@code RESULT system=hourglass workload=archive ...} line.
 */
final class ArchiveBench {
  private static final String QUEUE = "bench";

  private ArchiveBench() {}

  public static void main(String[] args) throws Exception {
    int jobs = 20_000;
    int payloadBytes = 200;
    String redisUrl = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--jobs" -> jobs = Integer.parseInt(args[++i]);
        case "--payload-bytes" -> payloadBytes = Integer.parseInt(args[++i]);
        case "--redis" -> redisUrl = args[++i];
        case "--systems" -> {
          if (!args[++i].equals("hourglass")) {
            usage("the archive workload runs on hourglass only");
          }
        }
        default -> usage("unknown option " + args[i]);
      }
    }
    if (jobs < 1 || payloadBytes < 2) {
      usage("--jobs must be at least 1 and --payload-bytes at least 2");
    }
    run(jobs, payloadBytes, redisUrl);
    System.out.flush();
    System.exit(0); // client threads must not hold the JVM
  }

  private static void usage(String message) {
    System.err.println("hourglass-bench archive: " + message);
    System.err.println(
        "usage: hourglass-bench/run archive [--jobs N] [--payload-bytes B] [--redis URI]");
    System.exit(2);
  }

  private static void run(int jobs, int payloadBytes, String redisUrl) throws Exception {
    String payload = "\"" + "x".repeat(payloadBytes - 2) + "\"";
    try (RedisTarget redis = RedisTarget.open(redisUrl);
        EmbeddedPostgres pg = EmbeddedPostgres.builder().start();
        Hourglass h = Hourglass.builder().redisUri(redis.uri()).build()) {
      System.out.println(
          "# hourglass-bench archive jobs=" + jobs + " payload_bytes=" + payloadBytes);
      System.out.println("# " + redis.describe() + "; java " + Runtime.version());
      ArchiveSettings settings =
          ArchiveSettings.builder()
              .jdbc(pg.getJdbcUrl("postgres", "postgres"), "postgres", "postgres")
              .outboxMaxPerPartition(Math.max(jobs, 1000))
              .idle(Duration.ofMillis(5))
              .build();
      enqueueAndAck(h.queue("warmup"), Math.min(jobs, 5000), payload, "w"); // JIT, connections
      double ackOffUs = enqueueAndAck(h.queue("off"), jobs, payload, "j");
      // The schema migrated and the outbox turned on; then the archiver stopped, so that the acks
      // below fill the outbox, and its drain is timed on its own.
      Archive.start(h, settings).close();
      Queue<byte[]> q = h.queue(QUEUE);
      double ackOnUs = enqueueAndAck(q, jobs, payload, "j");
      long outboxBytes = 0;
      int partitions = q.settings().partitions();
      for (int p = 0; p < partitions; p++) {
        outboxBytes +=
            redis.memoryUsage("hg:{" + Keyspace.partitionTag(QUEUE, p, partitions) + "}:outbox");
      }
      long waiting = h.outbox().size(QUEUE).waiting();

      long start = System.nanoTime();
      try (Archive archive = Archive.start(h, settings)) {
        while (h.outbox().size(QUEUE).waiting() > 0) {
          LockSupport.parkNanos(2_000_000); // the archiver's progress
        }
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      System.out.println(
          String.format(
              Locale.ROOT,
              "RESULT system=hourglass workload=archive jobs=%d payload_bytes=%d"
                  + " ack_us_outbox_off=%.1f ack_us_outbox_on=%.1f outbox_records=%d"
                  + " outbox_bytes_per_job=%d archive_rows_per_s=%.0f archive_seconds=%.2f",
              jobs,
              payloadBytes,
              ackOffUs,
              ackOnUs,
              waiting,
              waiting == 0 ? 0 : outboxBytes / waiting,
              waiting / seconds,
              seconds));
      System.out.println("RATIO workload=archive note=single_system");
    }
  }

  /** Enqueues and acks the jobs; returns the mean latency of one ack in microseconds. */
  private static double enqueueAndAck(Queue<byte[]> q, int jobs, String payload, String idPrefix) {
    for (int i = 0; i < jobs; i++) {
      q.enqueue(JobSpec.builder().id(idPrefix + i).payload(payload).build());
    }
    long ackNanos = 0;
    int acked = 0;
    while (acked < jobs) {
      List<Delivery<byte[]>> got = q.claim(Math.min(100, jobs - acked), Duration.ofMinutes(5));
      for (Delivery<byte[]> d : got) {
        long t = System.nanoTime();
        q.ack(d);
        ackNanos += System.nanoTime() - t;
        acked++;
      }
    }
    return ackNanos / 1000.0 / jobs;
  }
}
