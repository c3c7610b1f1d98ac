--- @include "partition"
--- @include "pools"
--- @include "record"
--- @include "jobs"
--- @include "place"
-- enqueue: create one or more jobs in one partition. The caller sends each member at most once per call.
-- KEYS[1..10] the partition keys; KEYS[11..10+S] every pool HASH in index order; then m declared slot LISTs (the
--   slot lists the caller expects the jobs' due times to fall in; see placement() in place.lua).
-- ARGV[1] pools S; ARGV[2] job count n; ARGV[3] slot width ms; ARGV[4] k, the arguments per job (3, or 4 when the
--   jobs have a ttl); ARGV[5] m; ARGV[6..5+m] the declared slot lists' starts; then per job j (0-based), k values
--   from ARGV[6+m+k*j]: its member; its time, as decimal ms: a due time (epoch), or a delay from the server's now
--   when it starts with '+'; the record from its flags field on (see record.lua: flags, attempts 0, maxAttempts,
--   visibilityMs, backoff, an empty last error, payload), to which the script prepends the three times; with k = 4
--   its ttl ms (0: none).
-- Reply: { OK, now ms, then per job refused as a duplicate of a live job: its index (1-based), the live job's state
--   and due ms }. Every other job was created, due at its time (a delay counts from now), and is ready when that
--   is not after now, else delayed.
load_meta(true)
local n, width, k, m_slots = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local declared = declared_slots(5, FIRST_EXTRA_KEY + POOLS)
local first = 6 + m_slots
local now = now_ms()
-- Commands take at most LUAI_MAXCSTACK arguments through unpack: large argument lists go in chunks.
local CHUNK = 4000
local function write(cmd, key, args, count)
  for i = 1, count, CHUNK do
    redis.call(cmd, key, unpack(args, i, math.min(i + CHUNK - 1, count)))
  end
end

-- 1. Which members a live job holds already: one HMGET per pool. A job past its ttl is gone by the clock (get()
-- reports it absent) even before a catch-up swept it: it is swept here, and its id is free.
local by_pool, pools_used = {}, {}
for j = 0, n - 1 do
  local m = ARGV[first + k * j]
  local b = string.byte(m, -1)
  local g = by_pool[b]
  if not g then
    g = { n = 0, hset = {}, hn = 0, key = KEYS[FIRST_EXTRA_KEY + b] }
    by_pool[b] = g
    pools_used[#pools_used + 1] = g
  end
  g.n = g.n + 1
  g[g.n] = m
end
local existing, expired = {}, 0
for _, g in ipairs(pools_used) do
  for i = 1, g.n, CHUNK do
    local last = math.min(i + CHUNK - 1, g.n)
    local recs = redis.call('HMGET', g.key, unpack(g, i, last))
    for x = 1, #recs do
      local rec = recs[x]
      if rec then
        local m = g[i + x - 1]
        local expire = record_expire(rec)
        if expire > 0 and expire <= now then
          drop(g.key, m, 'expired', rec)
          expired = expired + 1
        else
          existing[m] = rec
        end
      end
    end
  end
end
if expired > 0 then redis.call('HINCRBY', K_STATS, 'expired', expired) end

-- 2. Per job in order: a duplicate of a live job, or a new record and its place. Placements are collected and
-- written after the loop, one command per target key instead of one per job.
local reply, r = { OK, now }, 2 -- r: length of reply (counters instead of #t, which costs a search per use)
local created, ready_count = 0, 0
local near_args, n_near, near_min = {}, 0, nil
local slot_lists, slot_order, slot_min = {}, {}, nil
for j = 0, n - 1 do
  local a = first + k * j
  local m = ARGV[a]
  local old = existing[m]
  if old then
    local due = record_due(old)
    reply[r + 1], reply[r + 2], reply[r + 3] = j + 1, state_of(m, due, now), due
    r = r + 3
  else
    local time = ARGV[a + 1]
    local due, score = nil, time -- an absolute time goes to ZADD as the string it came as
    if string.byte(time, 1) == 43 then -- '+': a delay
      due = now + tonumber(time)
      score = due
    else
      due = tonumber(time)
    end
    local expire = 0
    if k == 4 then
      local ttl = tonumber(ARGV[a + 3])
      if ttl > 0 then
        expire = now + ttl
        redis.call('ZADD', K_TTL, expire, m)
        clock_work_at(expire)
        promoter_due(expire)
      end
    end
    local g = by_pool[string.byte(m, -1)]
    -- Concatenated: struct.pack would copy the tail a byte at a time.
    g.hset[g.hn + 1], g.hset[g.hn + 2] = m, struct.pack(RECORD_TIMES, due, now, expire) .. ARGV[a + 2]
    g.hn = g.hn + 2
    local where, slot_key, start = placement(due, now, width, declared)
    if where == 'slot' then
      local list = slot_lists[slot_key]
      if not list then
        list = { start = start, n = 0 }
        slot_lists[slot_key] = list
        slot_order[#slot_order + 1] = slot_key
      end
      list.n = list.n + 1
      list[list.n] = m
      if slot_min == nil or start < slot_min then slot_min = start end
    else
      near_args[n_near + 1], near_args[n_near + 2] = score, m
      n_near = n_near + 2
      if where == 'ready' then
        ready_count = ready_count + 1 -- announced by this script's wake-up rather than by a promoter
      elseif near_min == nil or due < near_min then
        near_min = due
      end
    end
    created = created + 1
  end
end

-- 3. Write: the records, one HSET per pool; the placements, one command per target key.
for _, g in ipairs(pools_used) do
  if g.hn > 0 then write('HSET', g.key, g.hset, g.hn) end
end
for _, slot_key in ipairs(slot_order) do
  local list = slot_lists[slot_key]
  if redis.call('LLEN', slot_key) == 0 then redis.call('ZADD', K_SLOTS, list.start, list.start) end
  write('RPUSH', slot_key, list, list.n)
end
if slot_min then
  clock_work_at(slot_min)
  promoter_due(slot_min - width)
end
if n_near > 0 then write('ZADD', K_NEAR, near_args, n_near) end
if near_min then promoter_due(near_min) end
if created > 0 then redis.call('HINCRBY', K_STATS, 'enqueued', created) end
wake(ready_count)
return reply
