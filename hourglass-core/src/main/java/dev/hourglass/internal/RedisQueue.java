package dev.hourglass.internal;

import dev.hourglass.Backoff;
import dev.hourglass.DeadLetters;
import dev.hourglass.Delivery;
import dev.hourglass.DuplicateJobException;
import dev.hourglass.EnqueueResult;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.JobInfo;
import dev.hourglass.JobNotFoundException;
import dev.hourglass.JobSpec;
import dev.hourglass.JobState;
import dev.hourglass.JobStateException;
import dev.hourglass.Nack;
import dev.hourglass.NackResult;
import dev.hourglass.PayloadTooLargeException;
import dev.hourglass.Queue;
import dev.hourglass.QueueSettings;
import dev.hourglass.QueueStats;
import dev.hourglass.StaleReceiptException;
import dev.hourglass.spi.IdGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/** The {@link Queue} implementation: each operation is one script call on the job's partition. */
final class RedisQueue implements Queue {
  static final int STATUS_OK = 0;
  static final int STATUS_NOT_FOUND = 1;
  static final int STATUS_STALE = 2;
  static final int STATUS_INFLIGHT = 3;
  static final int STATUS_DUPLICATE = 4;
  static final int STATUS_DEAD = 5;

  private static final int BATCH_CHUNK = 500;
  // Settings change rarely; each refresh is a script call, and the promoter reads them on every
  // pass.
  private static final long SETTINGS_REFRESH_MS = 30_000;
  private static final int MAX_ERROR_CHARS = 4096;

  private final HourglassClient client;
  private final String name;
  private final RedisDeadLetters dead;
  private final AtomicInteger claimCursor = new AtomicInteger();
  private static final Duration MAX_CLAIM_WAIT = Duration.ofHours(1);
  private volatile ClaimWaiters waiters;
  // Per partition: concurrent single enqueues and acks share script calls (see CallBatcher).
  private final Map<PartitionRef, CallBatcher<Prepared, EnqueueResult>> enqueueBatchers =
      new java.util.concurrent.ConcurrentHashMap<>();
  private final Map<PartitionRef, CallBatcher<String[], Void>> ackBatchers =
      new java.util.concurrent.ConcurrentHashMap<>();
  private static final int ENQUEUE_BATCH = 500;
  private static final int ACK_BATCH = 500;
  private volatile Layout layout;

  /** The queue's settings as last read from Redis, with its partitions. */
  record Layout(QueueSettings settings, List<PartitionRef> partitions, long readAtMs) {
    PartitionRef partitionOf(String id) {
      return partitions.get(Keys.partitionOf(id, partitions.size()));
    }
  }

  RedisQueue(HourglassClient client, String name) {
    this.client = client;
    this.name = name;
    this.dead = new RedisDeadLetters(this);
  }

  @Override
  public String name() {
    return name;
  }

  HourglassClient client() {
    return client;
  }

  // ---- settings ----

  /**
   * The queue's layout, read from Redis (creating the queue with the client's defaults) when older
   * than 30 s.
   */
  Layout layout() {
    return Failures.await(layoutAsync());
  }

  CompletableFuture<Layout> layoutAsync() {
    Layout l = layout;
    if (l != null && client.config.clock().millis() - l.readAtMs() <= SETTINGS_REFRESH_MS) {
      return CompletableFuture.completedFuture(l);
    }
    return upsert(client.config.defaultQueueSettings(), true);
  }

  void configure(QueueSettings settings) {
    if (settings == null) {
      throw new InvalidArgumentException("settings", "is required");
    }
    Failures.await(upsert(settings, false));
  }

  private CompletableFuture<Layout> upsert(QueueSettings settings, boolean createOnly) {
    Args keys = new Args().add(client.keys.queueRegistry()).add(client.keys.queueSettings(name));
    Args argv = new Args().add(name).add(createOnly ? "1" : "0");
    SettingsCodec.toFields(settings).forEach((k, v) -> argv.add(k).add(v));
    return client.run(Script.QUEUE_UPSERT, keys, argv).thenApply(this::storeLayout);
  }

