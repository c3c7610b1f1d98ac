// A queue's dead letters: jobs that used up their attempts or were nacked dead.

import { query, type Transport } from "./transport.js";
import type { Job, Page, PageOptions } from "./types.js";

export class DeadLetters<P = unknown> {
  constructor(
    private readonly transport: Transport,
    private readonly queuePath: string,
  ) {}

  /** A page of dead jobs, by time of death. */
  list(page: PageOptions = {}): Promise<Page<Job<P>>> {
    return this.transport.request("GET", `${this.queuePath}/dead${query({ ...page })}`, { safe: true });
  }

  /** Makes one dead job ready again, its attempts reset; JobNotFoundError when it is not dead here. */
  async requeue(id: string): Promise<void> {
    await this.transport.request("POST", `${this.queuePath}/dead/${encodeURIComponent(id)}/requeue`, {
      safe: true,
    });
  }

  /** Makes every dead job ready again; resolves how many. */
  async requeueAll(): Promise<number> {
    const answer = await this.transport.request<{ count: number }>("POST", `${this.queuePath}/dead/requeue`, {
      safe: false, // a repeat would requeue the jobs that died since
    });
    return answer.count;
  }

  /** Deletes every dead job; resolves how many. (One dead job goes with the queue's `cancel(id)`.) */
  async purge(): Promise<number> {
    const answer = await this.transport.request<{ count: number }>("DELETE", `${this.queuePath}/dead`, {
      safe: false, // a repeat would delete the jobs that died since
    });
    return answer.count;
  }
}
