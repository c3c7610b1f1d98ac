package dev.hourglass.bench;

import dev.hourglass.bench.Payloads.Job;
import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The cost workload's floor: the primitive Redis work of a job's life, without Lua, pipelined by
 * Lettuce. Per job: HSET of its record (a 30-byte header and the payload, as large as Hourglass's)
 * into one of {@value #POOLS} pool hashes, HGET of it when claimed, HDEL when acked. Per claim of
 * up to {@value #CLAIM} jobs: ZRANGEBYSCORE on the time index, ZREM of the claimed ids from it,
 * ZADD to an inflight index and HSET of a lease each; per ack of those jobs ZREM from inflight and
 * HDEL of the leases. Per enqueue batch of up to {@value #CLAIM} jobs one ZADD to the time index.
 *
 * <p>It keeps no promise a delay queue must (no atomicity, one consumer thread, no retries): it is
 * what the same data costs Redis when nothing has to be checked. One consumer thread claims, so no
 * two claims race for one job; when nothing is due it looks again 2 ms later, which the calls per
 * job include.
 */
final class RawRedisSystem implements SystemUnderTest {
  static final String NAME = "redis-raw";
  static final int POOLS = 40;
  static final int CLAIM = 100;
  private static final int RECORD_HEADER_BYTES = 30;
  private static final long LEASE_MS = 30_000;
  private static final long IDLE_POLL_MS = 2;

  private final RedisClient client;
  private final StatefulRedisConnection<byte[], byte[]> producer;
  private final String base;
  private final byte[] time;
  private final byte[] inflight;
  private final byte[] leases;
  private final AtomicLong nextId = new AtomicLong();

  RawRedisSystem(String redisUri, String queue) {
    this.client = RedisClient.create(redisUri);
    this.producer = client.connect(ByteArrayCodec.INSTANCE);
    this.base = "raw:{" + queue + "}:";
    this.time = bytes(base + "time");
    this.inflight = bytes(base + "inflight");
    this.leases = bytes(base + "leases");
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public CompletableFuture<?> enqueueAsync(Job job) {
    return enqueueBatchAsync(List.of(job));
  }

  /** Pipelined: an HSET per job and a ZADD per {@value #CLAIM} jobs, in one write. */
  @Override
  public synchronized CompletableFuture<?> enqueueBatchAsync(List<Job> jobs) {
    RedisAsyncCommands<byte[], byte[]> redis = producer.async();
    producer.setAutoFlushCommands(false);
    List<CompletableFuture<?>> replies = new ArrayList<>();
    try {
      for (int from = 0; from < jobs.size(); from += CLAIM) {
        List<Job> group = jobs.subList(from, Math.min(jobs.size(), from + CLAIM));
        List<ScoredValue<byte[]>> index = new ArrayList<>(group.size());
        for (Job job : group) {
          long n = nextId.getAndIncrement();
          byte[] id = id(n);
          replies.add(redis.hset(pool(id), id, record(job)).toCompletableFuture());
          index.add(ScoredValue.just(job.dueMs(), id));
        }
        @SuppressWarnings("unchecked")
        ScoredValue<byte[]>[] members = index.toArray(new ScoredValue[0]);
        replies.add(redis.zadd(time, members).toCompletableFuture());
      }
      producer.flushCommands();
    } finally {
      producer.setAutoFlushCommands(true);
    }
    return CompletableFuture.allOf(replies.toArray(new CompletableFuture<?>[0]));
  }

  @Override
  public String batchMethod() {
    return "pipelined_HSET_and_ZADD";
  }

  /** One consumer thread, whatever {@code consumers} says: see the class comment. */
  @Override
  public AutoCloseable consume(int consumers, Consumer<byte[]> sink) {
    StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE);
    connection.setAutoFlushCommands(false);
    ConsumerLoop loop = new ConsumerLoop(connection, sink);
    Thread thread = new Thread(loop, "redis-raw-consumer");
    thread.setDaemon(true);
    thread.start();
    return () -> {
      loop.running = false;
      thread.join(TimeUnit.SECONDS.toMillis(10));
      connection.close();
    };
  }

  @Override
  public Fields consumerFields() {
    return new Fields().put("consumer_threads", 1).put("claim", CLAIM);
  }

  private final class ConsumerLoop implements Runnable {
    private final StatefulRedisConnection<byte[], byte[]> connection;
    private final RedisAsyncCommands<byte[], byte[]> redis;
    private final Consumer<byte[]> sink;
    private volatile boolean running = true;

    ConsumerLoop(StatefulRedisConnection<byte[], byte[]> connection, Consumer<byte[]> sink) {
      this.connection = connection;
      this.redis = connection.async();
      this.sink = sink;
    }

    @Override
    public void run() {
      try {
        while (running) {
          if (!claimAndAck()) {
            Thread.sleep(IDLE_POLL_MS);
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (Exception e) {
        if (running) {
          throw new IllegalStateException("raw consumer failed", e);
        }
      }
    }

    /** One claim, the handler per job, one ack; false when nothing was due. */
    private boolean claimAndAck() throws Exception {
      long now = System.currentTimeMillis();
      RedisFuture<List<byte[]>> due =
          redis.zrangebyscore(time, Range.create(Double.NEGATIVE_INFINITY, (double) now), limit());
      connection.flushCommands();
      List<byte[]> ids = due.get();
      if (ids.isEmpty()) {
        return false;
      }
      byte[][] idArray = ids.toArray(new byte[0][]);
      List<ScoredValue<byte[]>> leased = new ArrayList<>(ids.size());
      Map<byte[], byte[]> receipts = new LinkedHashMap<>();
      byte[] receipt = bytes(Long.toString(now));
      for (byte[] id : ids) {
        leased.add(ScoredValue.just(now + LEASE_MS, id));
        receipts.put(id, receipt);
      }
      redis.zrem(time, idArray);
      @SuppressWarnings("unchecked")
      ScoredValue<byte[]>[] members = leased.toArray(new ScoredValue[0]);
      redis.zadd(inflight, members);
      redis.hset(leases, receipts);
      List<RedisFuture<byte[]>> records = new ArrayList<>(ids.size());
      for (byte[] id : ids) {
        records.add(redis.hget(pool(id), id));
      }
      connection.flushCommands();
      for (RedisFuture<byte[]> record : records) {
        byte[] r = record.get();
        sink.accept(java.util.Arrays.copyOfRange(r, RECORD_HEADER_BYTES, r.length));
      }
      RedisFuture<Long> last = null;
      for (byte[] id : ids) {
        redis.hdel(pool(id), id);
      }
      redis.zrem(inflight, idArray);
      last = redis.hdel(leases, idArray);
      connection.flushCommands();
      last.get(); // replies come in order: every ack command has run
      return true;
    }
  }

  private static io.lettuce.core.Limit limit() {
    return io.lettuce.core.Limit.create(0, CLAIM);
  }

  /** Ids as long as Hourglass's members (22 bytes: a 21-character id and its pool byte). */
  private static byte[] id(long n) {
    return bytes(String.format("raw-%018d", n));
  }

  private byte[] pool(byte[] id) {
    return bytes(base + "pool:" + Math.floorMod(java.util.Arrays.hashCode(id), POOLS));
  }

  private static byte[] record(Job job) {
    byte[] payload = job.payload();
    return ByteBuffer.allocate(RECORD_HEADER_BYTES + payload.length)
        .putLong(job.dueMs())
        .position(RECORD_HEADER_BYTES)
        .put(payload)
        .array();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public AutoCloseable idleQueues(int count, Job job) {
    throw new UnsupportedOperationException(NAME + " runs the cost workload only");
  }

  @Override
  public String idleConsumerKind() {
    return "none";
  }

  @Override
  public void close() {
    producer.close();
    client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
  }
}
