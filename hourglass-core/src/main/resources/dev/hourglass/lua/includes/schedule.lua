--- @include "jobs"
--- @include "place"
-- schedule: recurring jobs. A schedule lives in the partition its id hashes to, in K_SCHED, a HASH of four fields:
--   <id>    its state, struct SCHED_STATE then n times struct SCHED_TIME (Schedules in Java writes the same bytes):
--           version (raised by every put and refill), paused (0/1), complete (1: the times listed are all that
--           remain, the end is reached), ttl ms of its occurrences (0: none), last (the next occurrence must be later
--           than this: the occurrence that left last, or the moment of the put or resume), pending (the time of its
--           pending occurrence, 0: none) and that occurrence's pool, n; then its upcoming occurrence times, ascending,
--           each with its pool (computed in Java, with the cron library; no script hashes or parses cron)
--   <id>#t  the record of every occurrence (record.lua) with due, created and expiry left to fill in: flags bit 1
--           set, the priority in bits 4-7, the payload as the queue's codec wrote it
--   <id>#d  the definition as the client wrote it (read by clients only)
--   <id>#k  its timing (cron or interval, zone, start, end): a put that leaves it unchanged keeps the pending time
-- and the field '?': the ids of schedules whose upcoming times run low (each after a space), for promoters to refill.
-- An occurrence is the job <id>:<time ms>, in this partition, its member that id and its pool byte.
local SCHED_STATE, SCHED_TIME = '<i6BBi6i6i6BH', '<i6B'
local SCHED_LOW = 4 -- fewer upcoming times than this: ask for more
local SCHED_REFILL = '?'

local function sched_decode(s)
  local v, paused, complete, ttl, last, pending, ppool, n, pos = struct.unpack(SCHED_STATE, s)
  local times, pools = {}, {}
  for i = 1, n do times[i], pools[i], pos = struct.unpack(SCHED_TIME, s, pos) end
  return {
    version = v, paused = paused, complete = complete, ttl = ttl, last = last, pending = pending, ppool = ppool,
    times = times, pools = pools, first = 1
  }
end

-- Upcoming times from a blob of SCHED_TIME entries.
local function sched_times(st, blob)
  st.times, st.pools, st.first = {}, {}, 1
  local pos, i = 1, 0
  while pos <= #blob do
    i = i + 1
    st.times[i], st.pools[i], pos = struct.unpack(SCHED_TIME, blob, pos)
  end
end

local function sched_encode(st)
  local parts = { struct.pack(SCHED_STATE, st.version, st.paused, st.complete, st.ttl, st.last, st.pending, st.ppool,
    #st.times - st.first + 1) }
  for i = st.first, #st.times do parts[#parts + 1] = struct.pack(SCHED_TIME, st.times[i], st.pools[i]) end
  return table.concat(parts)
end

local function sched_member(sid, t, pool)
  return sid .. ':' .. fmt(t) .. string.char(pool)
end

-- Adds (want) or removes a schedule id from the refill field.
local function sched_mark(sid, want)
  local cur = redis.call('HGET', K_SCHED, SCHED_REFILL) or ''
  local s, e = string.find(cur .. ' ', ' ' .. sid .. ' ', 1, true)
  if want and not s then
    redis.call('HSET', K_SCHED, SCHED_REFILL, cur .. ' ' .. sid)
  elseif not want and s then
    cur = string.sub(cur, 1, s - 1) .. string.sub(cur, e)
    if string.sub(cur, -1) == ' ' then cur = string.sub(cur, 1, -2) end
    if cur == '' then redis.call('HDEL', K_SCHED, SCHED_REFILL) else redis.call('HSET', K_SCHED, SCHED_REFILL, cur) end
  end
end

-- Removes the pending occurrence, if any (pause, delete, a put that changes the timing).
local function sched_unpend(sid, st)
  if st.pending == 0 then return end
  local m = sched_member(sid, st.pending, st.ppool)
  local pool_key = KEYS[FIRST_EXTRA_KEY + st.ppool]
  if redis.call('HEXISTS', pool_key, m) == 1 and not redis.call('ZSCORE', K_INFLIGHT, m)
      and not redis.call('ZSCORE', K_DEAD, m) then
    drop(pool_key, m, 'cancelled')
    redis.call('ZREM', K_PRIO, m)
    redis.call('HINCRBY', K_STATS, 'cancelled', 1)
  end
  st.pending, st.ppool = 0, 0
end

-- Unless paused or one is pending, enqueues the first upcoming occurrence later than st.last (past ones are
-- skipped: late occurrences collapse into one), then saves the state; asks for more times when few remain.
-- Requires every pool of the partition in KEYS[FIRST_EXTRA_KEY..].
local function sched_advance(sid, st, now)
  if st.paused == 0 and st.pending == 0 then
    local tpl
    while st.first <= #st.times do
      local t, pool = st.times[st.first], st.pools[st.first]
      st.first = st.first + 1
      local m = sched_member(sid, t, pool)
      local pool_key = KEYS[FIRST_EXTRA_KEY + pool]
      -- an id still held (a delivered occurrence of that time not yet acked) is never enqueued twice
      if t > st.last and redis.call('HEXISTS', pool_key, m) == 0 then
        tpl = tpl or redis.call('HGET', K_SCHED, sid .. '#t')
        local expire = 0
        if st.ttl > 0 then expire = math.max(t, now) + st.ttl end
        redis.call('HSET', pool_key, m, struct.pack('<i6i6i6', t, now, expire) .. string.sub(tpl, 19))
        if expire > 0 then
          redis.call('ZADD', K_TTL, expire, m)
          clock_work_at(expire)
          promoter_due(expire)
        end
        place(m, t, now, 1, {}, math.floor(string.byte(tpl, 19) / 16))
        redis.call('HINCRBY', K_STATS, 'enqueued', 1)
        redis.call('HINCRBY', K_STATS, 'occurrences', 1)
        st.pending, st.ppool = t, pool
        break
      end
    end
  end
  sched_mark(sid, st.complete == 0 and #st.times - st.first + 1 < SCHED_LOW)
  redis.call('HSET', K_SCHED, sid, sched_encode(st))
end

-- Job m left the pending state (leased by a claim, cancelled, expired by its ttl) at now: when it is the pending
-- occurrence of a schedule, that schedule's next occurrence is enqueued, the first later than both now and it.
local function sched_left(m, now)
  local sid, t = string.match(m, '^(.+):(%d+).$')
  if not sid then return end
  local s = redis.call('HGET', K_SCHED, sid)
  if not s then return end
  local st = sched_decode(s)
  t = tonumber(t)
  if st.pending ~= t then return end
  st.pending, st.ppool = 0, 0
  st.last = math.max(st.last, t, now)
  sched_advance(sid, st, now)
end
