// `npm test`: starts one Hourglass server for the test files, runs them with Node's test runner against it
// (HOURGLASS_TEST_URL), and stops the server. Test files that need a server of their own (restarts, tokens) start it.

import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer } from "./support/server.js";

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((name) => name.endsWith(".test.js"))
  .filter((name) => only.length === 0 || only.some((wanted) => name.startsWith(wanted)))
  .sort()
  .map((name) => join(here, name));

const server = await startServer();
let code: number;
try {
  code = await new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, ["--test", ...files], {
      env: { ...process.env, HOURGLASS_TEST_URL: server.url },
      stdio: "inherit",
    });
    child.on("error", reject);
    child.on("exit", (exitCode, signal) => resolve(exitCode ?? (signal === null ? 1 : 128)));
  });
} finally {
  await server.stop();
}
process.exitCode = code;
