// Schedules: put (create, replace), get, list, pause, resume, delete, occurrences, and refused definitions.

import assert from "node:assert/strict";
import { after, test } from "node:test";
import { InvalidFieldError, ScheduleNotFoundError } from "@hourglass/client";
import { client, queueName } from "./support/env.js";

const hourglass = client();
after(() => hourglass.close());

test("a schedule is put, read, listed, paused, resumed and deleted, and makes occurrence jobs", async () => {
  const queue = hourglass.queue<{ report: string }>(queueName("schedules"));
  const startAt = Date.now() + 3_600_000;
  const spec = {
    cron: "30 2 * * *",
    timeZone: "Europe/Berlin",
    payload: { report: "sales" },
    maxAttempts: 2,
    priority: 4,
    ttlMs: 600_000,
  };
  const { nextRuns, ...definition } = await queue.schedules.put("nightly", spec);
  assert.deepEqual(definition, { id: "nightly", queue: queue.name, ...spec, paused: false }, "as put, with options");
  assert.equal(nextRuns.length, 3);

  const hourly = await queue.schedules.put("hourly", { every: 3_600_000, startAt, payload: { report: "load" } });
  assert.deepEqual(hourly.nextRuns, [startAt, startAt + 3_600_000, startAt + 7_200_000]);
  assert.deepEqual(
    (await queue.schedules.list()).map((schedule) => schedule.id).sort(),
    ["hourly", "nightly"],
  );

  const occurrence = await queue.get(`hourly:${startAt}`);
  assert.equal(occurrence.schedule, "hourly");
  assert.equal(occurrence.runAt, startAt);
  assert.deepEqual(occurrence.payload, { report: "load" });

  assert.equal((await queue.schedules.pause("hourly")).paused, true);
  assert.equal((await queue.jobs("delayed")).jobs.filter((job) => job.schedule === "hourly").length, 0);
  assert.equal((await queue.schedules.resume("hourly")).paused, false);
  const resumed = await queue.schedules.get("hourly");
  assert.equal(resumed.paused, false);
  assert.equal((await queue.get(`hourly:${resumed.nextRuns[0]}`)).schedule, "hourly", "the pending occurrence");

  await queue.schedules.delete("hourly");
  await assert.rejects(queue.schedules.get("hourly"), ScheduleNotFoundError);
  await assert.rejects(queue.schedules.delete("hourly"), ScheduleNotFoundError);
  await assert.rejects(queue.schedules.pause("hourly"), ScheduleNotFoundError);
});

test("a bad definition is an InvalidFieldError naming the field, and nothing is written", async () => {
  const queue = hourglass.queue(queueName("schedules-invalid"));
  const refused: [object, string][] = [
    [{ cron: "61 * * * *", payload: 1 }, "cron"],
    [{ cron: "0 * * * *", timeZone: "Mars/Olympus", payload: 1 }, "timeZone"],
    [{ every: 999, payload: 1 }, "every"],
    [{ every: 60_000, startAt: 2000, endAt: 1000, payload: 1 }, "endAt"],
  ];
  for (const [spec, field] of refused) {
    await assert.rejects(queue.schedules.put("bad", spec as { payload: number }), (error: unknown) => {
      assert.ok(error instanceof InvalidFieldError, `${error}`);
      assert.equal(error.field, field, error.message);
      return true;
    });
  }
});
