package dev.hourglass.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ScaleWorkloadTest {
  private final ScaleWorkload scale = new ScaleWorkload();

  private static Fields system(long jobs, double ratio) {
    return new Fields()
        .put("jobs", jobs)
        .put("fill_last_over_first", 2.0)
        .put("fill_redis_ratio", ratio);
  }

  /** A baseline whose rate, bound by the client, stayed flat while Redis's time per job grew. */
  private static Fields baseline(long jobs, double redisRatio) {
    return new Fields()
        .put("jobs", jobs)
        .put("fill_last_over_first", 1.0)
        .put("fill_redis_ratio", redisRatio)
        .put("fill_redis_us_growth", 0.5);
  }

  @Test
  void aRedisTimeRatioUpToATenthBelowTheBaselinesMeetsTheTarget() {
    assertThat(scale.versusBaseline(system(1000, 0.71), baseline(1000, 0.81)).toString())
        .isEqualTo(
            "fill_ratio_baseline=0.81 fill_ratio_below_baseline=0.10 fill_ratio_target_met=true"
                + " fill_redis_us_growth_baseline=0.50");
    assertThat(scale.versusBaseline(system(1000, 0.70), baseline(1000, 0.81)).toString())
        .contains("fill_ratio_below_baseline=0.11 fill_ratio_target_met=false");
    assertThat(scale.versusBaseline(system(1000, 0.95), baseline(1000, 0.81)).toString())
        .contains("fill_ratio_below_baseline=-0.14 fill_ratio_target_met=true");
  }

  @Test
  void aFillOfAnotherSizeIsNotCompared() {
    assertThat(scale.versusBaseline(system(400, 0.5), baseline(1000, 0.9)).toString()).isEmpty();
  }

  @Test
  void onlyScaleHasABaseline() {
    for (String name : Options.WORKLOADS) {
      assertThat(Workload.named(name).hasBaseline()).as(name).isEqualTo(name.equals("scale"));
    }
  }
}
