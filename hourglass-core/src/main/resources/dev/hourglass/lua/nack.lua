--- @include "partition"
--- @include "record"
--- @include "jobs"
--- @include "place"
--- @include "limits"
-- nack: a delivery failed; retry the job after a delay (at its priority), or move it to dead.
-- KEYS[1..13] the partition keys; KEYS[14] the job's pool HASH; KEYS[15] the slot LIST the caller expects the retry
--   to fall in (see placement() in place.lua).
-- ARGV[1] pools S; ARGV[2] member; ARGV[3] lease token; ARGV[4] error text; ARGV[5] retry delay ms (the client
--   computes it from the job's backoff); ARGV[6] '1' to kill the job now; ARGV[7] that slot list's start ms;
--   ARGV[8] slot width ms.
-- Reply: { status, outcome ('retry'|'dead'), due ms of the retry or time of death }
load_meta(false)
local m, token = ARGV[2], ARGV[3]
local pool_key = KEYS[FIRST_EXTRA_KEY]
local refusal = lease_refusal(pool_key, m, token)
if refusal then return { refusal } end
local now = now_ms()
local rec = redis.call('HGET', pool_key, m)
local j = decode(rec)
j.attempts = j.attempts + 1
j.err = ARGV[4]
redis.call('ZREM', K_INFLIGHT, m)
redis.call('HDEL', K_LEASES, m)
limits_freed(1)
if ARGV[6] == '1' or j.attempts >= j.max_attempts then
  local finished = encode(j, rec)
  redis.call('HSET', pool_key, m, finished)
  outbox_add(m, finished, 'dead')
  redis.call('ZADD', K_DEAD, now, m)
  redis.call('HINCRBY', K_STATS, 'dead', 1)
  promoter_due(now) -- dead-letter retention by count is checked on the promoter's next pass
  return { OK, 'dead', now }
end
j.due = now + tonumber(ARGV[5])
redis.call('HSET', pool_key, m, encode(j, rec))
place(m, j.due, now, tonumber(ARGV[8]), { [tonumber(ARGV[7])] = KEYS[FIRST_EXTRA_KEY + 1] }, math.floor(j.flags / 16))
redis.call('HINCRBY', K_STATS, 'retried', 1)
return { OK, 'retry', j.due }
