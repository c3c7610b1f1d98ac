--- @include "partition"
--- @include "catch_up"
-- list: one page of a partition's jobs in one state, after catching up with the clock (catch_up.lua), so that the
-- states follow the server clock. A job's score orders the page: its due time (delayed, ready), lease deadline
-- (inflight) or time of death (dead); ties by member. Ready and delayed jobs are those of near and K_PRIO
-- (includes/priority.lua) and the slot lists, whatever their priority. The page holds the first jobs after the
-- cursor (score, member).
-- KEYS[1..13] the partition keys; KEYS[14..13+S] every pool HASH in index order; then m declared slot LISTs.
-- ARGV[1] pools S; ARGV[2] state: delayed, ready, inflight or dead; ARGV[3] cursor score, or '' for the first
--   page; ARGV[4] cursor member; ARGV[5] limit; ARGV[6] slot width ms (a slot list holds jobs due within one
--   width from its start); ARGV[7] m, the number of declared slot lists; ARGV[8..7+m] their starts.
-- Reply: { OK, complete (0 when a catch-up budget ran out: call again), then per job: member, record, score }, or
--   { NEED_SLOTS, slot starts... }.
--   Delayed jobs wait in near (due after now) and in slot lists, which are in insertion order: a slot list is read
--   whole when it may hold one of the page's jobs, so listing delayed jobs costs up to a slot width of jobs more.
load_meta(false)
local state, limit, width = ARGV[2], tonumber(ARGV[5]), tonumber(ARGV[6])
local after, after_member = tonumber(ARGV[3]), ARGV[4]
local declared = declared_slots(7, FIRST_EXTRA_KEY + POOLS)
local now = now_ms()
local complete = 1
if clock_work_due(now) then
  local c = catch_up(now, now + 1, 1000, declared)
  if c.need then
    -- Keep the slot lists this call declared for the listing too, so the rounds converge.
    local need, listed = {}, {}
    for _, s in ipairs(c.need) do
      need[#need + 1] = tonumber(s)
      listed[tonumber(s)] = true
    end
    for start in pairs(declared) do
      if not listed[start] then need[#need + 1] = start end
    end
    return need_slots(need)
  end
  if c.more then complete = 0 end
  wake(c.made_ready)
end

-- a < b by bytes, as sorted sets order members of equal score (Lua's < on strings follows the locale).
local function bytes_before(a, b)
  local n = math.min(#a, #b)
  for i = 1, n do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x < y end
  end
  return #a < #b
end

local function beyond_cursor(score, m)
  return after == nil or score > after or (score == after and bytes_before(after_member, m))
end

-- Appends { member, score } of up to limit members of key with lo <= score <= hi after the cursor, in key order.
-- With a base (a priority's band in K_PRIO, includes/priority.lua), the key's scores are base + score.
local function zpage(key, lo, hi, out, base)
  base = base or 0
  local min = lo
  if after ~= nil and after > lo then min = after end
  local offset = 0
  while #out < limit do
    local page = redis.call('ZRANGEBYSCORE', key, min + base, hi + base, 'WITHSCORES', 'LIMIT', offset, limit)
    if #page == 0 then break end
    for i = 1, #page, 2 do
      local m, score = page[i], tonumber(page[i + 1]) - base
      if #out < limit and beyond_cursor(score, m) then out[#out + 1] = { m, score } end
    end
    offset = offset + #page / 2
  end
  return out
end

-- Delayed jobs in slot lists (all due after now once the catch-up ran; a list holds jobs due within one width
-- from its start, place.lua, so two widths back is a safe bound), from the first list that may hold a job after
-- the cursor until the jobs found due before the next list's start fill the page. Adds them to out.
local function slot_jobs(out)
  local from = -math.huge
  if after ~= nil then from = after - 2 * width end
  local starts = redis.call('ZRANGEBYSCORE', K_SLOTS, from, '+inf')
  local seen = {}
  for _, e in ipairs(out) do seen[e[1]] = true end
  for i, s in ipairs(starts) do
    local start = tonumber(s)
    local before = 0
    for _, e in ipairs(out) do
      if e[2] < start then before = before + 1 end
    end
    if before >= limit then break end
    local key = declared[start]
    if not key then
      -- Ask for every list read so far and the next ones, so that the call again declares them all.
      local need = { NEED_SLOTS }
      for j = 1, i - 1 do need[#need + 1] = tonumber(starts[j]) end
      for j = i, math.min(#starts, i + 63) do need[#need + 1] = tonumber(starts[j]) end
      return need
    end
    for _, m in ipairs(redis.call('LRANGE', key, 0, -1)) do
      if not seen[m] then
        seen[m] = true
        local rec = redis.call('HGET', pool_of(m), m)
        if rec and not redis.call('ZSCORE', K_NEAR, m) and not (M_PRIO and redis.call('ZSCORE', K_PRIO, m))
          and not redis.call('ZSCORE', K_INFLIGHT, m)
          and not redis.call('ZSCORE', K_DEAD, m) then
          local due = record_due(rec)
          if due > now and beyond_cursor(due, m) then out[#out + 1] = { m, due } end
        end
      end
    end
  end
  return nil
end

local function by_due(a, b) return a[2] < b[2] or (a[2] == b[2] and bytes_before(a[1], b[1])) end

-- Adds to found the first jobs of each priority's band in K_PRIO due in lo..hi after the cursor, and sorts found by
-- due time, then member.
local function with_prio(found, lo, hi)
  if not M_PRIO then return found end
  for _, p in ipairs(prio_listed()) do
    local band = zpage(K_PRIO, math.max(lo, 0), math.min(hi, PRIO_BAND - 1), {}, prio_base(p))
    for _, e in ipairs(band) do found[#found + 1] = e end
  end
  table.sort(found, by_due)
  return found
end

local found
if state == 'ready' then
  found = with_prio(zpage(K_NEAR, -math.huge, now, {}), -math.huge, now)
elseif state == 'delayed' then
  found = with_prio(zpage(K_NEAR, now + 1, math.huge, {}), now + 1, math.huge)
  local need = slot_jobs(found)
  if need then return need end
  table.sort(found, by_due)
elseif state == 'inflight' then
  found = zpage(K_INFLIGHT, 0, math.huge, {})
else
  found = zpage(K_DEAD, -math.huge, math.huge, {})
end
local reply = { OK, complete }
for i = 1, math.min(#found, limit) do
  local m = found[i][1]
  local rec = redis.call('HGET', pool_of(m), m)
  if rec then
    reply[#reply + 1] = m
    reply[#reply + 1] = rec
    reply[#reply + 1] = found[i][2]
  end
end
return reply
