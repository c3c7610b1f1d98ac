package dev.hourglass.server;

import static dev.hourglass.server.ContractSupport.claim;
import static dev.hourglass.server.ContractSupport.claimsWaiting;
import static dev.hourglass.server.ContractSupport.enqueue;
import static dev.hourglass.server.ContractSupport.ids;
import static dev.hourglass.server.ContractSupport.j;
import static dev.hourglass.server.ContractSupport.sendClaim;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hourglass.Delivery;
import dev.hourglass.JobSpec;
import dev.hourglass.Queue;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A long-poll claim whose client goes is given up, and what it leased goes back at once, the
 * attempt not counted: nothing waits for the lease (30 s by default) to lapse.
 */
class GoneClaimTest extends ContractTestBase {
  @Test
  void aClaimWhoseClientClosesItsSocketIsGivenUpAndTheNextConsumerGetsTheJob() throws Exception {
    try (Socket gone = new Socket("127.0.0.1", s.server().port())) {
      sendClaim(gone, "q", "{\"max\":10,\"waitMs\":30000}");
      await("the claim waits")
          .atMost(Duration.ofSeconds(20))
          .pollInterval(Duration.ofMillis(10))
          .until(() -> claimsWaiting(s) == 1);
    }
    await("the server notices the client went and gives its claim up")
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(10))
        .until(() -> claimsWaiting(s) == 0);

    long enqueued = System.nanoTime();
    enqueue(s, "q", j("{'id':'a','payload':1}"));
    JsonNode jobs = claim(s, "q", j("{'max':10,'waitMs':5000}"));
    Duration took = Duration.ofNanos(System.nanoTime() - enqueued);

    assertThat(ids(jobs)).containsExactly("a");
    assertThat(jobs.get(0).get("attempt").asInt()).isEqualTo(1);
    assertThat(took)
        .as("from the enqueue to the second consumer's answer")
        .isLessThan(Duration.ofSeconds(1));
    assertThat(stats("q").inflight()).isEqualTo(1);
  }

  /**
   * The claim answers with jobs, and the client resets its connection while the answer is being
   * written: the answer is larger than the socket buffers and the client reads only its first
   * bytes, so the write is surely under way and cannot finish. The jobs go back at once.
   */
  @Test
  void jobsWhoseAnswerCouldNotBeWrittenGoBackAtOnce() throws Exception {
    Queue<byte[]> q = s.server().hourglass().queue("q");
    String big = "\"" + "x".repeat(900_000) + "\"";
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      q.enqueue(JobSpec.builder().id("big" + i).payload(big).build());
      expected.add("big" + i);
    }

    try (Socket gone = new Socket()) {
      gone.setReceiveBufferSize(4096);
      gone.connect(new java.net.InetSocketAddress("127.0.0.1", s.server().port()));
      gone.setSoTimeout(20_000);
      sendClaim(gone, "q", "{\"max\":100,\"waitMs\":30000}");
      InputStream in = gone.getInputStream();
      assertThat(new String(in.readNBytes(12), StandardCharsets.US_ASCII))
          .as("the answer has begun")
          .isEqualTo("HTTP/1.1 200");
      assertThat(q.stats().inflight()).isEqualTo(20);
      gone.setSoLinger(true, 0); // close with a reset: the server's pending write fails
    }

    Set<String> got = new HashSet<>();
    await("the jobs are ready again and claimed by the next consumer")
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(10))
        .until(
            () -> {
              for (Delivery<byte[]> d : q.claim(100, null)) {
                assertThat(d.attempt()).as("attempt of %s", d.id()).isEqualTo(1);
                got.add(d.id());
              }
              return got.size() == expected.size();
            });
    assertThat(got).containsExactlyInAnyOrderElementsOf(expected);
  }

  /**
   * Found by the raw-request fuzz on CI: a client that shuts down its sending side after a waiting
   * claim (a half-close, as {@code nc -N} does) looks gone, and got no answer at all. It reads an
   * empty claim, and the job enqueued afterwards goes to the next consumer, attempt 1.
   */
  @Test
  void aClientThatHalfClosesReadsAnEmptyClaim() throws Exception {
    try (Socket halfClosed = new Socket("127.0.0.1", s.server().port())) {
      halfClosed.setSoTimeout(20_000);
      sendClaim(halfClosed, "q", "{\"max\":10,\"waitMs\":30000}");
      halfClosed.shutdownOutput();
      RawHttp.Answer answer = RawHttp.read(halfClosed.getInputStream(), false);
      assertThat(answer.status()).isEqualTo(200);
      assertThat(answer.text()).isEqualTo("{\"jobs\":[]}");
    }
    await("the claim is given up")
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(10))
        .until(() -> claimsWaiting(s) == 0);
    enqueue(s, "q", j("{'id':'a','payload':1}"));
    JsonNode jobs = claim(s, "q", j("{'max':10,'waitMs':5000}"));
    assertThat(ids(jobs)).containsExactly("a");
    assertThat(jobs.get(0).get("attempt").asInt()).isEqualTo(1);
  }

  /** A client that stays gets its jobs, and its connection serves its next request. */
  @Test
  void aClientThatStaysGetsItsJobsAndKeepsItsConnection() throws Exception {
    try (Socket stays = new Socket("127.0.0.1", s.server().port())) {
      stays.setSoTimeout(20_000);
      sendClaim(stays, "q", "{\"max\":10,\"waitMs\":30000}");
      await("the claim waits")
          .atMost(Duration.ofSeconds(20))
          .pollInterval(Duration.ofMillis(10))
          .until(() -> claimsWaiting(s) == 1);
      enqueue(s, "q", j("{'id':'a','payload':1}"));
      RawHttp.Answer first = RawHttp.read(stays.getInputStream(), false);
      assertThat(first.status()).isEqualTo(200);
      assertThat(first.text()).contains("\"id\":\"a\"").contains("\"attempt\":1");

      sendClaim(stays, "q", "{\"max\":10,\"waitMs\":0}");
      RawHttp.Answer second = RawHttp.read(stays.getInputStream(), false);
      assertThat(second.status()).as("the next claim on the same connection").isEqualTo(200);
      assertThat(second.text()).isEqualTo("{\"jobs\":[]}");
    }
  }
}
