package dev.hourglass.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class WrkTest {
  /** wrk 4.1.0's report with --latency, as Debian's wrk prints it. */
  private static final String REPORT =
      """
      Running 20s test @ http://127.0.0.1:18080/v1/queues/q/jobs
        2 threads and 32 connections
        Thread Stats   Avg      Stdev     Max   +/- Stdev
          Latency     7.51ms    4.90ms  69.84ms   83.63%
          Req/Sec     2.25k     0.87k    4.59k    64.75%
        Latency Distribution
           50%  625.00us
           75%    9.32ms
           90%   13.15ms
           99%    1.27s
        89771 requests in 20.08s, 16.78MB read
        Socket errors: connect 0, read 0, write 0, timeout 18
        Non-2xx or 3xx responses: 3
      Requests/sec:   4470.80
      Transfer/sec:    855.74KB
      """;

  @Test
  void readsRateLatenciesInMsAndErrors() throws Exception {
    Wrk.Report r = Wrk.parse(REPORT);
    assertThat(r.requests()).isEqualTo(89771);
    assertThat(r.requestsPerSecond()).isEqualTo(4470.80);
    assertThat(r.p50Ms()).isEqualTo(0.625);
    assertThat(r.p75Ms()).isEqualTo(9.32);
    assertThat(r.p90Ms()).isEqualTo(13.15);
    assertThat(r.p99Ms()).isEqualTo(1270.0);
    assertThat(r.non2xx()).isEqualTo(3);
    assertThat(r.socketErrors()).isEqualTo("connect_0_read_0_write_0_timeout_18");
  }

  @Test
  void aCleanRunHasNoErrors() throws Exception {
    String clean =
        REPORT.replaceAll("(?m)^.*Socket errors.*\\n", "").replaceAll("(?m)^.*Non-2xx.*\\n", "");
    Wrk.Report r = Wrk.parse(clean);
    assertThat(r.non2xx()).isZero();
    assertThat(r.socketErrors()).isEqualTo("none");
  }

  @Test
  void refusesAReportWithoutItsFigures() {
    assertThatThrownBy(() -> Wrk.parse("unable to connect to 127.0.0.1:1 Connection refused"))
        .hasMessageContaining("wrk");
  }
}
