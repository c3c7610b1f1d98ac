// The README's quick start, as printed: compiled with tsc against the package's shipped types and run with node
// against the test server; it handles its job, and exits cleanly on SIGTERM with the job acked.

import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { JobNotFoundError } from "@hourglass/client";
import { client, eventually, serverUrl } from "./support/env.js";
import { repoRoot } from "./support/server.js";

const MARKER = "<!-- node-quick-start:";
const PRINTED_URL = '"http://127.0.0.1:8080"';

test("the README's quick start compiles and runs as printed", async () => {
  const packageDir = join(repoRoot(), "clients", "node");
  const source = quickStart(readFileSync(join(packageDir, "README.md"), "utf8"));
  assert.ok(source.includes(PRINTED_URL), "the quick start names the default server");
  // inside the package, so that "@hourglass/client" resolves to the package itself (dist/, its types)
  const dir = join(packageDir, "build", "readme");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "quickstart.ts"), source.replace(PRINTED_URL, JSON.stringify(serverUrl())));
  const tsc = join(packageDir, "node_modules", "typescript", "bin", "tsc");
  const flags = ["--strict", "--target", "es2022", "--module", "nodenext", "--types", "node"];
  flags.push("--rootDir", dir, "--outDir", dir);
  execFileSync(process.execPath, [tsc, ...flags, join(dir, "quickstart.ts")], { stdio: "inherit" });

  const child = spawn(process.execPath, [join(dir, "quickstart.js")], { stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  await eventually(() => output.includes("\n"), "the handler printed its line");
  assert.equal(output, "sending welcome-42 to ada@example.com, attempt 1\n");
  child.kill("SIGTERM");
  assert.equal(await exited, 0, "a clean exit after stop()");

  const hourglass = client();
  try {
    await assert.rejects(hourglass.queue("emails").get("welcome-42"), JobNotFoundError, "acked");
  } finally {
    hourglass.close();
  }
});

function quickStart(readme: string): string {
  const marker = readme.indexOf(MARKER);
  assert.ok(marker > 0, "the README has the quick start marker");
  const start = readme.indexOf("```ts\n", marker) + "```ts\n".length;
  return readme.slice(start, readme.indexOf("```", start));
}
