--- @include "partition"
-- set_limits: set or remove a partition's share of its queue's flow-control limits (includes/limits.lua), as the
-- queue's settings hold them. Removing the rate limit deletes its delivery log. Wakes one consumer: a raised limit
-- may let held-back jobs through now, and a consumer held back sleeps until the time its last claim was told.
-- KEYS[1..13] the partition keys. ARGV[1] pools S; ARGV[2] rate max ('' for no rate limit); ARGV[3] rate period
--   ms; ARGV[4] concurrency ('' for none).
-- Reply: { OK }
load_meta(true)
if ARGV[2] == '' then
  redis.call('HDEL', K_META, 'rmax', 'rper')
  redis.call('DEL', K_RATE)
else
  redis.call('HSET', K_META, 'rmax', ARGV[2], 'rper', ARGV[3])
end
if ARGV[4] == '' then
  redis.call('HDEL', K_META, 'conc')
else
  redis.call('HSET', K_META, 'conc', ARGV[4])
end
wake(1)
return { OK }
