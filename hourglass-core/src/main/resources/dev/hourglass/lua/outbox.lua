--- @include "partition"
-- outbox: read a partition's outbox of finished jobs (see outbox_add in partition.lua), mark whether the partition
-- records them, or remove records an archiver has stored.
-- KEYS[1..13] the partition keys.
-- ARGV[1] pools S; ARGV[2] 'read' or 'remove'.
--   read: ARGV[3] the bound to record with (> 0 sets meta.archive, creating the partition if need be; 0 leaves it
--     as it is; -1 stops recording); ARGV[4] the most records to return, oldest first (0: only the sizes).
--   remove: ARGV[3..] the record ids to delete (ids no longer there are skipped).
-- Reply read: { OK, records waiting, records dropped past the bound, then per record its id and its fields as a
--   flat field/value array }; remove: { OK, records deleted }.
if ARGV[2] == 'remove' then
  load_meta(false)
  if #ARGV < 3 then return { OK, 0 } end
  return { OK, redis.call('XDEL', K_OUTBOX, unpack(ARGV, 3)) }
end
local bound = tonumber(ARGV[3])
load_meta(bound > 0)
if bound > 0 and M_ARCHIVE ~= bound then
  redis.call('HSET', K_META, 'archive', bound)
  if redis.call('XLEN', K_OUTBOX) > bound then redis.call('XTRIM', K_OUTBOX, 'MAXLEN', bound) end
elseif bound < 0 and M_ARCHIVE then
  redis.call('HDEL', K_META, 'archive')
end
local reply = { OK, redis.call('XLEN', K_OUTBOX), tonumber(redis.call('HGET', K_META, 'obd') or '0') }
local max = tonumber(ARGV[4])
if max > 0 then
  for _, entry in ipairs(redis.call('XRANGE', K_OUTBOX, '-', '+', 'COUNT', max)) do
    reply[#reply + 1] = entry[1]
    reply[#reply + 1] = entry[2]
  end
end
return reply
