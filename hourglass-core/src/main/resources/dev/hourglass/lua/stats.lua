--- @include "partition"
--- @include "catch_up"
--- @include "limits"
-- stats: counts per state and counters of one partition, read atomically after catching up with the clock
-- (catch_up.lua): jobs past their ttl have left, overdue slot jobs are in near and counted ready.
-- KEYS[1..13] the partition keys; KEYS[14..13+S] every pool HASH in index order; then m declared slot LISTs.
-- ARGV[1] pools S; ARGV[2] m, the number of declared slot lists; ARGV[3..2+m] their starts.
-- Reply: { OK, complete (1, or 0 when a catch-up budget ran out: call again for exact counts), ready, inflight,
--   dead, the stats HASH as a flat field/value array (enqueued, acked, ...), paused (1|0), held back (the ready
--   jobs the flow-control limits hold back now: see limits_held in includes/limits.lua) }, or
--   { NEED_SLOTS, slot starts... }.
--   Ready: the jobs in near and K_PRIO that are due by the server clock.
load_meta(false)
local now = now_ms()
local complete = 1
if clock_work_due(now) then
  local c = catch_up(now, now + 1, 1000, declared_slots(2, FIRST_EXTRA_KEY + POOLS))
  if c.need then return need_slots(c.need) end
  if c.more then complete = 0 end
  wake(c.made_ready) -- every path that makes jobs ready wakes consumers for them
end
local ready = redis.call('ZCOUNT', K_NEAR, '-inf', now)
if M_PRIO then ready = ready + prio_count(nil, now) end
return { OK, complete, ready, redis.call('ZCOUNT', K_INFLIGHT, LEASES_FROM, '+inf'),
  redis.call('ZCARD', K_DEAD), redis.call('HGETALL', K_STATS), M_PAUSED and 1 or 0, limits_held(now, ready) }