  private Layout storeLayout(List<Object> reply) {
    List<Object> flat = Reply.list(reply.get(1));
    Map<String, String> fields = new HashMap<>();
    for (int i = 0; i + 1 < flat.size(); i += 2) {
      fields.put(Reply.str(flat.get(i)), Reply.str(flat.get(i + 1)));
    }
    QueueSettings stored = SettingsCodec.fromFields(fields);
    boolean staggered = SettingsCodec.staggeredPools(fields);
    Layout current = layout;
    List<PartitionRef> parts;
    if (current != null
        && current.settings().partitions() == stored.partitions()
        && current.settings().pools() == stored.pools()
        && current.partitions().get(0).staggered == staggered) {
      parts = current.partitions();
    } else {
      parts = new ArrayList<>();
      for (int p = 0; p < stored.partitions(); p++) {
        parts.add(new PartitionRef(client.keys, name, p, stored.pools(), staggered));
      }
      parts = List.copyOf(parts);
    }
    Layout l = new Layout(stored, parts, client.config.clock().millis());
    layout = l;
    return l;
  }

  @Override
  public QueueSettings settings() {
    return Failures.await(upsert(client.config.defaultQueueSettings(), true)).settings();
  }

  /** How long before a time slot starts the promoter loads it: one slot width. */
  long lookaheadMs() {
    return layout().settings().slotWidth().toMillis();
  }

  // ---- enqueue ----

  /**
   * A validated job ready to be sent: its id, the start of the slot its due time should fall in,
   * and its script argument ({@link RecordCodec#enqueueArg}).
   */
  private record Prepared(String id, long slotStart, byte[] arg) {}

  /**
   * The checks that need no queue settings; callers run them on every spec before {@link #prepare}.
   */
  private void validate(JobSpec spec) {
    if (spec == null) {
      throw new InvalidArgumentException("spec", "is required");
    }
    int size = spec.payloadSize();
    if (size > client.config.maxPayloadBytes()) {
      throw new PayloadTooLargeException(size, client.config.maxPayloadBytes());
    }
  }

  private static String generatedId(IdGenerator ids) {
    String id = ids.newId();
    return ids instanceof RandomIds ? id : Names.id(id);
  }

  /** The script arguments of a spec that {@link #validate} has passed. */
  private Prepared prepare(JobSpec spec, Layout l) {
    byte[] payload = spec.payload();
    QueueSettings s = l.settings();
    // A spec's own id was checked by JobSpec.build; a generated one needs checking only when a
    // plug-in generator made it (RandomIds makes valid ids by construction).
    String id = spec.id().orElseGet(() -> generatedId(client.ids));
    boolean relative = true; // time is a delay from the server's now, else absolute epoch ms
    long time = 0;
    long estimatedDue = client.serverClock.nowMs();
    if (spec.runAt().isPresent()) {
      relative = false;
      time = spec.runAt().get().toEpochMilli();
      estimatedDue = time;
    } else if (spec.delay().isPresent()) {
      time = spec.delay().get().toMillis();
      estimatedDue += time;
    }
    long slotMs = s.slotWidth().toMillis();
    long slotStart = Math.floorDiv(estimatedDue, slotMs) * slotMs;
    Backoff backoff =
        spec.backoff().orElse(null); // null: the queue's default, applied at retry time
    long ttl = spec.ttl().or(s::ttl).map(Duration::toMillis).orElse(0L);
    return new Prepared(
        id,
        slotStart,
        RecordCodec.enqueueArg(
            relative,
            time,
            slotStart,
            ttl,
            spec.maxAttempts().orElse(s.maxAttempts()),
            spec.visibility().orElse(s.visibility()).toMillis(),
            RecordCodec.tail(backoff, payload)));
  }

