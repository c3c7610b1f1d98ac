// HTTP to the server on node:http with keep-alive agents: JSON in and out, the bearer token, a timeout per request,
// and bounded retries with backoff. What is retried:
// - a connection that could not be opened (refused, DNS not ready), and a 429: every call, since nothing was done;
// - a 503, and a connection lost after the request was sent: only calls marked `safe`, whose repeat does no harm
//   (reads, PUTs, acks, ...). For the others the effect is unknown, and the error's message says so.

import * as http from "node:http";
import * as https from "node:https";
import {
  ClientClosedError,
  ConnectionError,
  errorFromAnswer,
  HourglassError,
  RateLimitedError,
  TimeoutError,
} from "./errors.js";

/**
 * Retries of a request whose connection could not be opened or that the server answered 429; and, for calls safe to
 * repeat, of one answered 503 or whose connection was lost after it was sent.
 */
export interface RetryOptions {
  /** Retries after the first attempt; 0 turns retrying off. Default 8. */
  retries?: number;
  /** The first retry's delay (default 100); each next one doubles up to `maxDelayMs`, each jittered down by half. */
  minDelayMs?: number;
  /** Default 2000: with the defaults a request gives up after about 10 s of failures. */
  maxDelayMs?: number;
  /** Called before each retry with the failure, the retry's number (1 for the first) and the delay before it. */
  onRetry?: (error: HourglassError, retry: number, delayMs: number) => void;
}

export interface TransportOptions {
  /** The server, e.g. `http://127.0.0.1:8080` (a path prefix, if any, is kept). */
  url: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** How long a request may go without an answer (a claim adds its `waitMs`). Default 30000. */
  timeoutMs?: number;
  retry?: RetryOptions;
  /** Most connections open at once to the server; default unbounded. */
  maxSockets?: number;
}

export interface RequestOptions {
  /** Whether it may be sent again after a 503 or a connection lost once it was sent: a repeat does no harm. */
  safe: boolean;
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal | undefined;
  /** Added to the timeout: how long the server may hold the request on purpose (a long poll). */
  holdMs?: number;
}

/**
 * Socket errors after which the request may be sent again: the server was down, restarting, or dropped the
 * connection. Whether it is depends on whether the request was sent (the connection was open) and is safe to repeat.
 */
const RETRIED_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ECONNABORTED", "ENOTCONN", "EAI_AGAIN"]);

/** Below the server's idle timeout (Jetty's 30 s): the client, not the server, closes an idle connection. */
const IDLE_SOCKET_MS = 15_000;

export class Transport {
  private readonly protocol: typeof http | typeof https;
  private readonly agent: http.Agent;
  private readonly host: string;
  private readonly port: number;
  private readonly prefix: string;
  private readonly headers: Record<string, string>;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly minDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly onRetry: RetryOptions["onRetry"];
  private closed = false;

