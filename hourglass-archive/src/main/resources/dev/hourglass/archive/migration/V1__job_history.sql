-- One row per finished job record of the outbox: a job that finishes twice (dead, then purged) has two.
-- (queue, partition, record_id) is the outbox entry's identity, so storing a record again is a no-op.
CREATE TABLE hourglass_job_history (
  queue       text        NOT NULL,
  partition   integer     NOT NULL,
  record_id   text        NOT NULL,
  job_id      text        NOT NULL,
  outcome     text        NOT NULL CHECK (outcome IN ('acked', 'dead', 'cancelled', 'expired', 'purged')),
  finished_at timestamptz NOT NULL,
  created_at  timestamptz NOT NULL,
  run_at      timestamptz NOT NULL,
  attempts    integer     NOT NULL,
  last_error  text,
  payload     bytea       NOT NULL,
  PRIMARY KEY (queue, partition, record_id)
);

-- A queue's history, newest first, and the same for one outcome; the trailing columns are the page order's tiebreak.
CREATE INDEX hourglass_job_history_by_time
  ON hourglass_job_history (queue, finished_at DESC, partition DESC, record_id DESC);
CREATE INDEX hourglass_job_history_by_outcome
  ON hourglass_job_history (queue, outcome, finished_at DESC, partition DESC, record_id DESC);
-- The last record of a job id.
CREATE INDEX hourglass_job_history_by_job
  ON hourglass_job_history (queue, job_id, finished_at DESC);
-- Retention deletes the oldest rows of every queue.
CREATE INDEX hourglass_job_history_by_age
  ON hourglass_job_history (finished_at);
