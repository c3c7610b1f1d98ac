package dev.hourglass.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every workload at a tiny size on both systems, each on its own embedded Redis: the output lines
 * parse and every job is delivered. Keeps the harness from rotting; the figures are not checked.
 */
class BenchSmokeTest {

  @Test
  void enqueue() throws Exception {
    List<Map<String, String>> results =
        run("enqueue", "--jobs", "1000", "--warmup-jobs", "200", "--warmup-rounds", "2");
    for (String system : List.of("hourglass", "redisson")) {
      assertThat(lastOutput)
          .contains("# " + system + ": warm-up run 1 of 2, 200 jobs")
          .contains("# " + system + ": warm-up run 2 of 2, 200 jobs")
          .containsPattern("# " + system + ": warm-up run 2: jobs=200 .*single_jobs_per_s=[0-9]")
          .contains("# " + system + ": measured run, enqueue");
    }
    for (Map<String, String> r : results) {
      assertThat(Double.parseDouble(r.get("single_jobs_per_s"))).isPositive();
      assertThat(Double.parseDouble(r.get("batch_jobs_per_s"))).isPositive();
    }
  }

  @Test
  void e2e() throws Exception {
    List<Map<String, String>> results =
        run(
            "e2e",
            "--jobs",
            "1000",
            "--max-delay-ms",
            "300",
            "--warmup-jobs",
            "0",
            "--prefetch",
            "100");
    assertThat(results.get(0))
        .containsEntry("system", "hourglass")
        .containsEntry("prefetch", "100");
    for (Map<String, String> r : results) {
      assertThat(r).containsEntry("delivered", "1000").containsEntry("timed_out", "false");
      assertThat(r).containsEntry("duplicates", "0").containsEntry("foreign", "0");
      assertThat(Long.parseLong(r.get("lateness_max_ms"))).isNotNegative();
    }
  }

  @Test
  void memory() throws Exception {
    for (Map<String, String> r : run("memory", "--jobs", "2000")) {
      assertThat(Double.parseDouble(r.get("bytes_per_job"))).isPositive();
    }
  }

  @Test
  void scale() throws Exception {
    List<Map<String, String>> results =
        run(
            "scale",
            "--jobs",
            "3000",
            "--redisson-cap",
            "2000",
            "--burst-jobs",
            "500",
            "--max-delay-ms",
            "300");
    assertThat(results.get(0)).containsEntry("jobs", "3000");
    assertThat(results.get(1)).containsEntry("jobs", "2000").containsEntry("capped_from", "3000");
    for (Map<String, String> r : results) {
      assertThat(r).containsEntry("burst_delivered", "500").containsEntry("burst_foreign", "0");
      assertFill(r);
    }
    assertThat(lastBaseline).containsEntry("jobs", "3000").doesNotContainKey("burst_delivered");
    assertFill(lastBaseline);
    assertThat(lastBaseline.get("largest_key")).startsWith("baseline:{bench.0}:pool:");
    assertThat(lastBaseline.get("fill_calls_per_1000_jobs"))
        .contains("hmget:", "hset:", "llen:", "rpush:", "zadd:", "hincrby:", "time:")
        .doesNotContain("eval");
    assertThat(lastOutput).contains("# MEMORY PURGE after the baseline: ");
    assertThat(Double.parseDouble(results.get(0).get("fill_ratio_baseline")))
        .isCloseTo(Double.parseDouble(lastBaseline.get("fill_redis_ratio")), within(0.011));
    assertThat(results.get(0)).containsKey("fill_ratio_below_baseline");
    assertThat(results.get(0).get("fill_ratio_target_met")).isIn("true", "false");
    assertThat(results.get(1))
        .as("a capped fill is not compared")
        .doesNotContainKey("fill_ratio_baseline");
  }

  private static void assertFill(Map<String, String> r) {
    assertThat(r.get("fill_tenths_jobs_per_s").split("/")).hasSize(10);
    assertThat(r.get("fill_tenths_redis_us_per_job").split("/")).hasSize(10);
    assertThat(Double.parseDouble(r.get("fill_redis_us_per_job"))).isPositive();
    assertThat(Long.parseLong(r.get("largest_key_bytes"))).isPositive();
  }

  @Test
  void idle() throws Exception {
    for (Map<String, String> r : run("idle", "--seconds", "1", "--consumers", "3")) {
      assertThat(r).containsEntry("consumers", "3");
      assertThat(Double.parseDouble(r.get("commands_per_s"))).isNotNegative();
    }
  }

