--- @include "partition"
--- @include "pools"
--- @include "record"
-- dead_requeue: make dead jobs ready again (in near, due now) with their attempts reset (last error kept).
-- KEYS[1..10] the partition keys; KEYS[11..10+S] every pool HASH in index order.
-- ARGV[1] pools S; ARGV[2] id, or '' for the oldest dead jobs; ARGV[3] limit (with '').
-- Reply: { status, count requeued } (status 1 when the given id is not dead).
load_meta(false)
local id, limit = ARGV[2], tonumber(ARGV[3])
local ids
if id ~= '' then
  if not redis.call('ZSCORE', K_DEAD, id) then return { NOT_FOUND, 0 } end
  ids = { id }
else
  ids = redis.call('ZRANGE', K_DEAD, 0, limit - 1)
end
local now = now_ms()
for _, jid in ipairs(ids) do
  local pool_key = pool_of(jid)
  local rec = redis.call('HGET', pool_key, jid)
  redis.call('ZREM', K_DEAD, jid)
  if rec then
    local j = decode(rec)
    j.attempts = 0
    j.due = now
    redis.call('HSET', pool_key, jid, encode(j, rec))
    redis.call('ZADD', K_NEAR, now, jid)
  end
end
wake(#ids)
return { OK, #ids }
