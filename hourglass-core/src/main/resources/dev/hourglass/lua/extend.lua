--- @include "partition"
--- @include "jobs"
-- extend: push the lease deadline of a delivery to now + visibility.
-- KEYS[1..13] the partition keys; KEYS[14] the job's pool HASH.
-- ARGV[1] pools S; ARGV[2] member; ARGV[3] lease token; ARGV[4] visibility ms.
-- Reply: { status, new deadline ms }
load_meta(false)
local m, token = ARGV[2], ARGV[3]
local refusal = lease_refusal(KEYS[FIRST_EXTRA_KEY], m, token)
if refusal then return { refusal } end
local deadline = now_ms() + tonumber(ARGV[4])
redis.call('ZADD', K_INFLIGHT, deadline, m)
-- A shortened lease must still be swept on time.
clock_work_at(deadline)
promoter_due(deadline)
return { OK, deadline }
