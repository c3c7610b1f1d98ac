package dev.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;

/** The smallest proof that a server works on a Redis: one job enqueued, claimed and acked. */
final class RoundTrip {
  private RoundTrip() {}

  /** Enqueues job {@code a} on {@code queue}, claims it with a wait, acks it, checks each step. */
  static void enqueueClaimAck(TestServer s, String queue) {
    var enqueued = s.post("/v1/queues/" + queue + "/jobs", "{\"id\":\"a\",\"payload\":{\"k\":1}}");
    assertThat(enqueued.status()).as(enqueued.body()).isEqualTo(201);
    var claimed = s.post("/v1/queues/" + queue + "/claim", "{\"max\":10,\"waitMs\":2000}");
    assertThat(claimed.status()).as(claimed.body()).isEqualTo(200);
    var jobs = claimed.json().get("jobs");
    assertThat(jobs).hasSize(1);
    assertThat(jobs.get(0).get("id").asText()).isEqualTo("a");
    String ack = "{\"receipt\":\"" + jobs.get(0).get("receipt").asText() + "\"}";
    var acked = s.post("/v1/queues/" + queue + "/jobs/a/ack", ack);
    assertThat(acked.status()).as(acked.body()).isEqualTo(204);
    var view = s.get("/v1/queues/" + queue);
    assertThat(view.status()).as(view.body()).isEqualTo(200);
    assertThat(view.json().get("counters").get("acked").asLong()).isEqualTo(1);
  }
}
