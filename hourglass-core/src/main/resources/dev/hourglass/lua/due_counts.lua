--- @include "partition"
--- @include "catch_up"
-- due_counts: how many delayed jobs of a partition fall due within each of some horizons from now (server clock), to
-- show the work to come. Jobs in near and K_PRIO count exactly, by due time. A slot list counts at its start (its jobs
-- fall due within one slot width after it) by its length, which still holds the entries a cancel or reschedule left
-- behind until the slot loads: past the first slot width, the counts are close, not exact.
-- KEYS[1..13] the partition keys; KEYS[14..13+S] every pool HASH in index order; then m declared slot LISTs.
-- ARGV[1] pools S; ARGV[2] h, the number of horizons; ARGV[3..2+h] the horizons in ms, ascending; ARGV[3+h] m, the
--   number of declared slot lists; ARGV[4+h..3+h+m] their starts.
-- Reply: { OK, then the count within each horizon }, or { NEED_SLOTS, slot starts... } (every slot list that
--   starts within the longest horizon, at most MAX_COUNTED_SLOTS; lists past those count as beyond every horizon).
local MAX_COUNTED_SLOTS = 4096
load_meta(false)
local h = tonumber(ARGV[2])
local declared = declared_slots(3 + h, FIRST_EXTRA_KEY + POOLS)
local now = now_ms()
local starts = redis.call('ZRANGEBYSCORE', K_SLOTS, '-inf', now + tonumber(ARGV[2 + h]), 'LIMIT', 0, MAX_COUNTED_SLOTS)
local lengths = {}
for i, s in ipairs(starts) do
  local key = declared[tonumber(s)]
  if not key then return need_slots(starts) end
  lengths[i] = redis.call('LLEN', key)
end
local reply = { OK }
for k = 1, h do
  local horizon = now + tonumber(ARGV[2 + k])
  local n = redis.call('ZCOUNT', K_NEAR, '(' .. now, horizon)
  if M_PRIO then n = n + prio_count(now, horizon) end
  for i, s in ipairs(starts) do
    if tonumber(s) <= horizon then n = n + lengths[i] end
  end
  reply[#reply + 1] = n
end
return reply
