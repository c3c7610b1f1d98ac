// Collects a worker's acks and sends them through the batch ack endpoint: at once when no batch is in flight, else
// together as the next batch as soon as the one in flight is answered. So an ack waits at most one round trip, and
// under load the batches grow by themselves (up to the API's 1,000).

import type { Ack } from "./types.js";
import type { AckResult } from "./queue.js";

const MAX_BATCH = 1000;

export interface AckSink {
  ackBatch(acks: readonly Ack[]): Promise<AckResult[]>;
}

export class AckBatcher {
  private pending: Ack[] = [];
  private inFlight: Promise<void> | undefined;
  private scheduled = false;
  /** Acks the server confirmed. */
  acked = 0;
  /** Batch requests sent. */
  batches = 0;

  constructor(
    private readonly sink: AckSink,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Queues an ack; it is sent with the acks that arrive in the same turn of the event loop. */
  add(ack: Ack): void {
    this.pending.push(ack);
    if (this.inFlight === undefined && !this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.send();
      });
    }
  }

  /** Resolves when every ack added so far has been answered (or failed and been reported). */
  async flush(): Promise<void> {
    while (this.inFlight !== undefined || this.pending.length > 0) {
      if (this.inFlight === undefined) {
        this.send();
      }
      await this.inFlight;
    }
  }

  private send(): void {
    if (this.inFlight !== undefined || this.pending.length === 0) {
      return;
    }
    const batch = this.pending.splice(0, MAX_BATCH);
    this.batches++;
    this.inFlight = this.sink
      .ackBatch(batch)
      .then(
        (results) => {
          for (const result of results) {
            if (result.error === undefined) {
              this.acked++;
            } else {
              this.onError(result.error);
            }
          }
        },
        (error: unknown) => this.onError(error),
      )
      .finally(() => {
        this.inFlight = undefined;
        this.send();
      });
  }
}
