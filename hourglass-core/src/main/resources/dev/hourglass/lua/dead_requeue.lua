--- @include "partition"
--- @include "pools"
--- @include "record"
--- @include "priority"
-- dead_requeue: make dead jobs ready again (in near, or K_PRIO, due now) with their attempts reset (last
-- error kept) and their priority.
-- KEYS[1..13] the partition keys; KEYS[14..13+S] every pool HASH in index order.
-- ARGV[1] pools S; ARGV[2] member, or '' for the oldest dead jobs; ARGV[3] limit (with '').
-- Reply: { status, count requeued } (status 1 when the given id is not dead).
load_meta(false)
local one, limit = ARGV[2], tonumber(ARGV[3])
local members
if one ~= '' then
  if not redis.call('ZSCORE', K_DEAD, one) then return { NOT_FOUND, 0 } end
  members = { one }
else
  members = redis.call('ZRANGE', K_DEAD, 0, limit - 1)
end
local now = now_ms()
for _, m in ipairs(members) do
  local pool_key = pool_of(m)
  local rec = redis.call('HGET', pool_key, m)
  redis.call('ZREM', K_DEAD, m)
  if rec then
    local j = decode(rec)
    j.attempts = 0
    j.due = now
    redis.call('HSET', pool_key, m, encode(j, rec))
    wait_at(m, math.floor(j.flags / 16), now)
  end
end
wake(#members)
return { OK, #members }
