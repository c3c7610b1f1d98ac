--- @include "partition"
--- @include "catch_up"
-- promote: one promoter pass over a partition. Safe to run from many processes: a lock (meta po/pu) lets one
-- promote and answers the others at once with when to look again. When meta.due says nothing is due yet, the pass
-- ends after one HMGET and TIME, without the lock: that is what an idle safety sweep costs.
-- KEYS[1..10] the partition keys; KEYS[11..10+S] every pool HASH in index order; then m declared slot LISTs.
-- ARGV[1] pools S; ARGV[2] owner id; ARGV[3] lock ms; ARGV[4] lookahead ms (slot lists starting before now +
--   lookahead are loaded into near); ARGV[5] budget (most jobs moved per step); ARGV[6] dead retention age ms (0 =
--   keep); ARGV[7] dead retention count (0 = no limit); ARGV[8] m, the number of declared slot lists; ARGV[9..8+m]
--   their starts.
-- Reply: { OK, leader (1: this caller may plan by the next wake time: it holds the lock, or the partition is idle
--   and needs none; 0: another process holds the lock), jobs the pass made ready (lapsed leases back, slot jobs already due when loaded; a
--   job waiting in near turns ready by the clock alone and is not counted), more (1: a budget ran out, call again
--   now), next wake ms (server clock; -1 none known), now ms, lock until ms, meta.due ms }, or
--   { NEED_SLOTS, slot starts... }.
local owner, lock_ms, lookahead, budget = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local dead_age, dead_count = tonumber(ARGV[6]), tonumber(ARGV[7])
local retention = ARGV[6] .. ':' .. ARGV[7]

-- 1. Idle unless something is due or the retention settings changed since the last full pass; an idle pass
-- takes no lock.
local function idle(now)
  return M_DUE and M_DUE > now and M_RETENTION == retention
end

-- 2. The lock: refused while another owner holds it; renewed when half of it is spent, so a busy leader writes it
-- at most every lock_ms / 2.
local function take_lock(now)
  if M_LOCK_OWNER and M_LOCK_OWNER ~= owner and M_LOCK_UNTIL and M_LOCK_UNTIL > now then return false end
  if M_LOCK_OWNER ~= owner or M_LOCK_UNTIL == nil or M_LOCK_UNTIL - now < lock_ms / 2 then
    M_LOCK_UNTIL = now + lock_ms
    redis.call('HSET', K_META, 'po', owner, 'pu', M_LOCK_UNTIL)
  end
  return true
end

-- 3. Wakes blocked consumers: one token per job that fell due in near since the last pass (meta.sig) or that this
-- pass made ready (at most 16).
local function announce(now, made_ready)
  local since = '-inf'
  if M_SIGNALLED then since = '(' .. M_SIGNALLED end
  wake(redis.call('ZCOUNT', K_NEAR, since, now) + made_ready)
  local signalled = now
  if M_SIGNALLED and M_SIGNALLED > now then signalled = M_SIGNALLED end
  return signalled
end

-- 4. Dead-letter retention, by age and by count. True when the budget ran out.
local function apply_retention(now)
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

-- 5. When the next pass is worth running: the earliest of the next job in near to fall due, a lease deadline, a
-- ttl expiry, the moment the next slot enters the lookahead window, and the next dead job past its age. -1: none.
local function next_wake(now)
  local t = -1
  local function consider(s)
    if s and (t < 0 or s < t) then t = s end
  end
  consider(head_score(K_NEAR, '(' .. now))
  consider(head_score(K_INFLIGHT, LEASES_FROM))
  consider(head_score(K_TTL, '-inf'))
  local first_slot = head_score(K_SLOTS, '-inf')
  if first_slot then consider(first_slot - lookahead) end
  if dead_age > 0 then
    local oldest_dead = head_score(K_DEAD, '-inf')
    if oldest_dead then consider(oldest_dead + dead_age) end
  end
  return t
end

load_meta(false)
local now = now_ms()
-- An idle pass does nothing, so it neither takes nor renews the lock: an idle partition costs EVALSHA, HMGET and
-- TIME per sweep, and whoever passes first when work falls due takes the lock.
if idle(now) then return { OK, 1, 0, 0, M_DUE, now, M_LOCK_UNTIL or 0, M_DUE } end
if not take_lock(now) then return { OK, 0, 0, 0, -1, now, M_LOCK_UNTIL, M_DUE or NOTHING_DUE } end
local c = catch_up(now, now + lookahead, budget, declared_slots(8, FIRST_EXTRA_KEY + POOLS))
if c.need then return need_slots(c.need) end
local signalled = announce(now, c.made_ready)
local more = apply_retention(now) or c.more
local wake_at = next_wake(now)
local due = NOTHING_DUE
if more then due = now elseif wake_at >= 0 then due = wake_at end
redis.call('HSET', K_META, 'due', due, 'sig', signalled)
local more_flag = 0
if more then more_flag = 1 end
return { OK, 1, c.made_ready, more_flag, wake_at, now, M_LOCK_UNTIL, due }
