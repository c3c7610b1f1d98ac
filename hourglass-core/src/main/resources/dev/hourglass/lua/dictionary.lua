--- @include "partition"
-- dictionary: make a zstd dictionary the queue's current one, the dictionary its producers compress payloads with,
-- unless it has one already. Runs on partition 0, whose meta field zc names the current dictionary; a dictionary
-- lives in field z<id> of the meta hash of each partition holding payloads compressed with it (dictionary_held()
-- in dictionary.lua's include).
-- KEYS[1..13] partition 0's keys. ARGV[1] pools S; ARGV[2] the dictionary's id (decimal); ARGV[3] its bytes.
-- Reply: { OK, the current dictionary's id, and its bytes when that is another one }.
load_meta(true)
local current = redis.call('HGET', K_META, 'zc')
if current then
  if current == ARGV[2] then return { OK, tonumber(current) } end
  return { OK, tonumber(current), redis.call('HGET', K_META, 'z' .. current) }
end
redis.call('HSET', K_META, 'z' .. ARGV[2], ARGV[3], 'zc', ARGV[2])
return { OK, tonumber(ARGV[2]) }