  /**
   * The cost workload on the three systems, the last also under callgrind: per job Redis's CPU,
   * calls, commands and instructions, the client's CPU; two RATIO lines.
   */
  @Test
  void cost() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      new Bench(
              Options.parse(
                  "cost",
                  "--jobs",
                  "600",
                  "--max-delay-ms",
                  "300",
                  "--warmup-jobs",
                  "0",
                  "--callgrind-jobs",
                  "200"),
              out)
          .run();
    }
    List<Map<String, String>> results = new ArrayList<>();
    List<Map<String, String>> ratios = new ArrayList<>();
    for (String line : bytes.toString(StandardCharsets.UTF_8).split("\n")) {
      if (line.startsWith("RESULT ")) {
        results.add(Fields.parse(line));
      } else if (line.startsWith("RATIO ")) {
        ratios.add(Fields.parse(line));
      }
    }
    assertThat(results)
        .extracting(r -> r.get("system"))
        .containsExactly("hourglass", "redisson", "redis-raw");
    for (Map<String, String> r : results) {
      assertThat(r).containsEntry("delivered", "600").containsEntry("timed_out", "false");
      assertThat(r)
          .containsEntry("callgrind_jobs", "200")
          .containsEntry("callgrind_timed_out", "false");
      for (String key :
          List.of(
              "redis_cpu_us_per_job",
              "redis_calls_per_job",
              "redis_commands_per_job",
              "client_cpu_us_per_job",
              "callgrind_redis_instructions_per_job",
              "callgrind_redis_commands_per_job")) {
        assertThat(Double.parseDouble(r.get(key))).as(key + " of " + r.get("system")).isPositive();
      }
    }
    Map<String, String> raw = results.get(2);
    assertThat(raw.get("redis_calls_per_job"))
        .as("without scripts every command is a call")
        .isEqualTo(raw.get("redis_commands_per_job"));
    assertThat(Double.parseDouble(results.get(0).get("redis_script_calls_per_job"))).isPositive();
    assertThat(ratios).hasSize(2);
    assertThat(ratios.get(0)).containsKeys("redis_cpu_x_lower", "redis_instructions_x_lower");
    assertThat(ratios.get(1))
        .containsEntry("versus", "redis-raw")
        .containsKeys("redis_cpu_x_raw", "redis_instructions_x_raw", "client_cpu_x_raw");
  }

  /** Everything the last {@link #run} printed. */
  private String lastOutput = "";

  /** The baseline's RESULT fields from the last {@link #run}, or null when it printed none. */
  private Map<String, String> lastBaseline;

  /**
   * Runs the workload on both systems; returns their RESULT fields, Hourglass first (a baseline's
   * in {@link #lastBaseline}).
   */
  private List<Map<String, String>> run(String... args) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      new Bench(Options.parse(args), out).run();
    }
    lastOutput = bytes.toString(StandardCharsets.UTF_8);
    String workload = args[0];
    List<Map<String, String>> results = new ArrayList<>();
    Map<String, String> ratio = null;
    lastBaseline = null;
    for (String line : bytes.toString(StandardCharsets.UTF_8).split("\n")) {
      if (line.startsWith("RESULT system=" + Bench.BASELINE + " ")) {
        assertThat(results).as("the baseline runs first").isEmpty();
        lastBaseline = Fields.parse(line);
      } else if (line.startsWith("RESULT ")) {
        results.add(Fields.parse(line));
      } else if (line.startsWith("RATIO ")) {
        ratio = Fields.parse(line);
      } else {
        assertThat(line).as("every other line is a comment").startsWith("#");
      }
    }
    assertThat(lastBaseline != null).isEqualTo(Workload.named(workload).hasBaseline());
    assertThat(results).hasSize(2);
    assertThat(results.get(0)).containsEntry("system", "hourglass");
    assertThat(results.get(1)).containsEntry("system", "redisson");
    results.forEach(r -> assertThat(r).containsEntry("workload", workload));
    if (lastBaseline != null) {
      assertThat(lastBaseline).containsEntry("workload", workload);
    }
    assertThat(ratio).isNotNull().containsEntry("workload", workload);
    assertThat(ratio.keySet()).anyMatch(k -> k.endsWith("_x_faster") || k.endsWith("_x_lower"));
    return results;
  }
}
