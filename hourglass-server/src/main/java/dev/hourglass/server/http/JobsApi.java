package dev.hourglass.server.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hourglass.EnqueueResult;
import dev.hourglass.JobInfo;
import dev.hourglass.JobSpec;
import dev.hourglass.Queue;
import dev.hourglass.server.json.ApiException;
import dev.hourglass.server.json.Fields;
import dev.hourglass.server.json.JsonIn;
import dev.hourglass.server.json.JsonOut;
import io.javalin.http.Context;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Enqueue (one and batch), get, cancel, reschedule. */
final class JobsApi {
  static final int MAX_BATCH = 1000;

  private final ApiContext api;

  JobsApi(ApiContext api) {
    this.api = api;
  }

  void enqueue(Context ctx, String queue) {
    JobSpec spec = JobJson.spec(JsonIn.job(api.body(ctx)), "", api.maxPayloadBytes);
    EnqueueResult r = api.queues.forWrite(queue).enqueue(spec);
    Http.json(ctx, 201, JobJson.enqueued(r));
  }

  void batch(Context ctx, String queue) {
    List<JsonIn.Obj> jobs = JsonIn.jobs(api.body(ctx));
    if (jobs.isEmpty() || jobs.size() > MAX_BATCH) {
      throw ApiException.invalidField(
          "jobs", "must hold 1 to " + MAX_BATCH + " jobs, had " + jobs.size());
    }
    ObjectNode[] results = new ObjectNode[jobs.size()];
    List<JobSpec> valid = new ArrayList<>();
    List<Integer> validAt = new ArrayList<>();
    for (int i = 0; i < jobs.size(); i++) {
      String prefix = "jobs[" + i + "].";
      try {
        if (jobs.get(i) == null) {
          throw ApiException.invalidField("jobs[" + i + "]", "must be a job object");
        }
        valid.add(JobJson.spec(jobs.get(i), prefix, api.maxPayloadBytes));
        validAt.add(i);
      } catch (ApiException e) {
        results[i] = errorEntry(e);
      }
    }
    if (!valid.isEmpty()) {
      List<EnqueueResult> done = api.queues.forWrite(queue).enqueueAll(valid);
      for (int k = 0; k < done.size(); k++) {
        EnqueueResult r = done.get(k);
        results[validAt.get(k)] =
            r.created()
                ? JobJson.enqueued(r)
                : errorEntry(
                    new ApiException(
                        409, "duplicate_id", "a live job already has the id " + r.id()));
      }
    }
    ObjectNode body = JsonOut.object();
    ArrayNode list = body.putArray("results");
    for (ObjectNode r : results) {
      list.add(r);
    }
    Http.json(ctx, 200, body);
  }

  private static ObjectNode errorEntry(ApiException e) {
    ObjectNode o = JsonOut.object();
    o.putObject("error").put("code", e.code()).put("message", e.getMessage());
    return o;
  }

  void get(Context ctx, String queue, String id) {
    JobInfo<byte[]> job =
        api.queues
            .existing(queue)
            .get(Http.jobId(id))
            .orElseThrow(() -> ApiException.jobNotFound(queue, id));
    Http.json(ctx, 200, JobJson.job(job));
  }

  void cancel(Context ctx, String queue, String id) {
    if (!api.queues.existing(queue).cancel(Http.jobId(id))) {
      throw ApiException.jobNotFound(queue, id);
    }
    ctx.status(204);
  }

  void reschedule(Context ctx, String queue, String id) {
    Fields f = Fields.of(JsonIn.object(api.body(ctx))).only("delayMs", "runAt");
    Http.jobId(id);
    if (f.has("delayMs") == f.has("runAt")) {
      throw f.invalid("delayMs", "give exactly one of delayMs or runAt");
    }
    Optional<Duration> delay = f.optMillis("delayMs", 0, JobJson.MAX_DELAY_MS);
    Optional<Instant> runAt = JobJson.runAt(f);
    Queue<byte[]> q = api.queues.existing(queue);
    JobInfo<byte[]> job =
        delay.isPresent() ? q.reschedule(id, delay.get()) : q.reschedule(id, runAt.get());
    Http.json(ctx, 200, JobJson.job(job));
  }
}
