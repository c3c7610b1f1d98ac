--- @include "partition"
--- @include "catch_up"
-- clock: the clock work of a partition (catch_up.lua: ttl expiry, lapsed leases, slot lists that start before now
-- + a lookahead) and, for a promoter, dead-letter retention. Claims and promoter passes answer CATCH_UP instead of
-- working while any of it is due, and their caller runs this first.
-- KEYS[1..13] the partition keys; KEYS[14..13+S] every pool HASH in index order; then m declared slot LISTs.
-- ARGV[1] pools S; ARGV[2] lookahead ms (slot lists starting before now + it load into near; 1 for a claim);
--   ARGV[3] budget (most jobs moved per step); ARGV[4] dead retention age ms (0 = keep); ARGV[5] dead retention
--   count (0 = no limit); ARGV[6] '1' to apply the retention (a promoter), else '0'; ARGV[7] m, the number of
--   declared slot lists; ARGV[8..7+m] their starts.
-- Reply: { OK, jobs made ready (lapsed leases back, slot jobs already due when loaded), more (1 when a budget ran
--   out: call again) }, or { NEED_SLOTS, slot starts... }.
local lookahead, budget = tonumber(ARGV[2]), tonumber(ARGV[3])
local dead_age, dead_count = tonumber(ARGV[4]), tonumber(ARGV[5])

-- Dead-letter retention, by age and by count; recorded in meta.ret. True when the budget ran out.
local function apply_retention(now)
  local retention = ARGV[4] .. ':' .. ARGV[5]
  if M_RETENTION ~= retention then redis.call('HSET', K_META, 'ret', retention) end
  local more = false
  if dead_age > 0 then
    local old = redis.call('ZRANGEBYSCORE', K_DEAD, '-inf', now - dead_age, 'LIMIT', 0, budget)
    for _, m in ipairs(old) do drop(pool_of(m), m, 'purged') end
    if #old > 0 then redis.call('HINCRBY', K_STATS, 'purged', #old) end
    more = #old == budget
  end
  if dead_count > 0 then
    local excess = redis.call('ZCARD', K_DEAD) - dead_count
    if excess > 0 then
      if excess > budget then excess, more = budget, true end
      local oldest = redis.call('ZRANGE', K_DEAD, 0, excess - 1)
      for _, m in ipairs(oldest) do drop(pool_of(m), m, 'purged') end
      redis.call('HINCRBY', K_STATS, 'purged', #oldest)
    end
  end
  return more
end

load_meta(false)
local now = now_ms()
local c = catch_up(now, now + lookahead, budget, declared_slots(7, FIRST_EXTRA_KEY + POOLS))
if c.need then return need_slots(c.need) end
local more = c.more
if ARGV[6] == '1' and apply_retention(now) then more = true end
wake(c.made_ready) -- every path that makes jobs ready wakes consumers for them
if more then return { OK, c.made_ready, 1 } end
return { OK, c.made_ready, 0 }
