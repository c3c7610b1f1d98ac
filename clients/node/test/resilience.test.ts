// On a server of its own, with a token: the Authorization header; retries of lost and refused connections while the
// server is killed and started again (a read in flight and one made while it is down; a claim in flight is not
// retried); and a 503 while its Redis is stalled, retried for a read but not for an enqueue without an id.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  ConnectionError,
  Hourglass,
  RedisUnavailableError,
  UnauthorizedError,
  type HourglassError,
} from "@hourglass/client";
import { embeddedRedisPid, startServer, unreadRequests, type RunningServer } from "./support/server.js";
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

test("a server killed and restarted: a read in flight and one made meanwhile are retried, a claim not", async () => {
  const retries: HourglassError[] = [];
  const hourglass = patientClient(retries);
  const noRetries = new Hourglass({ url: server.url, token: TOKEN, retry: { retries: 0 } });
  try {
    const kept = hourglass.queue(queueName("kept"));
    await kept.enqueue({ id: "survivor", payload: { kept: true }, delayMs: 600_000 }); // its connection stays open
    const polled = hourglass.queue<string>(queueName("polled"));
    const claimLost = assert.rejects(polled.claim({ max: 1, waitMs: 25_000 }), (error: unknown) => {
      assert.ok(error instanceof ConnectionError, `${error}`);
      assert.equal(error.sent, true);
      assert.match(error.message, /connection lost after the request was sent: ECONNRESET/);
      assert.match(error.message, /not retried: POST \/v1\/queues\/polled-\w+\/claim is not safe to repeat/);
      assert.match(error.message, /its effect is unknown/);
      return true;
    });
    await eventually(async () => /hourglass_claims_waiting\S* 1\.0/.test(await metrics()), "the claim waits");

    process.kill(server.pid, "SIGSTOP"); // a request now reaches the server but is not read
    const readInFlight = kept.get("survivor");
    await eventually(() => unreadRequests(server.port) > 0, "the read reached the stopped server");
    await server.kill();
    const readMeanwhile = kept.get("survivor");
    await assert.rejects(noRetries.queues(), (error: unknown) => {
      assert.ok(error instanceof ConnectionError, `${error}`);
      assert.equal(error.status, 0);
      assert.equal(error.code, "connection_failed");
      assert.equal(error.sent, false);
      return true;
    });
    await claimLost;
    server = await startServer({ port: server.port, dataDir: server.dataDir, args: ["--admin-token", TOKEN] });

    assert.deepEqual((await readInFlight).payload, { kept: true }, "the read in flight");
    assert.deepEqual((await readMeanwhile).payload, { kept: true }, "the read made while the server was down");
    const causes = new Set(retries.map((error) => ((error as ConnectionError).cause as NodeJS.ErrnoException).code));
    assert.ok(causes.has("ECONNRESET"), `lost connection retried: ${[...causes]}`);
    assert.ok(causes.has("ECONNREFUSED"), `refused connection retried: ${[...causes]}`);
    assert.ok(
      retries.every((error) => /GET .*\/jobs\/survivor/.test(error.message)),
      `only the reads were retried: ${retries.map((error) => error.message).join("; ")}`,
    );
  } finally {
    hourglass.close();
    noRetries.close();
  }
});

test("while Redis is stalled, a 503 is retried for a safe call and not for an enqueue without an id", async () => {
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
    await assert.rejects(queue.enqueue({ payload: 2 }), (error: unknown) => {
      assert.ok(error instanceof RedisUnavailableError, `${error}`);
      assert.equal(error.status, 503);
      assert.match(error.message, /not retried: POST \/v1\/queues\/stalled-\w+\/jobs is not safe to repeat/);
      assert.match(error.message, /its effect is unknown/);
      return true;
    });
    assert.equal(retries.length, 0, "the enqueue without an id was not retried");
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
