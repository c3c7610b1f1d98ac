// On a server of its own, with a token: the Authorization header, retries of lost and refused connections while the
// server is killed and started again (a call in flight and a call made while it is down), and retries of 503 while
// its Redis is stalled.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  ConnectionError,
  Hourglass,
  RedisUnavailableError,
  UnauthorizedError,
  type HourglassError,
} from "@hourglass/client";
import { embeddedRedisPid, startServer, type RunningServer } from "./support/server.js";
import { eventually, queueName } from "./support/env.js";

const TOKEN = "node-client-test-admin-token-0123456789";
let server: RunningServer;

before(async () => {
  server = await startServer({ args: ["--admin-token", TOKEN] });
});
after(async () => {
  await server.stop(true);
});

/** A client whose retries outlast a server restart on a busy machine, recording each retry. */
function patientClient(retries: HourglassError[]): Hourglass {
  return new Hourglass({
    url: server.url,
    token: TOKEN,
    retry: { retries: 400, minDelayMs: 50, maxDelayMs: 250, onRetry: (error) => retries.push(error) },
  });
}

test("the token goes in the Authorization header; none or a wrong one is an UnauthorizedError", async () => {
  const name = queueName("auth");
  const anonymous = new Hourglass({ url: server.url });
  const wrong = new Hourglass({ url: server.url, token: "not-the-token-0123456789" });
  const admin = new Hourglass({ url: server.url, token: TOKEN });
  try {
    await assert.rejects(anonymous.queue(name).enqueue({ payload: 1 }), (error: unknown) => {
      assert.ok(error instanceof UnauthorizedError);
      assert.equal(error.status, 401);
      return true;
    });
    await assert.rejects(wrong.queues(), UnauthorizedError);
    assert.equal((await admin.queue(name).enqueue({ payload: 1 })).state, "ready");
  } finally {
    [anonymous, wrong, admin].forEach((client) => client.close());
  }
});

test("calls survive the server killed and started again: a long poll in flight, a call made meanwhile", async () => {
  const retries: HourglassError[] = [];
  const hourglass = patientClient(retries);
  const noRetries = new Hourglass({ url: server.url, token: TOKEN, retry: { retries: 0 } });
  try {
    const kept = hourglass.queue(queueName("kept"));
    await kept.enqueue({ id: "survivor", payload: { kept: true }, delayMs: 600_000 });
    const polled = hourglass.queue<string>(queueName("polled"));
    const claim = polled.claim({ max: 1, waitMs: 25_000 });
    await eventually(async () => /hourglass_claims_waiting\S* 1\.0/.test(await metrics()), "the claim waits");

    await server.kill();
    const read = kept.get("survivor");
    await assert.rejects(noRetries.queues(), (error: unknown) => {
      assert.ok(error instanceof ConnectionError, `${error}`);
      assert.equal(error.status, 0);
      assert.equal(error.code, "connection_failed");
      return true;
    });
    server = await startServer({ port: server.port, dataDir: server.dataDir, args: ["--admin-token", TOKEN] });

    assert.deepEqual((await read).payload, { kept: true }, "the call made while it was down");
    await polled.enqueue({ id: "after-restart", payload: "x" });
    assert.deepEqual(
      (await claim).map((job) => job.id),
      ["after-restart"],
      "the long poll, retried, got the job enqueued after the restart",
    );
    const causes = new Set(retries.map((error) => ((error as ConnectionError).cause as NodeJS.ErrnoException).code));
    assert.ok(causes.has("ECONNRESET"), `lost connection retried: ${[...causes]}`);
    assert.ok(causes.has("ECONNREFUSED"), `refused connection retried: ${[...causes]}`);
  } finally {
    hourglass.close();
    noRetries.close();
  }
});

test("a 503 while Redis is stalled is retried, and the call succeeds once Redis is back", async () => {
  const retries: HourglassError[] = [];
  const redis = embeddedRedisPid(server);
  const hourglass = new Hourglass({
    url: server.url,
    token: TOKEN,
    retry: {
      retries: 400,
      minDelayMs: 50,
      maxDelayMs: 250,
      onRetry: (error) => {
        retries.push(error);
        process.kill(redis, "SIGCONT");
      },
    },
  });
  const queue = hourglass.queue(queueName("stalled"));
  try {
    await queue.enqueue({ id: "j", payload: 1, delayMs: 600_000 });
    process.kill(redis, "SIGSTOP");
    assert.equal((await queue.get("j")).state, "delayed");
    assert.ok(retries[0] instanceof RedisUnavailableError, `${retries[0]}`);
    assert.equal(retries[0].status, 503);
  } finally {
    process.kill(redis, "SIGCONT");
    hourglass.close();
  }
});

async function metrics(): Promise<string> {
  const answer = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  return answer.text();
}
