package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.hourglass.testing.OrderDocuments;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Compressed payloads, read from Redis as stored: a payload of at least the threshold is stored as
 * a zstd frame (flags bit 0 of its record) when that is smaller, with the queue's dictionary once a
 * producer trained and published one; every reader gets the payload back as enqueued, a client that
 * never saw the dictionary included; a partition that lost its dictionary gets it back with the
 * next enqueue; a client on the pure-Java zstd compresses without a dictionary and says why it
 * cannot read a payload compressed with one.
 */
class CompressionTest extends HourglassTestBase {
  private static final String META = "hg:{orders.0}:meta";

  private RedisClient raw;
  private RedisCommands<byte[], byte[]> redisRaw;

  @BeforeEach
  void connectRaw() {
    raw = RedisClient.create(redis.uri());
    StatefulRedisConnection<byte[], byte[]> c = raw.connect(ByteArrayCodec.INSTANCE);
    redisRaw = c.sync();
  }

  @AfterEach
  void closeRaw() {
    raw.shutdown();
  }

  @Test
  void orderDocumentsAreStoredCompressedWithTheQueuesDictionaryAndReadBackAsEnqueued() {
    Hourglass h = manual();
    Queue<byte[]> q = h.queue("orders");
    OrderDocuments docs = new OrderDocuments(1);
    Map<String, byte[]> sent = new LinkedHashMap<>();
    await("a producer trains and publishes the queue's dictionary")
        .atMost(RedisProbe.LIVENESS)
        .pollInterval(Duration.ofMillis(1))
        .until(
            () -> {
              enqueue(q, sent, docs.next());
              return redisRaw.hget(bytes(META), bytes("zc")) != null;
            });
    long dictionary = Long.parseLong(str(redisRaw.hget(bytes(META), bytes("zc"))));
    assertThat(redisRaw.hget(bytes(META), bytes("z" + dictionary))).hasSizeGreaterThan(1024);
    await("the producer compresses with it")
        .atMost(RedisProbe.LIVENESS)
        .pollInterval(Duration.ofMillis(1))
        .until(() -> frameDictionary(stored(enqueue(q, sent, docs.next()))) == dictionary);
    List<String> withDictionary = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      withDictionary.add(enqueue(q, sent, docs.next()));
    }

    long plain = 0;
    long compressed = 0;
    for (String id : sent.keySet()) {
      byte[] rec = stored(id);
      assertThat(rec[18] & 1).as("flags of %s", id).isEqualTo(1);
      if (withDictionary.contains(id)) {
        assertThat(frameDictionary(rec)).isEqualTo(dictionary);
        plain += sent.get(id).length;
        compressed += rec.length - 30; // the header, the backoff's and the error's lengths
      }
    }
    assertThat((double) compressed / plain).as("stored size over payload size").isLessThan(0.3);

