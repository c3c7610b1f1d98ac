--- @include "partition"
--- @include "pools"
--- @include "jobs"
-- dead_purge: delete the oldest dead jobs for good.
-- KEYS[1..13] the partition keys; KEYS[14..13+S] every pool HASH in index order.
-- ARGV[1] pools S; ARGV[2] limit.
-- Reply: { status, count deleted }
load_meta(false)
local members = redis.call('ZRANGE', K_DEAD, 0, tonumber(ARGV[2]) - 1)
for _, m in ipairs(members) do drop(pool_of(m), m, 'purged') end
if #members > 0 then redis.call('HINCRBY', K_STATS, 'purged', #members) end
return { OK, #members }