  private CompletableFuture<List<EnqueueResult>> send(PartitionRef part, List<Prepared> jobs) {
    Args keys = part.fixedKeys();
    Args argv = part.argv().add(jobs.size()).add(part.channel()).add(lookaheadMs());
    for (Prepared j : jobs) {
      keys.add(part.pool(j.id())).add(part.keys.slot(j.slotStart()));
      argv.add(j.id()).add(j.arg());
    }
    return client
        .run(Script.ENQUEUE, keys, argv)
        .thenApply(
            reply -> {
              List<EnqueueResult> results = new ArrayList<>(jobs.size());
              for (int i = 0; i < jobs.size(); i++) {
                int status = (int) Reply.num(reply.get(3 * i));
                JobState state = JobState.fromLabel(Reply.str(reply.get(3 * i + 1)));
                Instant due = Instant.ofEpochMilli(Reply.num(reply.get(3 * i + 2)));
                results.add(
                    new EnqueueResult(jobs.get(i).id(), name, state, due, status == STATUS_OK));
              }
              return results;
            });
  }

  @Override
  public EnqueueResult enqueue(JobSpec spec) {
    EnqueueResult r = enqueueIfAbsent(spec);
    if (r.duplicate()) {
      throw new DuplicateJobException(name, r.id());
    }
    return r;
  }

  @Override
  public EnqueueResult enqueueIfAbsent(JobSpec spec) {
    return Failures.await(enqueueOne(spec));
  }

  @Override
  public CompletableFuture<EnqueueResult> enqueueAsync(JobSpec spec) {
    return enqueueOne(spec)
        .thenApply(
            r -> {
              if (r.duplicate()) {
                throw new DuplicateJobException(name, r.id());
              }
              return r;
            });
  }

  /**
   * Validation errors are thrown at once; Redis failures, the settings refresh's included, fail the
   * future.
   */
  private CompletableFuture<EnqueueResult> enqueueOne(JobSpec spec) {
    validate(spec);
    return layoutAsync()
        .thenCompose(
            l -> {
              Prepared p = prepare(spec, l);
              PartitionRef part = l.partitionOf(p.id());
              return enqueueBatchers
                  .computeIfAbsent(
                      part,
                      k ->
                          new CallBatcher<Prepared, EnqueueResult>(
                              jobs -> send(k, jobs).thenApply(List::<Object>copyOf),
                              client.callbacks,
                              ENQUEUE_BATCH))
                  .submit(p);
            });
  }

  @Override
  public List<EnqueueResult> enqueueAll(List<JobSpec> specs) {
    return Failures.await(enqueueAllAsync(specs));
  }

  @Override
  public CompletableFuture<List<EnqueueResult>> enqueueAllAsync(List<JobSpec> specs) {
    if (specs == null) {
      throw new InvalidArgumentException("specs", "is required");
    }
    for (int i = 0; i < specs.size(); i++) {
      try {
        validate(specs.get(i));
      } catch (InvalidArgumentException e) {
        throw e.under("specs[" + i + "]");
      }
    }
    return layoutAsync().thenCompose(l -> sendAll(l, specs));
  }

  /**
   * Groups by partition, 500 jobs per script call, all calls pipelined; results in request order.
   */
  private CompletableFuture<List<EnqueueResult>> sendAll(Layout l, List<JobSpec> specs) {
    List<Prepared> prepared = new ArrayList<>(specs.size());
    for (int i = 0; i < specs.size(); i++) {
      try {
        prepared.add(prepare(specs.get(i), l));
      } catch (InvalidArgumentException e) {
        throw e.under("specs[" + i + "]");
      }
    }
    Map<Integer, List<Integer>> byPartition = new HashMap<>();
    for (int i = 0; i < prepared.size(); i++) {
      byPartition
          .computeIfAbsent(l.partitionOf(prepared.get(i).id()).index, k -> new ArrayList<>())
          .add(i);
    }
    EnqueueResult[] results = new EnqueueResult[prepared.size()];
    List<CompletableFuture<Void>> pending = new ArrayList<>();
    byPartition.forEach(
        (p, indexes) -> {
          for (int from = 0; from < indexes.size(); from += BATCH_CHUNK) {
            List<Integer> chunk =
                indexes.subList(from, Math.min(indexes.size(), from + BATCH_CHUNK));
            List<Prepared> jobs = chunk.stream().map(prepared::get).toList();
            pending.add(
                send(l.partitions().get(p), jobs)
                    .thenAccept(
                        rs -> {
                          for (int k = 0; k < chunk.size(); k++) {
                            results[chunk.get(k)] = rs.get(k);
                          }
                        }));
          }
        });
    return CompletableFuture.allOf(pending.toArray(new CompletableFuture<?>[0]))
        .thenApply(done -> List.of(results));
  }

