// A queue's schedules: recurring jobs, one per occurrence of a cron expression or a fixed interval.

import type { Transport } from "./transport.js";
import type { Schedule, ScheduleSpec } from "./types.js";

export class Schedules<P = unknown> {
  constructor(
    private readonly transport: Transport,
    private readonly queuePath: string,
  ) {}

  /** Creates or replaces the schedule `id` (`[A-Za-z0-9._-]{1,100}`); the same put twice leaves one schedule. */
  put(id: string, spec: ScheduleSpec<P>): Promise<Schedule<P>> {
    return this.transport.request("PUT", this.path(id), { body: spec, safe: true });
  }

  /** The schedule with its next runs; ScheduleNotFoundError when there is none. */
  get(id: string): Promise<Schedule<P>> {
    return this.transport.request("GET", this.path(id), { safe: true });
  }

  async list(): Promise<Schedule<P>[]> {
    const answer = await this.transport.request<{ schedules: Schedule<P>[] }>("GET", `${this.queuePath}/schedules`, {
      safe: true,
    });
    return answer.schedules;
  }

  /** Enqueues no occurrence until resumed (its pending one is removed). */
  pause(id: string): Promise<Schedule<P>> {
    return this.transport.request("POST", `${this.path(id)}/pause`, { safe: true });
  }

  /** Enqueues the next occurrence after now. */
  resume(id: string): Promise<Schedule<P>> {
    return this.transport.request("POST", `${this.path(id)}/resume`, { safe: true });
  }

  /** Deletes the schedule and its pending occurrence; a delivered occurrence finishes normally. */
  async delete(id: string): Promise<void> {
    await this.transport.request("DELETE", this.path(id), { safe: true });
  }

  private path(id: string): string {
    return `${this.queuePath}/schedules/${encodeURIComponent(id)}`;
  }
}
