package dev.hourglass.server.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hourglass.ScheduleInfo;
import dev.hourglass.ScheduleNotFoundException;
import dev.hourglass.Schedules;
import dev.hourglass.server.json.JsonIn;
import dev.hourglass.server.json.JsonOut;
import io.javalin.http.Context;

/** A queue's schedules (API.md 1.2): put, list, get, pause, resume, delete. */
final class SchedulesApi {
  private final ApiContext api;

  SchedulesApi(ApiContext api) {
    this.api = api;
  }

  void put(Context ctx, String queue, String id) {
    var spec = ScheduleJson.spec(id, JsonIn.job(api.body(ctx)), api.maxPayloadBytes);
    Schedules.PutResult<byte[]> r = api.queues.forWrite(queue).schedules().put(spec);
    Http.json(ctx, r.created() ? 201 : 200, ScheduleJson.schedule(r.schedule()));
  }

  void list(Context ctx, String queue) {
    ObjectNode body = JsonOut.object();
    ArrayNode list = body.putArray("schedules");
    for (ScheduleInfo<byte[]> s : api.queues.existing(queue).schedules().list()) {
      list.add(ScheduleJson.schedule(s));
    }
    Http.json(ctx, 200, body);
  }

  void get(Context ctx, String queue, String id) {
    ScheduleInfo<byte[]> s =
        api.queues
            .existing(queue)
            .schedules()
            .get(id)
            .orElseThrow(() -> new ScheduleNotFoundException(queue, id));
    Http.json(ctx, 200, ScheduleJson.schedule(s));
  }

  void pause(Context ctx, String queue, String id) {
    Http.noFields(api.body(ctx));
    Http.json(ctx, 200, ScheduleJson.schedule(api.queues.existing(queue).schedules().pause(id)));
  }

  void resume(Context ctx, String queue, String id) {
    Http.noFields(api.body(ctx));
    Http.json(ctx, 200, ScheduleJson.schedule(api.queues.existing(queue).schedules().resume(id)));
  }

  void delete(Context ctx, String queue, String id) {
    if (!api.queues.existing(queue).schedules().delete(id)) {
      throw new ScheduleNotFoundException(queue, id);
    }
    ctx.status(204);
  }
}
