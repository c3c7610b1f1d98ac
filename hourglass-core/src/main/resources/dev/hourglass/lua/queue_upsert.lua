-- queue_upsert: create a queue or update its settings. Not a partition script.
-- KEYS[1] the queue registry SET; KEYS[2] the queue's settings HASH; KEYS[3] the settings version counter, raised
--   by every change to any queue's settings so that clients know when their cached copies are stale (all three
--   tagged {meta}); KEYS[4] the outbox bound STRING (present while finished jobs are recorded for an archive).
-- ARGV[1] queue name; ARGV[2] '1' create only (leave an existing queue as it is); ARGV[3..] field, value pairs.
--   Fields 'partitions' and 'pools' are fixed at creation: a different value for an existing queue is refused.
-- Reply: { created (1|0), the settings version after the call, the settings HASH as a flat field/value array, the
--   outbox bound or 0, the fields whose stored value this call changed }
local exists = redis.call('EXISTS', KEYS[2]) == 1
if exists and ARGV[2] == '1' then
  return { 0, tonumber(redis.call('GET', KEYS[3]) or '0'), redis.call('HGETALL', KEYS[2]),
    tonumber(redis.call('GET', KEYS[4]) or '0'), {} }
end
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
local changed = {}
for i = 3, #ARGV, 2 do
  if redis.call('HGET', KEYS[2], ARGV[i]) ~= ARGV[i + 1] then
    changed[#changed + 1] = ARGV[i]
    redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1])
  end
end
redis.call('SADD', KEYS[1], ARGV[1])
local version = redis.call('INCR', KEYS[3])
local created = 0
if not exists then created = 1 end
return { created, version, redis.call('HGETALL', KEYS[2]), tonumber(redis.call('GET', KEYS[4]) or '0'), changed }
