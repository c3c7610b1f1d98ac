-- queue_upsert: create a queue or update its settings. Not a partition script: no prelude keys.
-- KEYS[1] the queue registry SET; KEYS[2] the queue's settings HASH (both tagged {meta}).
-- ARGV[1] queue name; ARGV[2] '1' create only (leave an existing queue as it is); ARGV[3..] field, value pairs.
--   Fields 'partitions' and 'pools' are fixed at creation: a different value for an existing queue is refused.
--   Creating a queue also writes 'poolMap' = 'staggered' (layout 3: pools of staggered sizes, see pool_index in
--   prelude.lua); a queue created before has no such field and keeps even pools. Callers never send it.
-- Reply: { created (1|0), the settings HASH as a flat field/value array after the call }
local exists = redis.call('EXISTS', KEYS[2]) == 1
if exists and ARGV[2] == '1' then return { 0, redis.call('HGETALL', KEYS[2]) } end
for i = 3, #ARGV, 2 do
  local field, value = ARGV[i], ARGV[i + 1]
  if exists and (field == 'partitions' or field == 'pools') then
    local stored = redis.call('HGET', KEYS[2], field)
    if stored and stored ~= value then
      return redis.error_reply('HG_IMMUTABLE ' .. field .. ' of queue ' .. ARGV[1] .. ' is ' .. stored
        .. ' and cannot change to ' .. value)
    end
  end
end
for i = 3, #ARGV, 2 do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
if not exists then redis.call('HSET', KEYS[2], 'poolMap', 'staggered') end
redis.call('SADD', KEYS[1], ARGV[1])
local created = 0
if not exists then created = 1 end
return { created, redis.call('HGETALL', KEYS[2]) }
