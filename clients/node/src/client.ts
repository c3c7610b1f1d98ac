// The entry point: one Hourglass per server, holding the connections; queue handles share them.

import { Queue } from "./queue.js";
import { Transport, type TransportOptions } from "./transport.js";
import type { QueueCounts } from "./types.js";

export type HourglassOptions = TransportOptions;

export class Hourglass {
  private readonly transport: Transport;

  /** A client of the server at `options.url`; it opens connections as requests need them and keeps them alive. */
  constructor(options: HourglassOptions) {
    this.transport = new Transport(options);
  }

  /** A handle on the queue `name` (created by the server on its first enqueue, claim or put), typed by payload. */
  queue<P = unknown>(name: string): Queue<P> {
    return new Queue<P>(this.transport, name);
  }

  /** Every queue (that the token may use) with its counts. */
  async queues(): Promise<QueueCounts[]> {
    const answer = await this.transport.request<{ queues: QueueCounts[] }>("GET", "/v1/queues", { safe: true });
    return answer.queues;
  }

  /**
   * Closes the idle connections, and the others once their requests in flight are answered (those finish, with
   * their retries). Calls made afterwards fail with ClientClosedError. Stop workers first.
   */
  close(): void {
    this.transport.close();
  }
}
