--- @include "partition"
-- ack: finish deliveries; each job is gone. One call settles one or many jobs of the partition.
-- KEYS[1..10] the partition keys; then KEYS[10+i] the pool HASH of job i (1-based, in ARGV order).
-- ARGV[1] pools S; ARGV[2] count n; then per job i: ARGV[1+2i] id, ARGV[2+2i] receipt.
-- Reply: { OK, then per job a status: 0 acked, 1 not found, 2 stale receipt (the job lives, but this delivery no
--   longer holds it) }.
load_meta(false)
local n = tonumber(ARGV[2])
local ids = {}
for i = 1, n do ids[i] = ARGV[1 + 2 * i] end
local current = redis.call('HMGET', K_LEASES, unpack(ids))
local reply, done, by_pool, seen = { OK }, {}, {}, {}
local n_done = 0 -- counters instead of #t, which costs a search per use
for i = 1, n do
  local id, pool_key = ids[i], KEYS[10 + i]
  if seen[id] then
    reply[i + 1] = NOT_FOUND -- acked earlier in this same call
  elseif current[i] == ARGV[2 + 2 * i] then
    seen[id] = true
    reply[i + 1] = OK
    n_done = n_done + 1
    done[n_done] = id
    local list = by_pool[pool_key]
    if not list then list = { n = 0 }; by_pool[pool_key] = list end
    list.n = list.n + 1
    list[list.n] = id
  elseif redis.call('HEXISTS', pool_key, id) == 1 then
    reply[i + 1] = STALE
  else
    reply[i + 1] = NOT_FOUND
  end
end
if n_done > 0 then
  for pool_key, list in pairs(by_pool) do
    if M_ARCHIVE then
      local recs = redis.call('HMGET', pool_key, unpack(list, 1, list.n))
      for k = 1, list.n do outbox_add(list[k], recs[k], 'acked') end
    end
    redis.call('HDEL', pool_key, unpack(list, 1, list.n))
  end
  redis.call('ZREM', K_INFLIGHT, unpack(done))
  redis.call('HDEL', K_LEASES, unpack(done))
  redis.call('ZREM', K_TTL, unpack(done))
  redis.call('HINCRBY', K_STATS, 'acked', n_done)
end
return reply
