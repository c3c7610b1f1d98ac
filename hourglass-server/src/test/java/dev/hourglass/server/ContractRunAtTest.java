package dev.hourglass.server;

import static dev.hourglass.server.ContractSupport.assertError;
import static dev.hourglass.server.ContractSupport.assertJson;
import static dev.hourglass.server.ContractSupport.enqueue;
import static dev.hourglass.server.ContractSupport.getJob;
import static dev.hourglass.server.ContractSupport.j;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hourglass.InvalidArgumentException;
import dev.hourglass.JobSpec;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code runAt} over HTTP has the Java library's range ({@link JobSpec#MIN_RUN_AT} to {@link
 * JobSpec#MAX_RUN_AT}, core's JobSpecTest) on enqueue, batch and reschedule, and its refusal says
 * what the library says.
 */
class ContractRunAtTest extends ContractTestBase {

  @ParameterizedTest
  @ValueSource(longs = {0, (1L << 47) - 1})
  void theLibrarysBoundsAreAcceptedAndKept(long runAt) {
    assertThat(runAt).isIn(JobSpec.MIN_RUN_AT.toEpochMilli(), JobSpec.MAX_RUN_AT.toEpochMilli());

    assertThat(
            enqueue(s, "q", "{\"id\":\"a\",\"payload\":1,\"runAt\":" + runAt + "}")
                .get("runAt")
                .asLong())
        .isEqualTo(runAt);
    assertThat(getJob(s, "q", "a").get("runAt").asLong()).isEqualTo(runAt);

    enqueue(s, "q", j("{'id':'b','payload':1,'delayMs':60000}"));
    TestServer.Response moved =
        s.call("PUT", "/v1/queues/q/jobs/b/schedule", "{\"runAt\":" + runAt + "}");
    assertThat(assertJson(moved, 200).get("runAt").asLong()).isEqualTo(runAt);
  }

  @ParameterizedTest
  @ValueSource(longs = {-1, 1L << 47, Long.MIN_VALUE, Long.MAX_VALUE})
  void oneMillisecondOutsideIsRefusedAsTheLibraryRefusesIt(long runAt) {
    String library =
        catchThrowableOfType(
                InvalidArgumentException.class,
                () -> JobSpec.builder().payload("1").runAt(Instant.ofEpochMilli(runAt)).build())
            .getMessage();
    enqueue(s, "q", j("{'id':'b','payload':1,'delayMs':60000}"));

    assertThat(
            assertError(
                s.post("/v1/queues/q/jobs", "{\"payload\":1,\"runAt\":" + runAt + "}"),
                400,
                "invalid_field"))
        .isEqualTo(library);
    assertThat(
            assertError(
                s.call("PUT", "/v1/queues/q/jobs/b/schedule", "{\"runAt\":" + runAt + "}"),
                400,
                "invalid_field"))
        .isEqualTo(library);
    String batch =
        assertJson(
                s.post(
                    "/v1/queues/q/jobs/batch",
                    "{\"jobs\":[{\"payload\":1,\"runAt\":" + runAt + "}]}"),
                200)
            .get("results")
            .get(0)
            .get("error")
            .get("message")
            .asText();
    assertThat(batch).isEqualTo("jobs[0]." + library);
    assertThat(stats("q").total()).as("nothing was written").isEqualTo(1);
  }

  @Test
  void anOutOfRangeRunAtIsRefusedBeforeTheQueueIsLookedUp() {
    assertError(
        s.call("PUT", "/v1/queues/unknown/jobs/b/schedule", "{\"runAt\":-1}"),
        400,
        "invalid_field");
  }
}