  // ---- inspect and admin ----

  @Override
  public Optional<JobInfo> get(String id) {
    Names.id(id);
    PartitionRef part = layout().partitionOf(id);
    List<Object> reply = client.call(Script.GET, part.keysFor(id), part.argv().add(id));
    if (Reply.status(reply) == STATUS_NOT_FOUND) {
      return Optional.empty();
    }
    JobState state = JobState.fromLabel(Reply.str(reply.get(2)));
    long at = Reply.num(reply.get(3));
    return Optional.of(
        info(
            id,
            state,
            RecordCodec.decode(Reply.bytes(reply.get(1))),
            state == JobState.INFLIGHT ? at : 0,
            state == JobState.DEAD ? at : 0));
  }

  /**
   * The job's own backoff, or its queue's default. Reads the cached layout only (it is loaded
   * before any job of the queue can be read), so it is safe on Lettuce's event loop.
   */
  private Backoff backoffOf(RecordCodec.Decoded r) {
    return r.backoff() != null ? r.backoff() : layout.settings().backoff();
  }

  JobInfo info(String id, JobState state, RecordCodec.Decoded r, long leaseUntil, long diedAt) {
    return new JobInfo(
        name,
        id,
        state,
        Instant.ofEpochMilli(r.due()),
        r.attempts(),
        r.maxAttempts(),
        Instant.ofEpochMilli(r.created()),
        r.expireAt() > 0 ? Optional.of(Instant.ofEpochMilli(r.expireAt())) : Optional.empty(),
        leaseUntil > 0 ? Optional.of(Instant.ofEpochMilli(leaseUntil)) : Optional.empty(),
        diedAt > 0 ? Optional.of(Instant.ofEpochMilli(diedAt)) : Optional.empty(),
        Duration.ofMillis(r.visibilityMs()),
        backoffOf(r),
        r.lastError().isEmpty() ? Optional.empty() : Optional.of(r.lastError()),
        r.payload());
  }

  @Override
  public boolean cancel(String id) {
    Names.id(id);
    PartitionRef part = layout().partitionOf(id);
    List<Object> reply = client.call(Script.CANCEL, part.keysFor(id), part.argv().add(id));
    return switch (Reply.status(reply)) {
      case STATUS_OK -> true;
      case STATUS_NOT_FOUND -> false;
      case STATUS_INFLIGHT -> throw new JobStateException(name, id, JobState.INFLIGHT, "cancel");
      default -> throw unexpected(reply);
    };
  }

  @Override
  public JobInfo reschedule(String id, Duration delay) {
    if (delay == null || delay.isNegative()) {
      throw new InvalidArgumentException("delay", "must be zero or positive");
    }
    return reschedule(id, "d", delay.toMillis(), client.serverClock.nowMs() + delay.toMillis());
  }

  @Override
  public JobInfo reschedule(String id, Instant runAt) {
    if (runAt == null) {
      throw new InvalidArgumentException("runAt", "is required");
    }
    JobSpec.Builder.checkRunAt(runAt);
    return reschedule(id, "a", runAt.toEpochMilli(), runAt.toEpochMilli());
  }