  constructor(options: TransportOptions) {
    const url = new URL(options.url);
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new TypeError(`url: must be http:// or https://, was ${options.url}`);
    }
    const secure = url.protocol === "https:";
    this.protocol = secure ? https : http;
    const agentOptions = { keepAlive: true, timeout: IDLE_SOCKET_MS, maxSockets: options.maxSockets ?? Infinity };
    this.agent = secure ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
    // after close(), a connection a request in flight gives back is closed rather than kept (after the agent's own
    // listener has pooled it)
    this.agent.on("free", () => {
      if (this.closed) {
        this.destroyIdle();
      }
    });
    this.host = url.hostname.replace(/^\[(.*)\]$/, "$1");
    this.port = url.port === "" ? (secure ? 443 : 80) : Number(url.port);
    this.prefix = url.pathname.replace(/\/+$/, "");
    this.headers = { accept: "application/json", "user-agent": "hourglass-node/0.1.0" };
    if (options.token !== undefined) {
      this.headers["authorization"] = `Bearer ${options.token}`;
    }
    this.timeoutMs = positive("timeoutMs", options.timeoutMs ?? 30_000);
    this.retries = options.retry?.retries ?? 8;
    this.minDelayMs = positive("retry.minDelayMs", options.retry?.minDelayMs ?? 100);
    this.maxDelayMs = positive("retry.maxDelayMs", options.retry?.maxDelayMs ?? 2000);
    this.onRetry = options.retry?.onRetry;
    if (!Number.isInteger(this.retries) || this.retries < 0) {
      throw new TypeError(`retry.retries: must be an integer >= 0, was ${this.retries}`);
    }
  }

  /** Sends the request, retried as the options say; resolves with the parsed JSON answer (undefined for 204). */
  async request<T>(method: string, path: string, options: RequestOptions): Promise<T> {
    if (this.closed) {
      throw new ClientClosedError(`${method} ${path}: the client is closed (close() was called); make a new one`);
    }
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    for (let attempt = 0; ; attempt++) {
      try {
        return (await this.once(method, path, payload, options)) as T;
      } catch (error) {
        const verdict = retryVerdict(error, options.safe);
        if (verdict === "effect unknown") {
          (error as HourglassError).message +=
            `; not retried: ${method} ${path} is not safe to repeat and its effect is unknown (it may have been done)`;
        }
        if (verdict !== "retry" || attempt >= this.retries || options.signal?.aborted) {
          throw error;
        }
        const delayMs = this.delay(attempt, error as HourglassError);
        this.onRetry?.(error as HourglassError, attempt + 1, delayMs);
        await sleep(delayMs, options.signal);
      }
    }
  }

  /**
   * Closes the idle connections, and each connection a request in flight gives back once it is answered; requests
   * in flight finish (with their retries). A request made after this fails at once with ClientClosedError.
   */
  close(): void {
    this.closed = true;
    this.destroyIdle();
  }

  private destroyIdle(): void {
    for (const sockets of Object.values(this.agent.freeSockets)) {
      [...(sockets ?? [])].forEach((socket) => socket.destroy());
    }
  }

  private delay(attempt: number, error: HourglassError): number {
    if (error instanceof RateLimitedError && error.retryAfterMs !== undefined) {
      return error.retryAfterMs;
    }
    const ceiling = Math.min(this.maxDelayMs, this.minDelayMs * 2 ** attempt);
    return ceiling / 2 + (Math.random() * ceiling) / 2;
  }

  private once(method: string, path: string, payload: string | undefined, options: RequestOptions): Promise<unknown> {
    const { signal } = options;
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortReason(signal));
        return;
      }
      const headers: Record<string, string | number> = { ...this.headers };
      if (payload !== undefined) {
        headers["content-type"] = "application/json";
        headers["content-length"] = Buffer.byteLength(payload);
      }
      const request = this.protocol.request(
        { agent: this.agent, host: this.host, port: this.port, method, path: this.prefix + path, headers },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("error", (error) => fail(error));
          response.on("end", () => {
            signal?.removeEventListener("abort", onAbort);
            try {
              resolve(decode(response, Buffer.concat(chunks).toString("utf8")));
            } catch (error) {
              reject(error);
            }
          });
        },
      );
      // sent: the connection was open when the request was given to it, so the server may have it
      let sent = false;
      request.once("socket", (socket) => {
        if (request.reusedSocket || !socket.connecting) {
          sent = true;
        } else {
          socket.once(this.protocol === https ? "secureConnect" : "connect", () => (sent = true));
        }
      });
      const fail = (error: unknown): void => {
        signal?.removeEventListener("abort", onAbort);
        reject(wrap(error, method, path, sent));
      };
      const onAbort = (): void => {
        request.destroy();
        reject(abortReason(signal as AbortSignal));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const timeoutMs = this.timeoutMs + (options.holdMs ?? 0);
      request.setTimeout(timeoutMs, () =>
        request.destroy(new TimeoutError(`${method} ${path}: no answer within ${timeoutMs} ms`)),
      );
      request.on("error", fail);
      request.end(payload);
    });
  }
}

function decode(response: http.IncomingMessage, text: string): unknown {
  const status = response.statusCode ?? 0;
  if (status >= 200 && status < 300) {
    return text.length === 0 ? undefined : JSON.parse(text);
  }
  const retryAfter = response.headers["retry-after"];
  throw errorFromAnswer(status, text, Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
}

/**
 * Whether a failed request is sent again: "retry" when nothing was done (a connection that could not be opened, a
 * 429) or a repeat is safe; "effect unknown" when a 503 or a lost connection leaves it unknown and it is not safe.
 */
function retryVerdict(error: unknown, safe: boolean): "retry" | "effect unknown" | "final" {
  if (error instanceof ConnectionError) {
    if (!RETRIED_CODES.has((error.cause as NodeJS.ErrnoException).code ?? "")) {
      return "final";
    }
    return !error.sent || safe ? "retry" : "effect unknown";
  }
  if (error instanceof RateLimitedError) {
    return "retry";
  }
  if (error instanceof HourglassError && error.status === 503) {
    return safe ? "retry" : "effect unknown";
  }
  return "final";
}

function wrap(error: unknown, method: string, path: string, sent: boolean): unknown {
  if (error instanceof HourglassError) {
    return error;
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code === "string") {
    const when = sent ? "connection lost after the request was sent" : "no connection";
    return new ConnectionError(`${method} ${path}: ${when}: ${code} (${(error as Error).message})`, error, sent);
  }
  return error;
}

function abortReason(signal: AbortSignal): unknown {
  if (signal.reason !== undefined) {
    return signal.reason;
  }
  const error = new Error("the request was aborted");
  error.name = "AbortError";
  return error;
}

/** Waits `ms`, or less when the signal aborts (then resolves too: the caller checks the signal). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new TypeError(`${name}: must be a number > 0, was ${value}`);
  }
  return value;
}

/** `?a=1&b=x` of the defined values. */
export function query(params: Record<string, string | number | boolean | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) {
      search.set(name, String(value));
    }
  }
  const text = search.toString();
  return text.length === 0 ? "" : `?${text}`;
}
