-- get: read one job and its state atomically.
-- KEYS[1..10] the partition keys; KEYS[11] the job's pool HASH.
-- ARGV[1] pools S; ARGV[2] id.
-- Reply: { status, record, state, lease deadline or time of death (0 otherwise) }. A job past its ttl that the
-- promoter has not swept yet is reported as not found.
load_meta(false)
local id = ARGV[2]
local rec = redis.call('HGET', KEYS[FIRST_EXTRA_KEY], id)
if not rec then return { NOT_FOUND } end
local j = decode(rec)
local now = now_ms()
if j.expire > 0 and j.expire <= now then return { NOT_FOUND } end
local state = state_of(id, now)
local at = 0
if state == 'inflight' then at = redis.call('ZSCORE', K_INFLIGHT, id) end
if state == 'dead' then at = redis.call('ZSCORE', K_DEAD, id) end
return { OK, rec, state, tonumber(at) }