    Hourglass fresh = manual(); // has never seen the dictionary
    for (Hourglass reader : List.of(h, fresh)) {
      for (Map.Entry<String, byte[]> e : sent.entrySet()) {
        assertThat(reader.queue("orders").get(e.getKey()).orElseThrow().payload().bytes())
            .isEqualTo(e.getValue());
      }
    }
    Map<String, byte[]> claimed = new HashMap<>();
    Queue<byte[]> other = fresh.queue("orders");
    await("every job is claimed")
        .atMost(RedisProbe.LIVENESS)
        .until(
            () -> {
              for (Delivery<byte[]> d : other.claim(100, Duration.ofMinutes(5))) {
                claimed.put(d.id(), d.payload().bytes());
                other.ack(d);
              }
              return claimed.size() == sent.size();
            });
    assertThat(claimed).containsOnlyKeys(sent.keySet());
    sent.forEach((id, payload) -> assertThat(claimed.get(id)).isEqualTo(payload));
  }

  @Test
  void smallAndIncompressiblePayloadsAreStoredAsGiven() {
    Queue<byte[]> q = manual().queue("orders");
    Map<String, byte[]> sent = new LinkedHashMap<>();
    byte[] small = new byte[QueueSettings.DEFAULT_COMPRESS_ABOVE - 1]; // all zeros: compressible
    byte[] noise = new byte[4096];
    new Random(7).nextBytes(noise);
    String smallId = enqueue(q, sent, small);
    String noiseId = enqueue(q, sent, noise);
    String zerosId = enqueue(q, sent, new byte[QueueSettings.DEFAULT_COMPRESS_ABOVE]);

    assertThat(stored(smallId)[18] & 1).isZero();
    assertThat(stored(noiseId)[18] & 1).isZero();
    assertThat(stored(zerosId)[18] & 1).isEqualTo(1);
    sent.forEach((id, p) -> assertThat(q.get(id).orElseThrow().payload().bytes()).isEqualTo(p));
  }

  @Test
  void aQueuesThresholdOverridesTheClients() {
    Hourglass never = client(b -> b.backgroundPromoter(false).compressAbove(0));
    Queue<byte[]> orders =
        never.configureQueue("orders", QueueSettings.builder().compressAbove(64).build());
    Queue<byte[]> plain = never.queue("plain");
    Hourglass usual = manual();
    Queue<byte[]> off =
        usual.configureQueue("off", QueueSettings.builder().compressAbove(0).build());
    byte[] doc = new OrderDocuments(2).next();
    Map<String, byte[]> sent = new HashMap<>();

    assertThat(stored(enqueue(orders, sent, doc))[18] & 1).isEqualTo(1);
    assertThat(storedIn("plain", enqueue(plain, sent, doc))[18] & 1).isZero();
    assertThat(storedIn("off", enqueue(off, sent, doc))[18] & 1).isZero();
    assertThat(usual.queue("orders").settings().compressAbove()).hasValue(64);
    assertThatThrownBy(() -> QueueSettings.builder().compressAbove(-1).build())
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("compressAbove");
    assertThatThrownBy(() -> Hourglass.builder().compressAbove(-1).build())
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("compressAbove");
  }

  @Test
  void aPartitionThatLostTheDictionaryGetsItBackWithTheNextEnqueue() {
    Queue<byte[]> q = manual().queue("orders");
    OrderDocuments docs = new OrderDocuments(3);
    Map<String, byte[]> sent = new LinkedHashMap<>();
    await()
        .atMost(RedisProbe.LIVENESS)
        .pollInterval(Duration.ofMillis(1))
        .until(() -> frameDictionary(stored(enqueue(q, sent, docs.next()))) != 0);
    String zc = str(redisRaw.hget(bytes(META), bytes("zc")));
    redisRaw.hdel(bytes(META), bytes("z" + zc)); // as a failover that lost it would

    String id = enqueue(q, sent, docs.next());

    assertThat(frameDictionary(stored(id))).isEqualTo(Long.parseLong(zc));
    assertThat(redisRaw.hexists(bytes(META), bytes("z" + zc))).isTrue();
    assertThat(manual().queue("orders").get(id).orElseThrow().payload().bytes())
        .isEqualTo(sent.get(id));
  }

  @Test
  void aPureJavaClientCompressesWithoutADictionaryAndSaysWhyItCannotReadOneMadeWithIt() {
    Hourglass nativeClient = manual();
    Queue<byte[]> q = nativeClient.queue("orders");
    OrderDocuments docs = new OrderDocuments(4);
    Map<String, byte[]> sent = new LinkedHashMap<>();
    await()
        .atMost(RedisProbe.LIVENESS)
        .pollInterval(Duration.ofMillis(1))
        .until(() -> frameDictionary(stored(enqueue(q, sent, docs.next()))) != 0);
    String withDictionary = new ArrayList<>(sent.keySet()).get(sent.size() - 1);
    Hourglass java;
    System.setProperty("hourglass.zstd", "java");
    try {
      java = manual();
    } finally {
      System.clearProperty("hourglass.zstd");
    }
    Queue<byte[]> viaJava = java.queue("orders");

    byte[] doc = docs.next();
    String byJava = viaJava.enqueue(JobSpec.builder().id("java-1").payload(doc).build()).id();

    byte[] rec = stored(byJava);
    assertThat(rec[18] & 1).isEqualTo(1);
    assertThat(frameDictionary(rec)).isZero();
    assertThat(q.get(byJava).orElseThrow().payload().bytes()).isEqualTo(doc);
    assertThat(viaJava.get(byJava).orElseThrow().payload().bytes()).isEqualTo(doc);
    Payload<byte[]> unreadable = viaJava.get(withDictionary).orElseThrow().payload();
    assertThat(unreadable.readable()).isFalse();
    assertThatThrownBy(unreadable::value)
        .isInstanceOf(PayloadUnreadableException.class)
        .hasMessageContaining("zstd-jni");
    assertThat(unreadable.asString()).startsWith("[unreadable payload: ");
  }

  /** Enqueues with an id of its own and with one the client makes, by turns (both scripts). */
  private static String enqueue(Queue<byte[]> q, Map<String, byte[]> sent, byte[] payload) {
    JobSpec.Builder spec = JobSpec.builder().payload(payload);
    if (sent.size() % 2 == 0) {
      spec.id(q.name() + "-" + sent.size());
    }
    String id = q.enqueue(spec.build()).id();
    sent.put(id, payload);
    return id;
  }

  private byte[] stored(String id) {
    return storedIn("orders", id);
  }

  /** The job's record as Redis holds it (a queue of one partition and the default pools). */
  private byte[] storedIn(String queue, String id) {
    for (int pool = 0; pool < QueueSettings.DEFAULT_POOLS; pool++) {
      byte[] rec =
          redisRaw.hget(bytes("hg:{" + queue + ".0}:pool:" + pool), bytes(id + (char) pool));
      if (rec != null) {
        return rec;
      }
    }
    throw new AssertionError("no record of " + id);
  }

  /** The dictionary id the record's zstd frame names (0: none). */
  private static long frameDictionary(byte[] rec) {
    int at = 27 + 1 + (rec[27] & 0xff); // header, backoff
    at += 2 + ((rec[at] & 0xff) | (rec[at + 1] & 0xff) << 8); // last error
    int descriptor = rec[at + 4] & 0xff;
    int from = at + 5 + ((descriptor & 0x20) != 0 ? 0 : 1);
    int n = new int[] {0, 1, 2, 4}[descriptor & 3];
    long id = 0;
    for (int i = n - 1; i >= 0; i--) {
      id = (id << 8) | (rec[from + i] & 0xff);
    }
    return id;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String str(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }
}
