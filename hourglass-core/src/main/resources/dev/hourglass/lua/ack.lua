--- @include "partition"
--- @include "limits"
-- ack: finish deliveries; each job is gone. One call settles one or many jobs of the partition.
-- KEYS[1..13] the partition keys; then KEYS[13+g] the pool HASH of group g (1-based).
-- ARGV[1] pools S; ARGV[2] G, the number of groups; ARGV[3..2+G] each group's job count; ARGV[3+G] the jobs, group
--   by group, each struct '<Bc0Bc0': a member (of a job in its group's pool), the lease token of its delivery. A
--   member appears at most once with one token: of two deliveries of one job in a call, at most one holds its
--   lease.
-- Reply: { OK, then per job not acked: its index (1-based, in the order sent), its status: 1 not found, 2 stale
--   receipt (the job lives, but this delivery no longer holds it) }.
local ACK = '<Bc0Bc0'
load_meta_bound()
local groups = tonumber(ARGV[2])
local blob = ARGV[3 + groups]
local call, unpack_ack = redis.call, struct.unpack
-- Every member first, for one HMGET of their leases.
local members, tokens, n, pos = {}, {}, 0, 1
for g = 1, groups do
  for _ = 1, tonumber(ARGV[2 + g]) do
    n = n + 1
    members[n], tokens[n], pos = unpack_ack(ACK, blob, pos)
  end
end
local current = call('HMGET', K_LEASES, unpack(members, 1, n))
local reply, r = { OK }, 1 -- r: length of reply (counters instead of #t, which costs a search per use)
-- The acked members, in order: members itself until a token is refused (nearly never), then a copy.
local acked, a, from = members, 1, 1
for g = 1, groups do
  local key, c = KEYS[FIRST_EXTRA_KEY - 1 + g], tonumber(ARGV[2 + g])
  local first = a
  for i = from, from + c - 1 do
    if current[i] == tokens[i] then
      if acked ~= members then acked[a] = members[i] end
      a = a + 1
    else
      if acked == members then
        acked = {}
        for x = 1, a - 1 do acked[x] = members[x] end
      end
      local status = NOT_FOUND
      if call('HEXISTS', key, members[i]) == 1 then status = STALE end
      reply[r + 1], reply[r + 2] = i, status
      r = r + 2
    end
  end
  if a > first then
    if M_ARCHIVE then
      local recs = call('HMGET', key, unpack(acked, first, a - 1))
      for x = first, a - 1 do outbox_add(acked[x], recs[x - first + 1], 'acked') end
    end
    call('HDEL', key, unpack(acked, first, a - 1))
  end
  from = from + c
end
local n_acked = a - 1
if n_acked > 0 then
  call('ZREM', K_INFLIGHT, unpack(acked, 1, n_acked))
  call('HDEL', K_LEASES, unpack(acked, 1, n_acked))
  if call('ZCARD', K_TTL) > 0 then call('ZREM', K_TTL, unpack(acked, 1, n_acked)) end
  call('HINCRBY', K_STATS, 'acked', fmt(n_acked))
  limits_freed(n_acked)
end
return reply
