--- @include "partition"
--- @include "record"
--- @include "jobs"
--- @include "priority"
-- release: hand back a delivery that was never started (its worker is closing, or its caller gave up): the job is
-- ready again at once (in near, or K_PRIO, at its due time) and the attempt does not count.
-- KEYS[1..13] the partition keys; KEYS[14] the job's pool HASH.
-- ARGV[1] pools S; ARGV[2] member; ARGV[3] lease token.
-- Reply: { status } 0 released, 1 not found, 2 stale receipt.
load_meta(false)
local m, token = ARGV[2], ARGV[3]
local pool_key = KEYS[FIRST_EXTRA_KEY]
local refusal = lease_refusal(pool_key, m, token)
if refusal then return { refusal } end
redis.call('ZREM', K_INFLIGHT, m)
redis.call('HDEL', K_LEASES, m)
local rec = redis.call('HGET', pool_key, m)
wait_at(m, record_prio(rec), record_due(rec))
wake(1)
return { OK }
