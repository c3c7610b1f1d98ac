package dev.hourglass.internal.store;

import dev.hourglass.HourglassException;
import dev.hourglass.internal.store.Replies.Enqueued;
import dev.hourglass.internal.store.Store.NewJob;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The two enqueue scripts: enqueue_fresh.lua for jobs whose ids the client made at random (no live
 * job can hold them: nothing is looked up, and each group of jobs is written by one command
 * straight from the arguments), and enqueue.lua for jobs whose ids the caller gave (each looked up
 * first, and refused as a duplicate of a live job; jobs of a priority above 0 go this way too,
 * since it reads each record, and so the priority in its flags). Both take whole records, written
 * with the {@link ServerClock} estimate; a script that finds the estimate off answers with its time
 * ({@link Status#CLOCK_SKEW}), and the call is written again from that time.
 */
final class EnqueueCalls {
  /**
   * How far behind the server's clock the estimate may be when the script runs; beyond, the call is
   * written again from the server's time. The estimate itself comes within an answer's delay of the
   * server's clock, and a script runs after the calls queued before it: this bound, longer than any
   * wait a call survives (the command timeout fails it first), only catches an estimate gone stale
   * (this host's clock stepped back, its process stood still).
   */
  static final long CLOCK_TOLERANCE_MS = 30_000;

  /**
   * Times one call is sent at most, the first included: again written from the server's time after
   * a skewed estimate, or with the dictionary the partition lacked.
   */
  private static final int MAX_ROUNDS = 3;

  private final ScriptRunner runner;
  private final ServerClock clock;
  private final Payloads payloads;

  EnqueueCalls(ScriptRunner runner, ServerClock clock, Payloads payloads) {
    this.runner = runner;
    this.clock = clock;
    this.payloads = payloads;
  }

  /**
   * Enqueues jobs of one partition whose ids are distinct; results in order. See {@link
   * Store#enqueue}.
   */
  CompletableFuture<List<Enqueued>> enqueue(
      Partition p, long slotWidthMs, List<NewJob> jobs, int replicas) {
    List<NewJob> fresh = new ArrayList<>();
    List<NewJob> given = new ArrayList<>();
    for (NewJob j : jobs) {
      // enqueue_fresh.lua places jobs of priority 0 only: it leaves each record unread
      (j.fresh() && RecordCodec.priorityOf(j.flags()) == 0 ? fresh : given).add(j);
    }
    CompletableFuture<List<Enqueued>> f =
        fresh.isEmpty()
            ? CompletableFuture.completedFuture(List.of())
            : send(p, slotWidthMs, fresh, replicas, true, 0);
    CompletableFuture<List<Enqueued>> g =
        given.isEmpty()
            ? CompletableFuture.completedFuture(List.of())
            : send(p, slotWidthMs, given, replicas, false, 0);
    return f.thenCombine(
        g,
        (fr, gr) -> {
          Map<String, Enqueued> byId = new HashMap<>();
          fr.forEach(e -> byId.put(e.id(), e));
          gr.forEach(e -> byId.put(e.id(), e));
          List<Enqueued> out = new ArrayList<>(jobs.size());
          jobs.forEach(j -> out.add(byId.get(j.id())));
          return out;
        });
  }

  private CompletableFuture<List<Enqueued>> send(
      Partition p, long slotWidthMs, List<NewJob> jobs, int replicas, boolean fresh, int round) {
    Written w = write(clock.forPartition(p), jobs);
    Store.Call call = fresh ? freshCall(p, slotWidthMs, w) : givenCall(p, slotWidthMs, w);
    ZstdDictionary dictionary = dictionaryOf(jobs);
    if (dictionary == null) {
      call.argv().add("").add("");
    } else {
      call.argv().add(dictionary.id()).add(payloads.installing(p, dictionary));
    }
    return runner
        .run(fresh ? Script.ENQUEUE_FRESH : Script.ENQUEUE, call.keys(), call.argv(), replicas)
        .thenCompose(
            reply -> {
              long now = Reply.num(reply.get(1));
              Status status = Reply.status(reply);
              if (status == Status.CLOCK_SKEW || status == Status.NEED_DICTIONARY) {
                if (status == Status.CLOCK_SKEW) {
                  clock.forPartition(p).reset(now);
                  clock.reset(now); // the client's estimate too: it may have run ahead with it
                } else {
                  payloads.uninstalled(p, dictionary); // sent with the call again
                }
                if (round + 1 >= MAX_ROUNDS) {
                  return CompletableFuture.failedFuture(
                      new HourglassException(
                          status + " in " + MAX_ROUNDS + " enqueues in a row on " + p));
                }
                return send(p, slotWidthMs, jobs, replicas, fresh, round + 1);
              }
              clock.observe(p, now);
              if (dictionary != null) {
                payloads.installed(p, dictionary);
              }
              return CompletableFuture.completedFuture(results(w, call.order(), reply, now));
            });
  }

  /** The dictionary the jobs' payloads were compressed with: a client uses one per queue. */
  private static ZstdDictionary dictionaryOf(List<NewJob> jobs) {
    ZstdDictionary d = null;
    for (NewJob j : jobs) {
      if (j.dictionary() != null) {
        if (d != null && d.id() != j.dictionary().id()) {
          throw new IllegalStateException("one enqueue with two zstd dictionaries");
        }
        d = j.dictionary();
      }
    }
    return d;
  }

  /** Jobs with their records written whole, and the estimate they were written with. */
  private record Written(List<NewJob> jobs, long[] due, byte[][] records, long estimate) {
    /** The estimate the script checks: 0 when no record depends on it beyond its created time. */
    long checked() {
      for (NewJob j : jobs) {
        if (j.relative() || j.ttlMs() > 0) {
          return estimate;
        }
      }
      return 0;
    }

    long expire(int i) {
      return expireAt(jobs.get(i), estimate);
    }
  }

  /** A new job's expiry written at {@code estimate}: 0 without a ttl. */
  private static long expireAt(NewJob j, long estimate) {
    return j.ttlMs() > 0 ? estimate + j.ttlMs() : 0;
  }

  private static Written write(ServerClock clock, List<NewJob> jobs) {
    long estimate = clock.nowMs();
    long[] due = new long[jobs.size()];
    byte[][] records = new byte[jobs.size()][];
    for (int i = 0; i < jobs.size(); i++) {
      NewJob j = jobs.get(i);
      due[i] = j.relative() ? estimate + j.time() : j.time();
      records[i] =
          RecordCodec.write(
              due[i],
              estimate,
              expireAt(j, estimate),
              j.flags(),
              j.maxAttempts(),
              j.visibilityMs(),
              RecordCodec.backoffBytes(j.backoff()),
              j.payload());
    }
    return new Written(jobs, due, records, estimate);
  }

  /** The jobs grouped by pool, in the order pools first appear: per pool, indexes into jobs. */
  private static Map<Integer, List<Integer>> byPool(Partition p, List<NewJob> jobs) {
    Map<Integer, List<Integer>> groups = new LinkedHashMap<>();
    for (int i = 0; i < jobs.size(); i++) {
      groups
          .computeIfAbsent(Keys.poolIndex(jobs.get(i).id(), p.pools()), k -> new ArrayList<>())
          .add(i);
    }
    return groups;
  }

  /** enqueue_fresh.lua's call: sections by target key, see the script. */
  private Store.Call freshCall(Partition p, long slotWidthMs, Written w) {
    List<NewJob> jobs = w.jobs();
    Map<Integer, List<Integer>> groups = byPool(p, jobs);
    List<Integer> near = new ArrayList<>();
    List<Integer> ttl = new ArrayList<>();
    Map<Long, List<Integer>> slots = new LinkedHashMap<>();
    long nearMin = Long.MAX_VALUE;
    for (int i = 0; i < jobs.size(); i++) {
      long start = slotOf(jobs.get(i), w.due()[i], w.estimate(), slotWidthMs);
      if (start >= 0) {
        slots.computeIfAbsent(start, k -> new ArrayList<>()).add(i);
      } else {
        near.add(i);
        nearMin = Math.min(nearMin, w.due()[i]);
      }
      if (jobs.get(i).ttlMs() > 0) {
        ttl.add(i);
      }
    }
    Args keys = p.fixedKeys();
    // Per job its member and record, its member again and its due time (near or a slot list).
    Args argv =
        p.argv(12 + 2 * groups.size() + 2 * slots.size() + 4 * jobs.size() + 2 * ttl.size())
            .add(w.checked())
            .add(CLOCK_TOLERANCE_MS)
            .add(slotWidthMs)
            .add(groups.size())
            .add(near.size())
            .add(ttl.size())
            .add(slots.size())
            .add(near.isEmpty() ? 0 : nearMin);
    groups.forEach(
        (pool, list) -> {
          keys.add(p.poolKeyBytes(pool));
          argv.add(list.size());
        });
    slots.forEach(
        (start, list) -> {
          keys.add(p.slot(start));
          argv.add(start).add(list.size());
        });
    byte[][] members = new byte[jobs.size()][];
    int[] order = new int[jobs.size()];
    int sent = 0;
    for (List<Integer> list : groups.values()) {
      for (int i : list) {
        members[i] = p.memberBytes(jobs.get(i).id());
        argv.add(members[i]).add(w.records()[i]);
        order[sent++] = i;
      }
    }
    for (int i : near) {
      argv.add(w.due()[i]).add(members[i]);
    }
    for (int i : ttl) {
      argv.add(w.expire(i)).add(members[i]);
    }
    for (List<Integer> list : slots.values()) {
      for (int i : list) {
        argv.add(members[i]);
      }
      for (int i : list) {
        argv.add(w.due()[i]);
      }
    }
    return new Store.Call(keys, argv, order);
  }

  /** enqueue.lua's call: per pool group, see the script. */
  private Store.Call givenCall(Partition p, long slotWidthMs, Written w) {
    List<NewJob> jobs = w.jobs();
    Map<Integer, List<Integer>> groups = byPool(p, jobs);
    Set<Long> starts = new LinkedHashSet<>();
    for (int i = 0; i < jobs.size(); i++) {
      long start = slotOf(jobs.get(i), w.due()[i], w.estimate(), slotWidthMs);
      if (start >= 0) {
        starts.add(start);
      }
    }
    Args keys = p.fixedKeys();
    Args argv =
        p.argv(10 + groups.size() + starts.size() + jobs.size())
            .add(w.checked())
            .add(CLOCK_TOLERANCE_MS)
            .add(groups.size());
    int[] order = new int[jobs.size()];
    int sent = 0;
    for (Map.Entry<Integer, List<Integer>> g : groups.entrySet()) {
      keys.add(p.poolKeyBytes(g.getKey()));
      argv.add(g.getValue().size());
      for (int i : g.getValue()) {
        order[sent++] = i;
      }
    }
    argv.add(slotWidthMs).add(starts.size());
    for (long start : starts) {
      keys.add(p.slot(start));
      argv.add(start);
    }
    Blob members = new Blob(jobs.size() * 24);
    Blob times = new Blob(jobs.size() * 27);
    for (int i : order) {
      members.shortText(p.member(jobs.get(i).id()));
      times.i48(w.due()[i]).i48(w.expire(i)).shortText(Long.toString(w.due()[i]));
    }
    argv.add(members.toBytes()).add(times.toBytes());
    for (int i : order) {
      argv.add(w.records()[i]);
    }
    return new Store.Call(keys, argv, order);
  }

  /**
   * The slot list a job is expected in: the start of the slot of its due time when that is a slot
   * width or more ahead of the estimated now, else -1 (near).
   */
  private static long slotOf(NewJob j, long due, long estimate, long slotWidthMs) {
    return due >= estimate + slotWidthMs ? Keys.slotStart(due, slotWidthMs) : -1;
  }

  /** Each job's result: created, ready or delayed by the server's now, or a duplicate. */
  private static List<Enqueued> results(Written w, int[] order, List<Object> reply, long now) {
    List<NewJob> jobs = w.jobs();
    Enqueued[] out = new Enqueued[jobs.size()];
    for (int i = 0; i < out.length; i++) {
      long due = w.due()[i];
      out[i] = new Enqueued(jobs.get(i).id(), Status.OK, due <= now ? "ready" : "delayed", due);
    }
    for (int r = 2; r + 2 < reply.size(); r += 3) {
      int i = order[(int) Reply.num(reply.get(r)) - 1];
      out[i] =
          new Enqueued(
              jobs.get(i).id(),
              Status.DUPLICATE,
              Reply.str(reply.get(r + 1)),
              Reply.num(reply.get(r + 2)));
    }
    return List.of(out);
  }
}