  private JobInfo reschedule(String id, String mode, long time, long estimatedDue) {
    Names.id(id);
    Layout l = layout();
    PartitionRef part = l.partitionOf(id);
    long slotMs = l.settings().slotWidth().toMillis();
    long slotStart = Math.floorDiv(estimatedDue, slotMs) * slotMs;
    Args keys = part.keysFor(id).add(part.keys.slot(slotStart));
    Args argv =
        part.argv().add(id).add(mode).add(time).add(slotStart).add(part.channel()).add(slotMs);
    List<Object> reply = client.call(Script.RESCHEDULE, keys, argv);
    switch (Reply.status(reply)) {
      case STATUS_OK:
        // From the script's own reply: a consumer may take the job the moment the script ends.
        return info(
            id,
            JobState.fromLabel(Reply.str(reply.get(1))),
            RecordCodec.decode(Reply.bytes(reply.get(3))),
            0,
            0);
      case STATUS_NOT_FOUND:
        throw new JobNotFoundException(name, id);
      case STATUS_INFLIGHT:
        throw new JobStateException(name, id, JobState.INFLIGHT, "reschedule");
      case STATUS_DEAD:
        throw new JobStateException(name, id, JobState.DEAD, "reschedule");
      default:
        throw unexpected(reply);
    }
  }

  @Override
  public long promote() {
    return client.promoters.promoteNow(this);
  }

  @Override
  public DeadLetters dead() {
    return dead;
  }

  @Override
  public QueueStats stats() {
    Layout l = layout();
    List<CompletableFuture<List<Object>>> replies = new ArrayList<>();
    for (PartitionRef part : l.partitions()) {
      replies.add(client.run(Script.STATS, part.fixedKeys(), part.argv()));
    }
    long ready = 0, inflight = 0, deadCount = 0;
    Map<String, Long> counters = new HashMap<>();
    for (CompletableFuture<List<Object>> f : replies) {
      List<Object> r = Failures.await(f);
      ready += Reply.num(r.get(0));
      inflight += Reply.num(r.get(1));
      deadCount += Reply.num(r.get(2));
      List<Object> flat = Reply.list(r.get(3));
      for (int i = 0; i + 1 < flat.size(); i += 2) {
        counters.merge(Reply.str(flat.get(i)), Reply.num(flat.get(i + 1)), Long::sum);
      }
    }
    // Every removal counts in exactly one of these counters (see prelude.lua).
    long jobs =
        counters.getOrDefault("enqueued", 0L)
            - counters.getOrDefault("acked", 0L)
            - counters.getOrDefault("cancelled", 0L)
            - counters.getOrDefault("expired", 0L)
            - counters.getOrDefault("purged", 0L);
    return new QueueStats(
        name,
        l.partitions().size(),
        Math.max(0, jobs - ready - inflight - deadCount),
        ready,
        inflight,
        deadCount,
        counters.getOrDefault("enqueued", 0L),
        counters.getOrDefault("delivered", 0L),
        counters.getOrDefault("acked", 0L),
        counters.getOrDefault("retried", 0L),
        counters.getOrDefault("dead", 0L),
        counters.getOrDefault("expired", 0L),
        counters.getOrDefault("cancelled", 0L));
  }

  // ---- consume ----

  @Override
  public List<Delivery> claim(int max, Duration visibility) {
    checkClaim(max, visibility);
    client.promoters.ensure(this);
    return Failures.await(claimAnyAsync(max, visibility));
  }

  @Override
  public List<Delivery> claim(int max, Duration visibility, Duration wait) {
    return Failures.await(claimAsync(max, visibility, wait));
  }

  @Override
  public CompletableFuture<List<Delivery>> claimAsync(int max, Duration visibility, Duration wait) {
    checkClaim(max, visibility);
    if (wait == null || wait.isNegative() || wait.compareTo(MAX_CLAIM_WAIT) > 0) {
      throw new InvalidArgumentException("wait", "must be between 0 and 1 h, was " + wait);
    }
    client.promoters.ensure(this);
    if (wait.isZero()) {
      return claimAnyAsync(max, visibility);
    }
    return waiters().claim(max, visibility, wait);
  }

  private static void checkClaim(int max, Duration visibility) {
    if (max < 1 || max > 1000) {
      throw new InvalidArgumentException("max", "must be between 1 and 1000, was " + max);
    }
    if (visibility != null) {
      Names.duration("visibility", visibility);
    }
  }

  private ClaimWaiters waiters() {
    ClaimWaiters w = waiters;
    if (w == null) {
      synchronized (this) {
        if (waiters == null) {
          waiters = new ClaimWaiters(client, this);
        }
        w = waiters;
      }
    }
    return w;
  }

