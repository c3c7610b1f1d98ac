package dev.hourglass.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.bench.SoakFaults.Fault;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SoakVerdictTest {
  private static String[] r(String... fields) {
    return fields;
  }

  private static Map<String, Object> verdict(List<Fault> faults, String[]... records) {
    return new SoakVerdict(List.of(records), faults).figures();
  }

  @Test
  void aCleanLedgerPasses() {
    Map<String, Object> v =
        verdict(
            List.of(),
            r("E", "a", "1000", "900"),
            r("D", "a", "1010", "1", "c0"),
            r("E", "b", "2000", "900"),
            r("C", "b", "1500", "true"),
            r("U", "c", "3000"));
    assertThat(v).containsEntry("lost", 0L).containsEntry("early", 0L);
    assertThat(v).containsEntry("cancelled", 1L).containsEntry("unknown_or_failed_enqueues", 1L);
    assertThat(v).containsEntry("lateness_max_ms", 10L);
    assertThat(SoakVerdict.passed(v)).isTrue();
  }

  @Test
  void anAcknowledgedJobNeverDeliveredIsLostButAnUnknownOneIsNot() {
    Map<String, Object> v =
        verdict(List.of(), r("E", "a", "1000", "900"), r("U", "b", "1000"), r("CU", "c"));
    assertThat(v).containsEntry("lost", 1L).containsEntry("examples", "lost:a");
    assertThat(SoakVerdict.passed(v)).isFalse();
  }

  @Test
  void aDeliveryBeforeItsDueTimeIsEarly() {
    Map<String, Object> v =
        verdict(List.of(), r("E", "a", "1000", "900"), r("D", "a", "999", "1", "c0"));
    assertThat(v).containsEntry("early", 1L);
    assertThat(SoakVerdict.passed(v)).isFalse();
  }

  @Test
  void aDeliveryAfterAnAcknowledgedCancelIsABug() {
    Map<String, Object> v =
        verdict(
            List.of(),
            r("E", "a", "5000", "900"),
            r("C", "a", "2000", "true"),
            r("D", "a", "5001", "1", "c0"));
    assertThat(v).containsEntry("delivered_cancelled", 1L);
    assertThat(SoakVerdict.passed(v)).isFalse();
  }

  @Test
  void aDuplicateCountsAsNearAFaultOnlyWithinTheVisibilityWindowAfterIt() {
    long tail = SoakVerdict.WINDOW_TAIL_MS;
    List<Fault> faults = List.of(new Fault("consumer-kill", "c0", 10_000, 11_000));
    Map<String, Object> v =
        verdict(
            faults,
            r("E", "a", "9000", "900"),
            r("D", "a", "9990", "1", "c0"),
            r("D", "a", Long.toString(11_000 + tail), "2", "c1"),
            r("E", "b", "9000", "900"),
            r("D", "b", "9990", "1", "c0"),
            r("D", "b", Long.toString(11_001 + tail), "2", "c1"));
    assertThat(v).containsEntry("duplicates", 2L).containsEntry("duplicates_near_fault", 1L);
    // Both first deliveries came before the fault, so their lateness counts.
    assertThat(v).containsEntry("lateness_samples_outside_faults", 2L);
    assertThat(SoakVerdict.passed(v)).isTrue();
  }

  @Test
  void latenessLeavesOutDeliveriesWhoseWaitSpannedAFault() {
    List<Fault> faults = List.of(new Fault("redis-kill", "redis", 10_000, 11_000));
    Map<String, Object> v =
        verdict(
            faults,
            r("E", "a", "9000", "900"),
            r("D", "a", "12000", "1", "c0"),
            r("E", "b", "30000", "900"),
            r("D", "b", "30005", "1", "c0"));
    assertThat(v).containsEntry("lateness_samples_outside_faults", 1L);
    assertThat(v).containsEntry("lateness_max_ms", 5L);
    assertThat(v).containsEntry("lateness_all_max_ms", 3000L);
  }

  @Test
  void countsEachKindOfTheTopologyAndAProxyFaultOpensAWindow() {
    List<Fault> faults =
        List.of(
            new Fault("proxy-cut", "proxy-c2s", 10_000, 12_000),
            new Fault("master-kill", "master:1->2+3", 20_000, 26_000));
    Map<String, Object> v =
        new SoakVerdict(
                List.of(
                    r("E", "a", "11000", "900"),
                    r("D", "a", "13000", "1", "c0"),
                    r("E", "b", "30000", "900"),
                    r("D", "b", "30004", "1", "c0"),
                    r("D", "b", "31000", "2", "c1")),
                faults,
                List.of("proxy-cut", "proxy-drop", "master-kill"))
            .figures();
    assertThat(v)
        .containsEntry("faults_proxy_cut", 1L)
        .containsEntry("faults_proxy_drop", 0L)
        .containsEntry("faults_master_kill", 1L);
    // a's 2 s of lateness fell in the cut's window; b's duplicate came within the kill's tail
    assertThat(v).containsEntry("lateness_samples_outside_faults", 0L);
    assertThat(v).containsEntry("duplicates", 1L).containsEntry("duplicates_near_fault", 1L);
  }
}
