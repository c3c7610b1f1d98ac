// The package as users load it: the CommonJS entry works beside the ESM one, and the declaration files are there.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { test } from "node:test";
import * as esm from "@hourglass/client";
import { queueName, serverUrl } from "./support/env.js";
import { repoRoot } from "./support/server.js";

const require = createRequire(import.meta.url);

test("require() loads the CommonJS build, which talks to the server and throws its own typed errors", async () => {
  const cjs = require("@hourglass/client") as typeof esm;
  assert.notEqual(cjs.Hourglass, esm.Hourglass, "a separate build");
  assert.deepEqual(Object.keys(cjs).sort(), Object.keys(esm).sort());
  const hourglass = new cjs.Hourglass({ url: serverUrl() });
  try {
    const queue = hourglass.queue(queueName("cjs"));
    await queue.enqueue({ id: "c", payload: [1, 2] });
    assert.deepEqual((await queue.get("c")).payload, [1, 2]);
    await assert.rejects(queue.get("missing"), cjs.JobNotFoundError);
    await assert.rejects(queue.get("missing"), cjs.HourglassError);
  } finally {
    hourglass.close();
  }
});

test("package.json points at files that exist: both entries and their declarations", () => {
  const dir = join(repoRoot(), "clients", "node");
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const entries = manifest.exports["."];
  const conditions = ["import", "require"].flatMap((kind) => Object.values(entries[kind]));
  const paths = [manifest.main, manifest.types, ...conditions];
  for (const path of paths as string[]) {
    assert.ok(existsSync(join(dir, path)), path);
  }
  assert.deepEqual(manifest.dependencies ?? {}, {}, "no runtime dependencies");
});
