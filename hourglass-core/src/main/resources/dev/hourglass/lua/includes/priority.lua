-- priority: where jobs of priority 1 to 9 wait (a job's priority is in its record's flags, bits 4-7: record.lua).
--
-- A job of priority 0 waits in near, scored by its due time, as it always did. A job of priority p > 0 waits in
-- K_PRIO instead, delayed or ready, from the moment it is placed until a claim leases it (a far-future one waits in
-- a slot list first, like any job, and loads into K_PRIO): scored (10 - p) * PRIO_BAND + due, so that the jobs of
-- one priority form a band of scores, the higher priority the lower band, ordered within it by due time, then by
-- member (the id). PRIO_BAND is 2^47 ms, the range of due times a job may have (0 to JobSpec.MAX_RUN_AT), so every
-- score is a whole number below 10 * 2^47 < 2^53, exact in a double. A claim reads each band from its start to
-- start + now: the due jobs of that priority, earliest first, one ZRANGEBYSCORE per priority present, O(log N) per
-- job.
--
-- meta.pr lists the priorities whose band may hold jobs, as a string of digits, highest first ('93'); absent when
-- K_PRIO is empty. Every script reads it with the rest of meta (load_meta: M_PRIO), so that on a queue whose jobs
-- are all of priority 0 no script ever reads or writes K_PRIO: priorities cost such a queue no command. A band that
-- empties stays listed until a claim finds it empty and unlists it.
local PRIO_BAND = 140737488355328 -- 2^47

-- The priority of a record (0..9), without decoding the rest.
local function record_prio(rec)
  return math.floor(string.byte(rec, 19) / 16)
end

-- The first score of priority p's band.
local function prio_base(p)
  return (10 - p) * PRIO_BAND
end

-- The score in K_PRIO of a job of priority p due at `due`.
local function prio_score(p, due)
  if due < 0 then due = 0 elseif due >= PRIO_BAND then due = PRIO_BAND - 1 end
  return fmt(prio_base(p) + due)
end

-- Lists priority p in meta.pr (a job of it is about to enter K_PRIO).
local function prio_list(p)
  local d = tostring(p)
  local listed = M_PRIO or ''
  if string.find(listed, d, 1, true) then return end
  local digits = {}
  for i = 1, #listed do digits[i] = string.sub(listed, i, i) end
  digits[#digits + 1] = d
  table.sort(digits, function(a, b) return a > b end)
  M_PRIO = table.concat(digits)
  redis.call('HSET', K_META, 'pr', M_PRIO)
end

-- Unlists priority p from meta.pr (its band was found empty).
local function prio_unlist(p)
  local rest = string.gsub(M_PRIO, tostring(p), '')
  if rest == '' then
    redis.call('HDEL', K_META, 'pr')
    M_PRIO = nil
  else
    redis.call('HSET', K_META, 'pr', rest)
    M_PRIO = rest
  end
end

-- The listed priorities, highest first (a copy: a caller may unlist while it iterates).
local function prio_listed()
  local out = {}
  if M_PRIO then
    for i = 1, #M_PRIO do out[i] = tonumber(string.sub(M_PRIO, i, i)) end
  end
  return out
end

-- Puts job m, of priority p, due at `due`, where a waiting job of its priority waits: near, or K_PRIO. Returns 1
-- when it was not there yet, else 0 (as ZADD does).
local function wait_at(m, p, due)
  if p > 0 then
    prio_list(p)
    return redis.call('ZADD', K_PRIO, prio_score(p, due), m)
  end
  return redis.call('ZADD', K_NEAR, due, m)
end

-- Removes job m, of priority p, from where it waits (near or K_PRIO).
local function unwait(m, p)
  if p > 0 then
    redis.call('ZREM', K_PRIO, m)
  else
    redis.call('ZREM', K_NEAR, m)
  end
end

-- How many jobs of K_PRIO fall due in (after, upto] (after nil: from the start; upto may be math.huge).
local function prio_count(after, upto)
  local n = 0
  for _, p in ipairs(prio_listed()) do
    local base = prio_base(p)
    local lo = fmt(base)
    if after then lo = '(' .. prio_score(p, after) end
    local hi = fmt(base + PRIO_BAND - 1)
    if upto < PRIO_BAND then hi = prio_score(p, upto) end
    n = n + redis.call('ZCOUNT', K_PRIO, lo, hi)
  end
  return n
end

-- The earliest due time after t of a job in K_PRIO, or nil.
local function prio_next_due(t)
  local next_due = nil
  for _, p in ipairs(prio_listed()) do
    local base = prio_base(p)
    local h = redis.call('ZRANGEBYSCORE', K_PRIO, '(' .. prio_score(p, t), fmt(base + PRIO_BAND - 1), 'WITHSCORES',
      'LIMIT', '0', '1')
    if h[2] then
      local due = tonumber(h[2]) - base
      if next_due == nil or due < next_due then next_due = due end
    end
  end
  return next_due
end

-- Up to `want` of the jobs of K_PRIO that are due by `now`: highest priority first, then earliest due, then member.
-- Appends their members to out (without removing them) and returns how many it appended. A band with no due job
-- costs one more command, which tells whether it is empty: then its priority is unlisted.
local function prio_due(now, want, out)
  local taken = 0
  for _, p in ipairs(prio_listed()) do
    if taken >= want then break end
    local base = prio_base(p)
    local due = redis.call('ZRANGEBYSCORE', K_PRIO, fmt(base), prio_score(p, now), 'LIMIT', '0', fmt(want - taken))
    if #due == 0 then
      if #redis.call('ZRANGEBYSCORE', K_PRIO, fmt(base), fmt(base + PRIO_BAND - 1), 'LIMIT', '0', '1') == 0 then
        prio_unlist(p)
      end
    end
    for i = 1, #due do out[#out + 1] = due[i] end
    taken = taken + #due
  end
  return taken
end

-- Up to `want` due jobs in claim order: those of K_PRIO (prio_due), then those of near, earliest due first. Returns
-- their members, and how many of them (the first ones) are in K_PRIO. Without priorities listed, one command.
local function due_jobs(now, want)
  local members, from_prio = {}, 0
  if M_PRIO then from_prio = prio_due(now, want, members) end
  if from_prio >= want then return members, from_prio end
  local near = redis.call('ZRANGEBYSCORE', K_NEAR, '-inf', fmt(now), 'LIMIT', '0', fmt(want - from_prio))
  if from_prio == 0 then return near, 0 end
  for i = 1, #near do members[from_prio + i] = near[i] end
  return members, from_prio
end

-- Removes the first n of members, as due_jobs() returned them (the first from_prio in K_PRIO), from where they wait.
local function unwait_due(members, n, from_prio)
  if from_prio > 0 then redis.call('ZREM', K_PRIO, unpack(members, 1, math.min(from_prio, n))) end
  if n > from_prio then redis.call('ZREM', K_NEAR, unpack(members, from_prio + 1, n)) end
end