  /** Ends long-poll waits and stops their watchers; the client calls this when it closes. */
  void close() {
    ClaimWaiters w = waiters;
    if (w != null) {
      w.close();
    }
  }

  /**
   * Claims up to {@code max} jobs over the partitions, starting from a rotating one, without
   * waiting; never blocks the calling thread.
   */
  CompletableFuture<List<Delivery>> claimAnyAsync(int max, Duration visibility) {
    return layoutAsync()
        .thenCompose(
            l -> {
              int start = Math.floorMod(claimCursor.getAndIncrement(), l.partitions().size());
              return claimFrom(l, start, 0, max, visibility, new ArrayList<>());
            });
  }

  private CompletableFuture<List<Delivery>> claimFrom(
      Layout l, int start, int i, int max, Duration visibility, List<Delivery> out) {
    int n = l.partitions().size();
    if (i >= n || out.size() >= max) {
      return CompletableFuture.completedFuture(out);
    }
    return claimAsync(l.partitions().get((start + i) % n), max - out.size(), visibility)
        .thenCompose(
            got -> {
              out.addAll(got);
              return claimFrom(l, start, i + 1, max, visibility, out);
            });
  }

  /** Claims from one partition. */
  List<Delivery> claim(PartitionRef part, int max, Duration visibility) {
    return Failures.await(claimAsync(part, max, visibility));
  }

  CompletableFuture<List<Delivery>> claimAsync(PartitionRef part, int max, Duration visibility) {
    long visMs = visibility == null ? 0 : visibility.toMillis();
    Args argv = part.argv().add(max).add(visMs).add(client.random.token());
    return client
        .run(Script.CLAIM, part.keysWithAllPools(), argv)
        .thenApply(reply -> deliveries(reply, visibility));
  }

  private List<Delivery> deliveries(List<Object> reply, Duration visibility) {
    long now = Reply.num(reply.get(0));
    if (now > 0) {
      client.serverClock.observe(now);
    }
    List<Delivery> out = new ArrayList<>((reply.size() - 1) / 5);
    for (int i = 1; i + 4 < reply.size(); i += 5) {
      RecordCodec.Decoded r = RecordCodec.decode(Reply.bytes(reply.get(i + 1)));
      out.add(
          new Delivery(
              name,
              Reply.str(reply.get(i)),
              r.payload(),
              (int) Reply.num(reply.get(i + 2)),
              r.maxAttempts(),
              Reply.str(reply.get(i + 3)),
              Instant.ofEpochMilli(Reply.num(reply.get(i + 4))),
              Instant.ofEpochMilli(r.due()),
              Instant.ofEpochMilli(r.created()),
              visibility != null ? visibility : Duration.ofMillis(r.visibilityMs()),
              backoffOf(r),
              r.lastError().isEmpty() ? Optional.empty() : Optional.of(r.lastError())));
    }
    return out;
  }

  @Override
  public void ack(String id, String receipt) {
    Failures.await(ackAsync(id, receipt));
  }

  /** Acks go through the partition's {@link CallBatcher}, so concurrent acks share script calls. */
  CompletableFuture<Void> ackAsync(String id, String receipt) {
    Names.id(id);
    Names.receipt(receipt);
    return layoutAsync()
        .thenCompose(
            l ->
                ackBatchers
                    .computeIfAbsent(
                        l.partitionOf(id),
                        part ->
                            new CallBatcher<String[], Void>(
                                acks -> sendAcks(part, acks), client.callbacks, ACK_BATCH))
                    .submit(new String[] {id, receipt}));
  }

  /** One ack script call for many (id, receipt) pairs; per pair null (acked) or the refusal. */
  private CompletableFuture<List<Object>> sendAcks(PartitionRef part, List<String[]> acks) {
    Args keys = part.fixedKeys();
    Args argv = part.argv().add(acks.size());
    for (String[] a : acks) {
      keys.add(part.pool(a[0]));
      argv.add(a[0]).add(a[1]);
    }
    return client
        .run(Script.ACK, keys, argv)
        .thenApply(
            reply -> {
              List<Object> out = new ArrayList<>(acks.size());
              for (int i = 0; i < acks.size(); i++) {
                out.add(refusal((int) Reply.num(reply.get(i)), acks.get(i)[0]));
              }
              return out;
            });
  }

