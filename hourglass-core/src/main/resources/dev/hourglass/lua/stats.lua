-- stats: counts per state and counters of one partition, read atomically.
-- KEYS[1..10] the partition keys.
-- ARGV[1] pools S.
-- Reply: { ready, inflight, dead, stats HASH as a flat field/value array (enqueued, acked, ...) }
load_meta(false)
return { redis.call('ZCARD', K_READY), redis.call('ZCARD', K_INFLIGHT), redis.call('ZCARD', K_DEAD),
  redis.call('HGETALL', K_STATS) }
