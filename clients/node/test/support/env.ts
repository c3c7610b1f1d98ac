// What every test file shares: the server the runner started (HOURGLASS_TEST_URL), a client on it, fresh queue
// names, and awaiting a condition.

import { randomBytes } from "node:crypto";
import { Hourglass, type HourglassOptions } from "@hourglass/client";

export function serverUrl(): string {
  const url = process.env["HOURGLASS_TEST_URL"];
  if (url === undefined) {
    throw new Error("HOURGLASS_TEST_URL is not set: run the tests with `npm test`, which starts a server");
  }
  return url;
}

export function client(options: Partial<HourglassOptions> = {}): Hourglass {
  return new Hourglass({ url: serverUrl(), ...options });
}

/** A queue name no other test uses. */
export function queueName(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString("hex")}`;
}

/**
 * Resolves once `check` returns a truthy value (which it resolves with), checking again after each short pause. The
 * limit only ends a test that would otherwise hang; it is no timing expectation.
 */
export async function eventually<T>(check: () => Promise<T> | T, what: string, limitMs = 60_000): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value) {
      return value;
    }
    if (Date.now() > end) {
      throw new Error(`still not true after ${limitMs} ms: ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
