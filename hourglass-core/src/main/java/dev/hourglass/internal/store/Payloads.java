package dev.hourglass.internal.store;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Compressed payloads: a record flagged {@link RecordCodec#COMPRESSED} holds its payload as a zstd
 * frame, which may name a dictionary. A dictionary lives in field {@code z<id>} of the meta hash of
 * every partition that holds a payload compressed with it, on the same Redis node as those payloads
 * (an enqueue of such payloads into a partition without it is refused, {@link
 * Status#NEED_DICTIONARY}, and sent again with the dictionary); field {@code zc} of partition 0's
 * meta names the queue's current dictionary, the one its producers compress with (dictionary.lua).
 * Reads open payloads here, with the dictionaries they name read once per partition and kept.
 */
public final class Payloads {
  private static final CompletableFuture<Void> READY = CompletableFuture.completedFuture(null);

  private final ScriptRunner runner;
  private final Zstd zstd;

  /** Dictionaries read or made, by partition (meta key) and id. */
  private final ConcurrentMap<String, ZstdDictionary> known = new ConcurrentHashMap<>();

  /** Dictionaries by id, so that partitions holding the same one share one prepared copy. */
  private final ConcurrentMap<Long, ZstdDictionary> byId = new ConcurrentHashMap<>();

  /** Partitions this client wrote a dictionary to (meta key and id), or saw holding it. */
  private final Set<String> installed = ConcurrentHashMap.newKeySet();

  Payloads(ScriptRunner runner, Zstd zstd) {
    this.runner = runner;
    this.zstd = zstd;
  }

  Zstd zstd() {
    return zstd;
  }

  // ---- reading ----

  /**
   * Completes once the dictionaries that the compressed payloads among {@code records} (of
   * partition {@code p}; null entries skipped) name are at hand, read from the partition if need
   * be: then {@link #decode} opens them without blocking. Completes at once when none is missing.
   * Fails when the read fails (a claim's jobs then come back by their lease).
   */
  public CompletableFuture<Void> ready(Partition p, List<byte[]> records) {
    return ready(p, records, false);
  }

  /** {@link #ready(Partition, List)}, reading on the delivery connection when {@code delivery}. */
  CompletableFuture<Void> ready(Partition p, List<byte[]> records, boolean delivery) {
    if (!zstd.dictionaries()) {
      return READY; // a frame that names one is reported unreadable
    }
    List<Long> missing = null;
    for (byte[] rec : records) {
      if (rec == null || (RecordCodec.flags(rec) & RecordCodec.COMPRESSED) == 0) {
        continue;
      }
      long id;
      try {
        id = Zstd.frame(rec, RecordCodec.payloadOffset(rec)).dictionaryId();
      } catch (RuntimeException e) {
        continue; // decode says so
      }
      if (id != 0 && !known.containsKey(key(p, id))) {
        if (missing == null) {
          missing = new ArrayList<>();
        }
        if (!missing.contains(id)) {
          missing.add(id);
        }
      }
    }
    return missing == null ? READY : fetch(p, missing, delivery);
  }

  /** One record of partition {@code p}, decoded once its dictionary is at hand ({@link #ready}). */
  CompletableFuture<RecordCodec.Decoded> open(Partition p, byte[] record) {
    return ready(p, Arrays.asList(record)).thenApply(v -> decode(p, record));
  }

  /** Reads dictionaries {@code ids} from partition {@code p}'s meta and remembers those found. */
  private CompletableFuture<Void> fetch(Partition p, List<Long> ids, boolean delivery) {
    byte[][] fields = new byte[ids.size()][];
    for (int i = 0; i < fields.length; i++) {
      fields[i] = bytes(ZstdDictionary.field(ids.get(i)));
    }
    return runner
        .<List<io.lettuce.core.KeyValue<byte[], byte[]>>>command(
            delivery, c -> c.hmget(bytes(p.meta()), fields))
        .thenAccept(
            values -> {
              for (var v : values) {
                if (v.hasValue()) {
                  remember(p, new ZstdDictionary(v.getValue()));
                }
              }
            });
  }

  /**
   * A record of partition {@code p}, its payload opened when it was stored compressed; call {@link
   * #ready} first. A payload that cannot be opened (its dictionary gone, a frame this process
   * cannot read) is kept as stored, with the reason ({@link RecordCodec.Decoded#unreadable}).
   */
  public RecordCodec.Decoded decode(Partition p, byte[] record) {
    RecordCodec.Decoded d = RecordCodec.decode(record);
    if ((d.flags() & RecordCodec.COMPRESSED) == 0) {
      return d;
    }
    try {
      Zstd.Frame f = Zstd.frame(d.payload(), 0);
      ZstdDictionary dictionary = null;
      if (f.dictionaryId() != 0) {
        if (!zstd.dictionaries()) {
          return d.withPayload(
              d.payload(),
              "the payload was compressed with zstd dictionary "
                  + f.dictionaryId()
                  + ", which needs zstd-jni's native library, and this process uses "
                  + zstd.describe());
        }
        dictionary = known.get(key(p, f.dictionaryId()));
        if (dictionary == null) {
          return d.withPayload(
              d.payload(),
              "the payload's zstd dictionary " + f.dictionaryId() + " is not in " + p.meta());
        }
      }
      return d.withPayload(zstd.decompress(d.payload(), f.contentSize(), dictionary), null);
    } catch (RuntimeException e) { // a damaged frame: IllegalArgumentException, or worse
      return d.withPayload(d.payload(), "the compressed payload is damaged: " + e);
    }
  }

  // ---- writing ----

  /**
   * The payload as an enqueue stores it: compressed with {@code dictionary} (null: none) when that
   * makes it smaller, else null.
   */
  byte[] compress(byte[] payload, ZstdDictionary dictionary) {
    byte[] z = zstd.compress(payload, dictionary);
    return z.length < payload.length ? z : null;
  }

  /** The argument that installs {@code d} in partition {@code p}: empty once it holds it. */
  byte[] installing(Partition p, ZstdDictionary d) {
    return installed.contains(key(p, d.id())) ? new byte[0] : d.bytes();
  }

  /** Partition {@code p} holds {@code d} now. */
  void installed(Partition p, ZstdDictionary d) {
    installed.add(key(p, d.id()));
    remember(p, d);
  }

  /** Partition {@code p} turned out not to hold {@code d} (deleted, or lost with a failover). */
  void uninstalled(Partition p, ZstdDictionary d) {
    installed.remove(key(p, d.id()));
  }

  /** The queue's current dictionary, read from its partition 0; null when it has none. */
  CompletableFuture<ZstdDictionary> current(Partition first) {
    return runner
        .<byte[]>command(false, c -> c.hget(bytes(first.meta()), bytes(CURRENT)))
        .thenCompose(
            id -> {
              if (id == null) {
                return CompletableFuture.completedFuture(null);
              }
              long n = Long.parseLong(new String(id, StandardCharsets.US_ASCII));
              return fetch(first, List.of(n), false)
                  .thenApply(
                      v -> {
                        ZstdDictionary d = known.get(key(first, n));
                        if (d != null) {
                          installed.add(key(first, n));
                        }
                        return d;
                      });
            });
  }

  /**
   * Makes {@code d} the queue's current dictionary unless it has one already (dictionary.lua on
   * partition 0): the queue's current dictionary after the call.
   */
  CompletableFuture<ZstdDictionary> publish(Partition first, ZstdDictionary d) {
    return runner
        .run(
            Script.DICTIONARY,
            first.fixedKeys(),
            first.argv().add(Long.toString(d.id())).add(d.bytes()))
        .thenApply(
            reply -> {
              ZstdDictionary current =
                  Reply.num(reply.get(1)) == d.id()
                      ? d
                      : new ZstdDictionary(Reply.bytes(reply.get(2)));
              installed(first, current);
              return current;
            });
  }

  /** The field of partition 0's meta hash that names the queue's current dictionary. */
  static final String CURRENT = "zc";

  private void remember(Partition p, ZstdDictionary d) {
    ZstdDictionary shared = byId.merge(d.id(), d, (old, now) -> same(old, now) ? old : now);
    known.put(key(p, d.id()), same(shared, d) ? shared : d);
  }

  private static boolean same(ZstdDictionary a, ZstdDictionary b) {
    return a == b || Arrays.equals(a.bytes(), b.bytes());
  }

  private static String key(Partition p, long id) {
    return p.meta() + "/" + id;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
