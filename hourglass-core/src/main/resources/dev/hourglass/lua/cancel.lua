--- @include "partition"
--- @include "jobs"
-- cancel: remove a job that is delayed, ready or dead. A leased job belongs to its consumer and is refused.
-- KEYS[1..13] the partition keys; KEYS[14] the job's pool HASH.
-- ARGV[1] pools S; ARGV[2] member.
-- Reply: { status } 0 cancelled, 1 not found, 3 inflight.
load_meta(false)
local m = ARGV[2]
local pool_key = KEYS[FIRST_EXTRA_KEY]
if redis.call('HEXISTS', pool_key, m) == 0 then return { NOT_FOUND } end
if redis.call('ZSCORE', K_INFLIGHT, m) then return { INFLIGHT } end
drop(pool_key, m, 'cancelled')
redis.call('HINCRBY', K_STATS, 'cancelled', 1)
return { OK }
