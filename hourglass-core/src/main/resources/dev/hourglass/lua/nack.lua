--- @include "partition"
--- @include "record"
--- @include "jobs"
--- @include "place"
-- nack: a delivery failed; retry the job after a delay, or move it to dead.
-- KEYS[1..10] the partition keys; KEYS[11] the job's pool HASH; KEYS[12] a candidate slot LIST for the retry.
-- ARGV[1] pools S; ARGV[2] id; ARGV[3] receipt; ARGV[4] error text; ARGV[5] retry delay ms (the client computes it
--   from the job's backoff); ARGV[6] '1' to kill the job now; ARGV[7] candidate slot start ms; ARGV[8] slot
--   lookahead ms.
-- Reply: { status, outcome ('retry'|'dead'), due ms of the retry or time of death }
load_meta(false)
local id, receipt = ARGV[2], ARGV[3]
local pool_key = KEYS[FIRST_EXTRA_KEY]
local refusal = lease_refusal(pool_key, id, receipt)
if refusal then return { refusal } end
local now = now_ms()
local rec = redis.call('HGET', pool_key, id)
local j = decode(rec)
j.attempts = j.attempts + 1
j.err = ARGV[4]
redis.call('ZREM', K_INFLIGHT, id)
redis.call('HDEL', K_LEASES, id)
if ARGV[6] == '1' or j.attempts >= j.max_attempts then
  local finished = encode(j, rec)
  redis.call('HSET', pool_key, id, finished)
  outbox_add(id, finished, 'dead')
  redis.call('ZADD', K_DEAD, now, id)
  redis.call('HINCRBY', K_STATS, 'dead', 1)
  promoter_due(now) -- dead-letter retention by count is checked on the promoter's next pass
  return { OK, 'dead', now }
end
j.due = now + tonumber(ARGV[5])
redis.call('HSET', pool_key, id, encode(j, rec))
place(id, j.due, now, KEYS[FIRST_EXTRA_KEY + 1], tonumber(ARGV[7]), tonumber(ARGV[8]))
redis.call('HINCRBY', K_STATS, 'retried', 1)
return { OK, 'retry', j.due }
