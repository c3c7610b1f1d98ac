--- @include "partition"
--- @include "priority"
-- promote: one promoter pass over a partition: it wakes consumers for the jobs in near that have fallen due, and
-- plans the next pass. Safe to run from many processes: a lock (meta po/pu) lets one promote and answers the
-- others at once with when to look again. When meta.due says nothing is due yet, the pass ends after one HMGET and
-- TIME, without the lock: that is what an idle safety sweep costs. While clock work is due (meta.cu passed, a slot
-- list starts within the lookahead, dead letters past their retention or retention settings changed) it answers
-- CATCH_UP instead, and its caller runs clock.lua first, then the pass again.
-- KEYS[1..13] the partition keys.
-- ARGV[1] pools S; ARGV[2] owner id; ARGV[3] lock ms; ARGV[4] lookahead ms; ARGV[5] dead retention age ms (0 =
--   keep); ARGV[6] dead retention count (0 = no limit).
-- Reply: { OK, leader (1: this caller may plan by the next wake time: it holds the lock, or the partition is idle
--   and needs none; 0: another process holds the lock), 0, 0, next wake ms (server clock; -1 none known), now ms,
--   lock until ms, meta.due ms }, or { CATCH_UP }.
local owner, lock_ms, lookahead = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local dead_age, dead_count = tonumber(ARGV[5]), tonumber(ARGV[6])
local retention = ARGV[5] .. ':' .. ARGV[6]

-- 1. Idle unless something is due or the retention settings changed since the last full pass; an idle pass
-- takes no lock.
local function idle(now)
  return M_DUE and M_DUE > now and M_RETENTION == retention
end

-- 2. The lock: refused while another owner holds it; renewed when half of it is spent, so a busy leader writes it
-- at most every lock_ms / 2.
local lock_until
local function take_lock(now)
  if M_LOCK_OWNER and M_LOCK_OWNER ~= owner and lock_until and lock_until > now then return false end
  if M_LOCK_OWNER ~= owner or lock_until == nil or lock_until - now < lock_ms / 2 then
    lock_until = now + lock_ms
    redis.call('HSET', K_META, 'po', owner, 'pu', fmt(lock_until))
  end
  return true
end

-- 3. When dead letters must go by age: the time of death of the oldest, plus the age; nil when none must.
local function retention_at()
  if dead_age <= 0 then return nil end
  local oldest = head_score(K_DEAD, '-inf')
  if oldest then return oldest + dead_age end
  return nil
end

load_meta(false)
local now = now_ms()
lock_until = M_LOCK_UNTIL and tonumber(M_LOCK_UNTIL)
-- An idle pass does nothing, so it neither takes nor renews the lock: an idle partition costs EVALSHA, HMGET and
-- TIME per sweep, and whoever passes first when work falls due takes the lock.
if idle(now) then return { OK, 1, 0, 0, M_DUE, now, lock_until or 0, M_DUE } end
if not take_lock(now) then return { OK, 0, 0, 0, -1, now, lock_until, M_DUE or NOTHING_DUE } end
local first_slot = head_score(K_SLOTS, '-inf')
local dead_at = retention_at()
if M_RETENTION ~= retention or (M_CU and M_CU <= now) or (first_slot and first_slot < now + lookahead)
    or (dead_at and dead_at <= now)
    or (dead_count > 0 and redis.call('ZCARD', K_DEAD) > dead_count) then
  return { CATCH_UP }
end

-- 4. Wake blocked consumers: one token per job that fell due in near or K_PRIO since the last pass (meta.sig), at most
-- 16.
local since = '-inf'
if M_SIGNALLED then since = '(' .. M_SIGNALLED end
local now_str = fmt(now)
local fell_due = redis.call('ZCOUNT', K_NEAR, since, now_str)
if M_PRIO then fell_due = fell_due + prio_count(M_SIGNALLED and tonumber(M_SIGNALLED), now) end
wake(fell_due)
local signalled = now_str
if M_SIGNALLED and tonumber(M_SIGNALLED) > now then signalled = M_SIGNALLED end

-- 5. When the next pass is worth running: the earliest of the next job in near or K_PRIO to fall due, the clock work (a
-- lease deadline, a ttl: meta.cu), the moment the next slot enters the lookahead window, and the next dead job past its
-- age. -1: none.
local wake_at = -1
local function consider(t)
  if t and t < NOTHING_DUE and (wake_at < 0 or t < wake_at) then wake_at = t end
end
consider(head_score(K_NEAR, '(' .. now_str))
if M_PRIO then consider(prio_next_due(now)) end
consider(M_CU)
if first_slot then consider(first_slot - lookahead) end
consider(dead_at)
local due = NOTHING_DUE
if wake_at >= 0 then due = wake_at end
redis.call('HSET', K_META, 'due', fmt(due), 'sig', signalled)
return { OK, 1, 0, 0, wake_at, now, lock_until, due }
