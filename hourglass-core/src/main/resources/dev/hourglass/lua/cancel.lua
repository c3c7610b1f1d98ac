--- @include "partition"
--- @include "jobs"
--- @include "pools"
--- @include "schedule"
-- cancel: remove a job that is delayed, ready or dead. A leased job belongs to its consumer and is refused.
-- KEYS[1..13] the partition keys; KEYS[14..13+S] every pool HASH in index order (a
-- cancelled occurrence of a schedule enqueues the next, in any pool: schedule.lua).
-- ARGV[1] pools S; ARGV[2] member.
-- Reply: { status } 0 cancelled, 1 not found, 3 inflight.
load_meta(false)
local m = ARGV[2]
local pool_key = pool_of(m)
if redis.call('HEXISTS', pool_key, m) == 0 then return { NOT_FOUND } end
if redis.call('ZSCORE', K_INFLIGHT, m) then return { INFLIGHT } end
drop(pool_key, m, 'cancelled')
redis.call('HINCRBY', K_STATS, 'cancelled', 1)
sched_left(m, now_ms())
return { OK }