  /** The exception for a lease-checked script's status, or null for ok. */
  private RuntimeException refusal(int status, String id) {
    return switch (status) {
      case STATUS_OK -> null;
      case STATUS_STALE -> new StaleReceiptException(name, id);
      case STATUS_NOT_FOUND -> new JobNotFoundException(name, id);
      default ->
          new IllegalStateException("unexpected script status " + status + " for queue " + name);
    };
  }

  /** Hands back a delivery that was never started: back to ready, the attempt not counted. */
  CompletableFuture<Void> releaseAsync(String id, String receipt) {
    PartitionRef part = layout().partitionOf(id);
    return client
        .run(Script.RELEASE, part.keysFor(id), part.argv().add(id).add(receipt))
        .thenAccept(reply -> checkLease(reply, id));
  }

  @Override
  public NackResult nack(String id, String receipt, Nack nack) {
    Names.id(id);
    Names.receipt(receipt);
    if (nack == null) {
      throw new InvalidArgumentException("nack", "is required");
    }
    long delayMs = 0;
    if (!nack.kill()) {
      if (nack.delay().isPresent()) {
        delayMs = nack.delay().get().toMillis();
      } else {
        // The backoff needs the job's attempt count: read it. The script re-checks the receipt.
        JobInfo job = get(id).orElseThrow(() -> new JobNotFoundException(name, id));
        delayMs = backoffDelay(job.backoff(), job.attempts() + 1);
      }
    }
    return nack(id, receipt, nack.error(), delayMs, nack.kill());
  }

  static long backoffDelay(Backoff backoff, int failedAttempt) {
    return backoff.delayAfter(failedAttempt, ThreadLocalRandom.current().nextDouble()).toMillis();
  }

  NackResult nack(String id, String receipt, String error, long delayMs, boolean kill) {
    return Failures.await(nackAsync(id, receipt, error, delayMs, kill));
  }

  CompletableFuture<NackResult> nackAsync(
      String id, String receipt, String error, long delayMs, boolean kill) {
    Layout l = layout();
    PartitionRef part = l.partitionOf(id);
    long slotMs = l.settings().slotWidth().toMillis();
    long slotStart = Math.floorDiv(client.serverClock.nowMs() + delayMs, slotMs) * slotMs;
    String text = error.length() > MAX_ERROR_CHARS ? error.substring(0, MAX_ERROR_CHARS) : error;
    Args keys = part.keysFor(id).add(part.keys.slot(slotStart));
    Args argv =
        part.argv()
            .add(id)
            .add(receipt)
            .add(text)
            .add(delayMs)
            .add(kill ? "1" : "0")
            .add(slotStart)
            .add(part.channel())
            .add(slotMs);
    return client
        .run(Script.NACK, keys, argv)
        .thenApply(
            reply -> {
              checkLease(reply, id);
              return new NackResult(
                  "dead".equals(Reply.str(reply.get(1))),
                  Instant.ofEpochMilli(Reply.num(reply.get(2))));
            });
  }

  @Override
  public Instant extend(String id, String receipt, Duration visibility) {
    Names.id(id);
    Names.receipt(receipt);
    Names.duration("visibility", visibility);
    PartitionRef part = layout().partitionOf(id);
    Args argv = part.argv().add(id).add(receipt).add(visibility.toMillis());
    List<Object> reply = client.call(Script.EXTEND, part.keysFor(id), argv);
    checkLease(reply, id);
    return Instant.ofEpochMilli(Reply.num(reply.get(1)));
  }

  private void checkLease(List<Object> reply, String id) {
    RuntimeException refused = refusal(Reply.status(reply), id);
    if (refused != null) {
      throw refused;
    }
  }

  IllegalStateException unexpected(List<Object> reply) {
    return new IllegalStateException(
        "unexpected script status " + Reply.status(reply) + " for queue " + name);
  }
}
