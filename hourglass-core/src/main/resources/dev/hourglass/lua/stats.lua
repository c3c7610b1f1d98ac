-- stats: counts per state and counters of one partition, read atomically.
-- KEYS[1..10] the partition keys.
-- ARGV[1] pools S.
-- Reply: { ready, inflight, dead, stats HASH as a flat field/value array (enqueued, acked, ...) }
--   Ready: the jobs in near that are due by the server clock, and any a layout-1 client left in ready.
load_meta(false)
local ready = redis.call('ZCOUNT', K_NEAR, '-inf', now_ms()) + redis.call('ZCARD', K_READY)
return { ready, redis.call('ZCOUNT', K_INFLIGHT, LEASES_FROM, '+inf'), redis.call('ZCARD', K_DEAD),
  redis.call('HGETALL', K_STATS) }
