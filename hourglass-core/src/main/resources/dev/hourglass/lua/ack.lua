--- @include "partition"
-- ack: finish deliveries; each job is gone. One call settles one or many jobs of the partition.
-- KEYS[1..10] the partition keys; then KEYS[10+g] the pool HASH of group g (1-based).
-- ARGV[1] pools S; ARGV[2] G, the number of groups; then per group g its job count c, followed by c pairs: a member
--   (of a job in that group's pool), the receipt of its delivery. A member appears at most once with one
--   receipt: of two deliveries of one job in a call, at most one holds its lease.
-- Reply: { OK, then per job not acked: its index (1-based, in ARGV order), its status: 1 not found, 2 stale
--   receipt (the job lives, but this delivery no longer holds it) }.
load_meta(false)
local groups = tonumber(ARGV[2])
-- Every member first, for one HMGET of their leases.
local members, n, a = {}, 0, 3
for _ = 1, groups do
  local c = tonumber(ARGV[a])
  for x = 1, c do members[n + x] = ARGV[a + 2 * x - 1] end
  n, a = n + c, a + 1 + 2 * c
end
local current = redis.call('HMGET', K_LEASES, unpack(members, 1, n))
local reply, r = { OK }, 1 -- r: length of reply (counters instead of #t, which costs a search per use)
local done, n_done = {}, 0
local i = 0
a = 3
for g = 1, groups do
  local key, c = KEYS[10 + g], tonumber(ARGV[a])
  local acked, n_acked = {}, 0
  for x = 1, c do
    i = i + 1
    local m = members[i]
    if current[i] == ARGV[a + 2 * x] then
      n_acked = n_acked + 1
      acked[n_acked] = m
    else
      local status = NOT_FOUND
      if redis.call('HEXISTS', key, m) == 1 then status = STALE end
      reply[r + 1], reply[r + 2] = i, status
      r = r + 2
    end
  end
  if n_acked > 0 then
    if M_ARCHIVE then
      local recs = redis.call('HMGET', key, unpack(acked, 1, n_acked))
      for x = 1, n_acked do outbox_add(acked[x], recs[x], 'acked') end
    end
    redis.call('HDEL', key, unpack(acked, 1, n_acked))
    for x = 1, n_acked do done[n_done + x] = acked[x] end
    n_done = n_done + n_acked
  end
  a = a + 1 + 2 * c
end
if n_done > 0 then
  redis.call('ZREM', K_INFLIGHT, unpack(done, 1, n_done))
  redis.call('HDEL', K_LEASES, unpack(done, 1, n_done))
  if redis.call('ZCARD', K_TTL) > 0 then redis.call('ZREM', K_TTL, unpack(done, 1, n_done)) end
  redis.call('HINCRBY', K_STATS, 'acked', n_done)
end
return reply
