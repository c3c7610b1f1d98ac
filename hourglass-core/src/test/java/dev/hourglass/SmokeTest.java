package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.testing.RedisExtension;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class SmokeTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();
  Hourglass hg;

  @BeforeEach
  void connect() {
    hg = Hourglass.builder().redisUri(redis.uri()).build();
  }

  @AfterEach
  void close() {
    hg.close();
  }

  @Test
  void enqueueClaimAck() throws Exception {
    Queue q = hg.queue("orders");
    EnqueueResult r = q.enqueue(JobSpec.builder().id("a").payload("hello").build());
    assertThat(r.state()).isEqualTo(JobState.READY);
    List<Delivery> got = q.claim(10, null);
    assertThat(got).hasSize(1);
    assertThat(got.get(0).payloadAsString()).isEqualTo("hello");
    q.ack("a", got.get(0).receipt());
    assertThat(q.get("a")).isEmpty();
    EnqueueResult d = q.enqueue(JobSpec.builder().id("b").payload("later").delay(Duration.ofMillis(300)).build());
    assertThat(d.state()).isEqualTo(JobState.DELAYED);
    assertThat(q.claim(10, null)).isEmpty();
    Thread.sleep(700);
    List<Delivery> later = q.claim(10, null);
    assertThat(later).extracting(Delivery::id).containsExactly("b");
    System.out.println(q.stats());
  }
}
