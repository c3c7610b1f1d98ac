package dev.hourglass.bench;

import java.util.Base64;
import java.util.List;

/**
 * The server's single-enqueue rate, {@code POST /v1/queues/{queue}/jobs} with one job per request,
 * driven by the {@code wrk} load tool on {@code --connections} keep-alive connections for {@code
 * --seconds}, beside the library's single {@code enqueueAsync} rate in the same run. Both on the
 * same Redis; jobs due in 30 minutes, as in the enqueue workload. The server runs in this JVM
 * ({@code hourglass-http}), which does nothing else meanwhile, so this JVM's CPU time over the run
 * is the server's: with Redis's (INFO cpu) it gives the CPU each request costs, a figure that
 * depends less on what else the machine runs than the rate does.
 */
final class HttpEnqueueWorkload implements Workload {
  private static final int DEFAULT_JOBS = 100_000;
  private static final long DELAY_MS = 30 * 60_000L;
  static final int DEFAULT_CONNECTIONS = 64;
  static final int DEFAULT_SECONDS = 20;

  @Override
  public String name() {
    return "http-enqueue";
  }

  /** The library's warm-up; the server's is a whole wrk run per round. */
  @Override
  public int warmupJobs(Options o) {
    return o.warmupJobs(o.jobs(DEFAULT_JOBS), 100_000);
  }

  /**
   * Four: on two busy cores the server's CPU per request fell from round to round through the
   * fourth (about 750, 470, 230, 160 µs), the JIT still compiling Jetty's and Javalin's paths.
   */
  @Override
  public int warmupRounds(Options o) {
    return o.warmupRounds(4);
  }

  @Override
  public Fields run(SystemUnderTest sut, RedisTarget redis, Options o) throws Exception {
    return sut instanceof HttpSystem http ? overHttp(http, redis, o) : library(sut, redis, o);
  }

  private static Fields overHttp(HttpSystem http, RedisTarget redis, Options o) throws Exception {
    byte[] payload = o.payloads().job(0, 0).payload();
    String body =
        "{\"payload\":\""
            + Base64.getEncoder().encodeToString(payload)
            + "\",\"delayMs\":"
            + DELAY_MS
            + "}";
    int connections = o.connections(DEFAULT_CONNECTIONS);
    int seconds = o.seconds(DEFAULT_SECONDS);
    Cpu cpu = Cpu.start(redis);
    Wrk.Report r = Wrk.post(http.jobsUrl(), body, connections, seconds);
    Fields f =
        new Fields()
            .put("connections", connections)
            .put("seconds", seconds)
            .put("body_bytes", body.length())
            .put("requests", r.requests())
            .rate("requests_per_s", r.requestsPerSecond())
            .put("latency_p50_ms", r.p50Ms())
            .put("latency_p75_ms", r.p75Ms())
            .put("latency_p90_ms", r.p90Ms())
            .put("latency_p99_ms", r.p99Ms())
            .put("non_2xx", r.non2xx())
            .put("socket_errors", r.socketErrors());
    f.putAll("", cpu.perUnit("server", "request", r.requests()));
    if (r.non2xx() > 0) {
      throw new IllegalStateException("the server refused requests: " + f);
    }
    return f;
  }

  private static Fields library(SystemUnderTest sut, RedisTarget redis, Options o)
      throws Exception {
    int jobs = o.jobs(DEFAULT_JOBS);
    int window = o.connections(DEFAULT_CONNECTIONS);
    Payloads payloads = o.payloads();
    long due = System.currentTimeMillis() + DELAY_MS;
    Cpu cpu = Cpu.start(redis);
    long start = System.nanoTime();
    Producer.singles(sut, jobs, window, i -> payloads.job(due, i));
    double rate = jobs / ((System.nanoTime() - start) / 1e9);
    Fields f = new Fields().put("jobs", jobs).put("window", window).rate("single_jobs_per_s", rate);
    f.putAll("", cpu.perUnit("client", "job", jobs));
    return f;
  }

  /**
   * CPU used by this JVM and by Redis, and memory allocated by this JVM's threads, from start on.
   */
  private record Cpu(RedisTarget redis, JvmCost jvm, double redisSeconds) {
    static Cpu start(RedisTarget redis) {
      return new Cpu(redis, JvmCost.now(), redis.cpuSeconds());
    }

    /**
     * {@code <who>_cpu_us_per_<unit>} (this JVM), {@code redis_cpu_us_per_<unit>} and {@code
     * <who>_alloc_kb_per_<unit>} (this JVM).
     */
    Fields perUnit(String who, String unit, long count) {
      JvmCost spent = jvm.since();
      double redisUs = (redis.cpuSeconds() - redisSeconds) * 1e6;
      return new Fields()
          .put(who + "_cpu_us_per_" + unit, round1(spent.cpuMicros() / count))
          .put("redis_cpu_us_per_" + unit, round1(redisUs / count))
          .put(who + "_alloc_kb_per_" + unit, round1(spent.allocatedKb() / count));
    }

    private static double round1(double v) {
      return Math.round(v * 10) / 10.0;
    }
  }

  @Override
  public List<String> ratioSystems() {
    return Options.HTTP_ENQUEUE_SYSTEMS;
  }

  @Override
  public Fields ratio(Fields http, Fields library) {
    return new Fields()
        .ratio("library_x_faster", library.num("single_jobs_per_s"), http.num("requests_per_s"));
  }
}
