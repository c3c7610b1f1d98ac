-- queue_delete: remove a queue from the registry, after its partitions were dropped (drop.lua). Not a partition
-- script.
-- KEYS[1] the queue registry SET; KEYS[2] the queue's settings HASH; KEYS[3] the settings version counter, raised
--   so that every client reads the queue's settings again (and recreates the queue on its next use of it).
-- ARGV[1] queue name.
-- Reply: { the settings version after the call }.
redis.call('SREM', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[2])
return { redis.call('INCR', KEYS[3]) }
