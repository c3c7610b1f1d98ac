--- @include "pools"
--- @include "record"
--- @include "jobs"
--- @include "place"
--- @include "limits"
--- @include "schedule"
-- catch_up: the work the server clock alone makes due. Jobs past their ttl leave, lapsed leases come back (or go
-- dead when their attempts are spent), and slot lists that start before a given time load into near. Stats and
-- list run it first whenever meta.cu says some is due; claim and promote answer CATCH_UP instead, and their caller
-- runs clock.lua (a promoter's loading slots a lookahead ahead); so a job's state, the counts and claims follow the
-- server clock whether or not any promoter has run. Whichever script gets there first does the work; doing it twice
-- changes nothing.
--
-- A script may only load slot lists declared in its KEYS: the caller passes their count m in one ARGV, their
-- starts in the m ARGV after it, and their keys at a KEYS position the script names (see declared_slots). When the
-- first due slot lists are not all declared, catch_up() changes nothing and answers their starts: the script
-- replies NEED_SLOTS, and the caller calls again with them declared (ScriptRunner.withSlots). A later due slot list
-- that is not declared stops the loading as a budget does: more to do, on the next call.

local MAX_NEEDED_SLOTS = 16

-- True when clock work has fallen due since the last catch-up (or none has run on this partition yet).
local function clock_work_due(now)
  return M_CU == nil or M_CU <= now
end

-- Jobs past their ttl leave, wherever they are; an expired occurrence of a schedule enqueues the next
-- (schedule.lua). True when the budget ran out.
local function expire_ttl(now, budget)
  local expired = redis.call('ZRANGEBYSCORE', K_TTL, '-inf', now, 'LIMIT', 0, budget)
  for _, m in ipairs(expired) do drop(pool_of(m), m, 'expired') end
  if #expired > 0 then redis.call('HINCRBY', K_STATS, 'expired', #expired) end
  limits_freed(#expired) -- a leased job past its ttl leaves too
  for _, m in ipairs(expired) do sched_left(m, now) end
  return #expired == budget
end

-- Lapsed leases: the attempt counts; the job goes back to near (K_PRIO for a priority job) at its due time (so it is
-- ready), or to dead when
-- its attempts are spent. Returns the jobs made ready, and true when the budget ran out.
local function return_lapsed(now, budget)
  local lapsed = redis.call('ZRANGEBYSCORE', K_INFLIGHT, LEASES_FROM, now, 'LIMIT', 0, budget)
  local requeued, killed = 0, 0
  for _, m in ipairs(lapsed) do
    local pool_key = pool_of(m)
    local rec = redis.call('HGET', pool_key, m)
    redis.call('ZREM', K_INFLIGHT, m)
    redis.call('HDEL', K_LEASES, m)
    if rec then
      local j = decode(rec)
      j.attempts = j.attempts + 1
      j.err = 'lease expired'
      local updated = encode(j, rec)
      redis.call('HSET', pool_key, m, updated)
      if j.attempts >= j.max_attempts then
        redis.call('ZADD', K_DEAD, now, m)
        outbox_add(m, updated, 'dead')
        killed = killed + 1
      else
        wait_at(m, math.floor(j.flags / 16), j.due)
        requeued = requeued + 1
      end
    end
  end
  if requeued > 0 then redis.call('HINCRBY', K_STATS, 'retried', requeued) end
  if killed > 0 then redis.call('HINCRBY', K_STATS, 'dead', killed) end
  limits_freed(killed) -- the requeued are ready, and woken for as such
  return requeued, #lapsed == budget
end

-- Loads the job of a slot entry (a member) into near (K_PRIO for a priority job) at the due time its record holds, if
-- it still waits for it: its record exists and it is neither leased nor dead. Entries left behind by cancel or
-- reschedule are skipped that way; a job already in near has its due time as its score, so adding it again changes
-- nothing; a job rescheduled to a later slot may be loaded early, which only means it waits in near (claim takes only
-- due jobs). Returns 1 when the job was due already (it is ready at once), else 0.
local function load_entry(m, now)
  local rec = redis.call('HGET', pool_of(m), m)
  if not rec or redis.call('ZSCORE', K_INFLIGHT, m) or redis.call('ZSCORE', K_DEAD, m) then return 0 end
  local due = record_due(rec)
  if wait_at(m, record_prio(rec), due) == 1 and due <= now then return 1 end
  return 0
end

-- The starts of the first due slot lists (those starting before `before`), when one of them is not declared;
-- nil when all are.
local function undeclared_due_slots(before, declared)
  local due = redis.call('ZRANGEBYSCORE', K_SLOTS, '-inf', '(' .. before, 'LIMIT', 0, MAX_NEEDED_SLOTS)
  for _, start in ipairs(due) do
    if not declared[tonumber(start)] then return due end
  end
  return nil
end

-- Loads the slot lists that start before `before` into near, oldest first, then moves the watermark past what was
-- loaded. Returns the jobs made ready, and true when a budget ran out or an undeclared slot list is due.
local function load_slots(now, before, budget, declared)
  local wm = watermark(now)
  local loaded, made_ready, more, blocked_at = 0, 0, false, nil
  while true do
    local first = redis.call('ZRANGEBYSCORE', K_SLOTS, '-inf', '(' .. before, 'LIMIT', 0, 1)
    if #first == 0 then break end
    local start = tonumber(first[1])
    local slot_key = declared[start]
    if not slot_key or loaded >= budget then
      more, blocked_at = true, start
      break
    end
    local entries = redis.call('LRANGE', slot_key, 0, budget - loaded - 1)
    for _, m in ipairs(entries) do made_ready = made_ready + load_entry(m, now) end
    loaded = loaded + #entries
    if redis.call('LLEN', slot_key) > #entries then
      redis.call('LTRIM', slot_key, #entries, -1)
      more, blocked_at = true, start
      break
    end
    redis.call('DEL', slot_key)
    redis.call('ZREM', K_SLOTS, start)
  end
  local new_wm = blocked_at or before
  if new_wm > wm then
    redis.call('HSET', K_META, 'wm', new_wm)
    M_WM = new_wm
  end
  return made_ready, more
end

-- When clock work next falls due: the earliest ttl, lease deadline or slot start.
local function next_clock_work()
  local t = NOTHING_DUE
  local function consider(s)
    if s and s < t then t = s end
  end
  consider(head_score(K_TTL, '-inf'))
  consider(head_score(K_INFLIGHT, LEASES_FROM))
  consider(head_score(K_SLOTS, '-inf'))
  return t
end

-- Runs the three steps within a budget per step, and records in meta.cu when clock work next falls due (now, when
-- a budget ran out). Returns { made_ready (jobs it made ready: lapsed leases back, slot jobs already due), more
-- (a budget ran out, or a later slot list was not declared), need (nil; or the starts of the first due slot lists,
-- one of them undeclared, and then nothing was done) }.
local function catch_up(now, before, budget, declared)
  local need = undeclared_due_slots(before, declared)
  if need then return { made_ready = 0, more = false, need = need } end
  local more = expire_ttl(now, budget)
  local requeued, lapsed_more = return_lapsed(now, budget)
  local loaded_ready, slots_more = load_slots(now, before, budget, declared)
  more = more or lapsed_more or slots_more
  local cu = now
  if not more then cu = next_clock_work() end
  redis.call('HSET', K_META, 'cu', cu)
  M_CU = cu
  return { made_ready = requeued + loaded_ready, more = more, need = nil }
end

-- The reply of a script that must be called again with more slot lists declared.
local function need_slots(starts)
  local reply = { NEED_SLOTS }
  for i, s in ipairs(starts) do reply[i + 1] = tonumber(s) end
  return reply
end
