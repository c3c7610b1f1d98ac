package dev.hourglass.bench;

import dev.hourglass.bench.Payloads.Job;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.redisson.Redisson;
import org.redisson.api.RBlockingQueue;
import org.redisson.api.RDelayedQueue;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.ByteArrayCodec;
import org.redisson.config.Config;
import org.redisson.config.SingleServerConfig;

/**
 * Redisson's RDelayedQueue with default client settings: producers offer to the delayed queue, the
 * client's transfer task moves due jobs to an RBlockingQueue, consumers {@code take()} from it.
 * Payloads are stored as raw bytes ({@link ByteArrayCodec}), as Hourglass stores them.
 */
@SuppressWarnings("deprecation") // RDelayedQueue is deprecated in Redisson 4 (for the paid one).
final class RedissonSystem implements SystemUnderTest {
  private final RedissonClient client;
  private final RBlockingQueue<byte[]> target;
  private final RDelayedQueue<byte[]> delayed;

  RedissonSystem(String redisUri, String queueName) {
    this.client = Redisson.create(config(redisUri));
    this.target = client.getBlockingQueue(queueName, ByteArrayCodec.INSTANCE);
    this.delayed = client.getDelayedQueue(target);
  }

  private static Config config(String redisUri) {
    URI uri = URI.create(redisUri);
    Config config = new Config();
    SingleServerConfig server =
        config
            .useSingleServer()
            .setAddress(uri.getScheme() + "://" + uri.getHost() + ":" + uri.getPort());
    String userInfo = uri.getUserInfo();
    if (userInfo != null && !userInfo.isEmpty()) {
      int colon = userInfo.indexOf(':');
      if (colon < 0) {
        config.setPassword(userInfo);
      } else {
        if (colon > 0) {
          config.setUsername(userInfo.substring(0, colon));
        }
        config.setPassword(userInfo.substring(colon + 1));
      }
    }
    String path = uri.getPath();
    if (path != null && path.length() > 1) {
      server.setDatabase(Integer.parseInt(path.substring(1)));
    }
    return config;
  }

  @Override
  public String name() {
    return "redisson";
  }

  /** Redisson takes a delay, not a time: the delay left until the due time, from now. */
  private static long delayMs(Job job) {
    return Math.max(0, job.dueMs() - System.currentTimeMillis());
  }

  @Override
  public CompletableFuture<?> enqueueAsync(Job job) {
    return delayed
        .offerAsync(job.payload(), delayMs(job), TimeUnit.MILLISECONDS)
        .toCompletableFuture();
  }

  /** RBatch has no RDelayedQueue, so a batch is offerAsync calls in flight together. */
  @Override
  public CompletableFuture<?> enqueueBatchAsync(List<Job> jobs) {
    CompletableFuture<?>[] pending = new CompletableFuture<?>[jobs.size()];
    for (int i = 0; i < pending.length; i++) {
      pending[i] = enqueueAsync(jobs.get(i));
    }
    return CompletableFuture.allOf(pending);
  }

  @Override
  public String batchMethod() {
    return "offerAsync_pipelined(RBatch_has_no_RDelayedQueue)";
  }

  /** {@code consumers} threads looping {@code take()} on the blocking queue. */
  /** {@code count} delayed queues, each with {@code job} offered: each runs its transfer task. */
  @Override
  public AutoCloseable idleQueues(int count, Job job) {
    List<RDelayedQueue<byte[]>> queues = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      RDelayedQueue<byte[]> q =
          client.getDelayedQueue(
              client.getBlockingQueue(IDLE_QUEUE_PREFIX + i, ByteArrayCodec.INSTANCE));
      q.offer(job.payload(), delayMs(job), TimeUnit.MILLISECONDS);
      queues.add(q);
    }
    return () -> queues.forEach(RDelayedQueue::destroy);
  }

  @Override
  public AutoCloseable consume(int consumers, Consumer<byte[]> sink) {
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < consumers; i++) {
      Thread t =
          new Thread(
              () -> {
                while (!Thread.currentThread().isInterrupted()) {
                  byte[] payload;
                  try {
                    payload = target.take();
                  } catch (InterruptedException e) {
                    return;
                  } catch (RuntimeException e) {
                    if (client.isShuttingDown() || Thread.currentThread().isInterrupted()) {
                      return;
                    }
                    throw e;
                  }
                  sink.accept(payload);
                }
              },
              "redisson-consumer-" + i);
      t.setDaemon(true);
      t.start();
      threads.add(t);
    }
    return () -> {
      threads.forEach(Thread::interrupt);
      for (Thread t : threads) {
        t.join(10_000);
      }
    };
  }

  @Override
  public String idleConsumerKind() {
    return "thread_blocked_in_take()";
  }

  @Override
  public void close() {
    delayed.destroy();
    client.shutdown(0, 5, TimeUnit.SECONDS);
  }
}
