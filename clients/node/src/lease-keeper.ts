// Keeps the leases of the jobs a worker holds (waiting for a handler or running) from lapsing: every tick it extends
// each lease that has less than half its length left. Deadlines are counted on this machine's clock from the moment
// the claim or extend was sent, never compared with the server's `leaseUntil`, so clock skew does not matter.

import { StaleReceiptError } from "./errors.js";
import type { Delivery } from "./types.js";

export interface LeaseSink {
  extend(id: string, receipt: string, visibilityMs?: number): Promise<number>;
}

interface Held {
  delivery: Delivery<unknown>;
  /** Local time by which the lease surely lasts. */
  deadline: number;
  extending: boolean;
}

export class LeaseKeeper {
  private readonly held = new Map<string, Held>();
  private readonly timer: NodeJS.Timeout;
  /** Extensions the server granted. */
  extended = 0;

  constructor(
    private readonly sink: LeaseSink,
    private readonly visibilityMs: number,
    private readonly onError: (error: unknown, delivery: Delivery<unknown>) => void,
  ) {
    this.timer = setInterval(() => this.tick(), Math.min(1000, visibilityMs / 4));
    this.timer.unref();
  }

  /** Starts keeping the lease of a delivery whose claim was sent at `sentAt` (local ms). */
  hold(delivery: Delivery<unknown>, sentAt: number): void {
    this.held.set(delivery.receipt, { delivery, deadline: sentAt + this.visibilityMs, extending: false });
  }

  /** Stops keeping it: the job was settled. */
  release(delivery: Delivery<unknown>): void {
    this.held.delete(delivery.receipt);
  }

  stop(): void {
    clearInterval(this.timer);
    this.held.clear();
  }

  private tick(): void {
    const now = Date.now();
    for (const [receipt, held] of this.held) {
      if (!held.extending && held.deadline - now < this.visibilityMs / 2) {
        held.extending = true;
        void this.extend(receipt, held);
      }
    }
  }

  private async extend(receipt: string, held: Held): Promise<void> {
    const sentAt = Date.now();
    try {
      await this.sink.extend(held.delivery.id, receipt, this.visibilityMs);
      held.deadline = sentAt + this.visibilityMs;
      this.extended++;
    } catch (error) {
      if (error instanceof StaleReceiptError) {
        this.held.delete(receipt); // the lease is gone: nothing left to keep
      }
      this.onError(error, held.delivery);
    } finally {
      held.extending = false;
    }
  }
}
