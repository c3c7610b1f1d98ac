-- dead_purge: delete the oldest dead jobs for good.
-- KEYS[1..11] the partition keys; KEYS[12..11+S] every pool HASH in index order.
-- ARGV[1] pools S; ARGV[2] limit.
-- Reply: { status, count deleted }
check_pools(false)
local ids = redis.call('ZRANGE', K_DEAD, 0, tonumber(ARGV[2]) - 1)
for _, id in ipairs(ids) do drop(KEYS[FIRST_EXTRA_KEY + pool_index(id)], id) end
return { OK, #ids }
