--- @include "partition"
--- @include "record"
--- @include "jobs"
-- get: read one job and its state atomically. The state follows the server clock wherever the job waits: a job
-- whose due time has passed is ready, in near, K_PRIO or a slot list (the first claim loads it).
-- KEYS[1..13] the partition keys; KEYS[14] the job's pool HASH.
-- ARGV[1] pools S; ARGV[2] member; ARGV[3] '1' to report a job past its ttl that nothing has swept yet (a nack needs
--   its attempts while its lease still holds it), else '0'.
-- Reply: { status, record, state, lease deadline or time of death (0 otherwise) }. A job past its ttl is reported
-- as not found, swept or not, unless ARGV[3] asks.
load_meta(false)
local m = ARGV[2]
local rec = redis.call('HGET', KEYS[FIRST_EXTRA_KEY], m)
if not rec then return { NOT_FOUND } end
local j = decode(rec)
local now = now_ms()
if j.expire > 0 and j.expire <= now and ARGV[3] ~= '1' then return { NOT_FOUND } end
local state = state_of(m, j.due, now, math.floor(j.flags / 16))
local at = 0
if state == 'inflight' then at = redis.call('ZSCORE', K_INFLIGHT, m) end
if state == 'dead' then at = redis.call('ZSCORE', K_DEAD, m) end
return { OK, rec, state, tonumber(at) }
