--- @include "partition"
--- @include "record"
--- @include "jobs"
--- @include "place"
-- enqueue: create one or more jobs in one partition.
-- KEYS[1..10] the partition keys; then per job j (0-based): KEYS[11+2j] its pool HASH, KEYS[12+2j] a candidate slot
--   LIST (the slot the client expects the due time to fall in).
-- ARGV[1] pools S; ARGV[2] job count n; ARGV[3] slot lookahead ms; then per job, 2 values from ARGV[4+2j]: id, and
--   the job as struct '<Bi6i6i6' mode (1: time is a delay from the server's now, 0: absolute epoch ms), time ms,
--   candidate slot start ms, ttl ms (0 = none), followed by the record from its attempts field on (attempts 0,
--   maxAttempts, visibilityMs, backoff, lastError, payload; see record.lua). The script prepends format, due,
--   created and expireAt.
-- Reply: { OK, then per job: status (0 created, 4 duplicate id), state ('ready'|'delayed'|the live job's state),
--   due ms (of the new job, or of the live one on a duplicate) }.
local ENQUEUE_ARG, ENQUEUE_ARG_BYTES = '<Bi6i6i6', 19
local RECORD_TIMES = '<Bi6i6i6' -- format, due, created, expireAt: the record's header up to attempts
load_meta(true)
local n = tonumber(ARGV[2])
local lookahead = tonumber(ARGV[3])
local now = now_ms()
local reply, r = { OK }, 1 -- r: length of reply (counters instead of #t, which costs a search per use)
local created, ready_count = 0, 0
-- Placement is collected and written after the loop, one command per target key instead of one per job.
local near_args, slot_lists, slot_order = {}, {}, {}
local n_near = 0
local near_min, slot_min = nil, nil
-- Commands take at most LUAI_MAXCSTACK arguments through unpack: large argument lists go in chunks.
local CHUNK = 4000
local function write(cmd, key, args, count)
  for i = 1, count, CHUNK do
    local last = math.min(i + CHUNK - 1, count)
    redis.call(cmd, key, unpack(args, i, last))
  end
end

-- 1. Which ids a live job holds already: one HMGET per pool instead of one HSETNX per job. A job past its ttl is
-- gone by the clock (get() reports it absent) even before a catch-up swept it: it is swept here, and its id is
-- free.
local by_pool, pool_order = {}, {}
for j = 0, n - 1 do
  local pool_key = KEYS[11 + 2 * j]
  local g = by_pool[pool_key]
  if not g then
    g = { n = 0, hset = {}, hn = 0 }
    by_pool[pool_key] = g
    pool_order[#pool_order + 1] = pool_key
  end
  g.n = g.n + 1
  g[g.n] = ARGV[4 + 2 * j]
end
local existing, swept, expired = {}, {}, 0
for _, pool_key in ipairs(pool_order) do
  local g = by_pool[pool_key]
  for i = 1, g.n, CHUNK do
    local last = math.min(i + CHUNK - 1, g.n)
    local recs = redis.call('HMGET', pool_key, unpack(g, i, last))
    for k = 1, #recs do
      local rec, id = recs[k], g[i + k - 1]
      if rec and not swept[id] then
        local _, _, _, expire = struct.unpack(RECORD_TIMES, rec)
        if expire > 0 and expire <= now then
          drop(pool_key, id, 'expired', rec)
          swept[id] = true -- an id twice in this call is swept once
          expired = expired + 1
        else
          existing[id] = rec
        end
      end
    end
  end
end
if expired > 0 then redis.call('HINCRBY', K_STATS, 'expired', expired) end

-- 2. Per job in order: a duplicate of a live job or of an earlier job of this call, or a new record and its place.
local created_state, created_due = {}, {} -- jobs this call created: a later duplicate in the same call reports them
for j = 0, n - 1 do
  local id, arg = ARGV[4 + 2 * j], ARGV[5 + 2 * j]
  local pool_key = KEYS[11 + 2 * j]
  local old = existing[id]
  if old then
    local due = record_due(old)
    reply[r + 1], reply[r + 2], reply[r + 3] = DUPLICATE, state_of(id, due, now), due
    r = r + 3
  elseif created_state[id] then
    reply[r + 1], reply[r + 2], reply[r + 3] = DUPLICATE, created_state[id], created_due[id]
    r = r + 3
  else
    local relative, due, slot_start, ttl = struct.unpack(ENQUEUE_ARG, arg)
    if relative == 1 then due = now + due end
    local expire = 0
    if ttl > 0 then expire = now + ttl end
    local g = by_pool[pool_key]
    g.hset[g.hn + 1] = id
    g.hset[g.hn + 2] = struct.pack(RECORD_TIMES, 1, due, now, expire) .. string.sub(arg, ENQUEUE_ARG_BYTES + 1)
    g.hn = g.hn + 2
    if expire > 0 then
      redis.call('ZADD', K_TTL, expire, id)
      clock_work_at(expire)
      promoter_due(expire)
    end
    -- Where placement() (place.lua) says, collected to be written after the loop.
    local slot_key = KEYS[12 + 2 * j]
    local where = placement(due, now, slot_key, slot_start, lookahead)
    local state = 'delayed'
    if where == 'ready' then
      state = 'ready'
      ready_count = ready_count + 1
      -- Into near like a delayed job, but announced by this script's wake-up rather than by a promoter.
      near_args[n_near + 1], near_args[n_near + 2] = due, id
      n_near = n_near + 2
    elseif where == 'slot' then
      local list = slot_lists[slot_key]
      if not list then
        list = { start = slot_start, n = 0 }
        slot_lists[slot_key] = list
        slot_order[#slot_order + 1] = slot_key
      end
      list.n = list.n + 1
      list[list.n] = id
      if slot_min == nil or slot_start < slot_min then slot_min = slot_start end
    else
      near_args[n_near + 1], near_args[n_near + 2] = due, id
      n_near = n_near + 2
      if near_min == nil or due < near_min then near_min = due end
    end
    created = created + 1
    created_state[id], created_due[id] = state, due
    reply[r + 1], reply[r + 2], reply[r + 3] = OK, state, due
    r = r + 3
  end
end

-- 3. Write: the records, one HSET per pool; the placements, one command per target key.
for _, pool_key in ipairs(pool_order) do
  local g = by_pool[pool_key]
  write('HSET', pool_key, g.hset, g.hn)
end
for _, slot_key in ipairs(slot_order) do
  local list = slot_lists[slot_key]
  if redis.call('LLEN', slot_key) == 0 then redis.call('ZADD', K_SLOTS, list.start, list.start) end
  write('RPUSH', slot_key, list, list.n)
end
if slot_min then
  clock_work_at(slot_min)
  promoter_due(slot_min - lookahead)
end
write('ZADD', K_NEAR, near_args, n_near)
if near_min then promoter_due(near_min) end
if created > 0 then redis.call('HINCRBY', K_STATS, 'enqueued', created) end
wake(ready_count)
return reply
