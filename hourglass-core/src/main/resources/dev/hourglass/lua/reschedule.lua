--- @include "partition"
--- @include "record"
--- @include "jobs"
--- @include "place"
-- reschedule: give a delayed or ready job a new due time.
-- KEYS[1..13] the partition keys; KEYS[14] the job's pool HASH; KEYS[15] the slot LIST the caller expects the new
--   due time to fall in (see placement() in place.lua).
-- ARGV[1] pools S; ARGV[2] member; ARGV[3] mode ('d' delay | 'a' absolute); ARGV[4] time value ms;
--   ARGV[5] that slot list's start ms; ARGV[6] slot width ms.
-- Reply: { status, state, due ms, the updated record } with status 0 ok, 1 not found, 3 inflight, 5 dead.
load_meta(false)
local m = ARGV[2]
local pool_key = KEYS[FIRST_EXTRA_KEY]
local rec = redis.call('HGET', pool_key, m)
if not rec then return { NOT_FOUND } end
if redis.call('ZSCORE', K_INFLIGHT, m) then return { INFLIGHT } end
if redis.call('ZSCORE', K_DEAD, m) then return { DEAD } end
local now = now_ms()
local j = decode(rec)
j.due = tonumber(ARGV[4])
if ARGV[3] == 'd' then j.due = now + j.due end
local updated = encode(j, rec)
redis.call('HSET', pool_key, m, updated)
-- An entry in a slot list stays behind; it is skipped or loads the job early into near (see catch_up.lua).
local prio = math.floor(j.flags / 16)
unwait(m, prio)
local state = place(m, j.due, now, tonumber(ARGV[6]), { [tonumber(ARGV[5])] = KEYS[FIRST_EXTRA_KEY + 1] }, prio)
return { OK, state, j.due, updated }
