--- @include "partition"
--- @include "pools"
--- @include "record"
--- @include "jobs"
--- @include "place"
-- enqueue: create one or more jobs in one partition. The caller sends each member at most once per call.
-- KEYS[1..10] the partition keys; KEYS[11..10+S] every pool HASH in index order; then m declared slot LISTs (the
--   slot lists the caller expects the jobs' due times to fall in; see placement() in place.lua).
-- ARGV[1] pools S; ARGV[2] job count n; ARGV[3] slot width ms; ARGV[4] m; ARGV[5..4+m] the declared slot lists'
--   starts; ARGV[5+m] the jobs' members, one after the other, each struct '<Bc0'; ARGV[6+m] per job struct TIMES:
--   its kind, time ms, ttl ms (0: none) and its due time in decimal as ZADD takes it (kinds 0 and 2; empty for kind
--   1); then ARGV[7+m..6+m+n] the jobs' records, each its own argument (every string that enters a script is
--   hashed whole, so a record crosses once). Kind 0: the time is the due time, the record is whole (the client
--   wrote its created time from its estimate of the server clock), and the job has no ttl. Kinds 1 and 2: the
--   record is given from its flags on (see record.lua: flags, attempts 0, maxAttempts, visibilityMs, backoff, an
--   empty last error, payload), and the script puts the three times in front by the server clock: kind 1 counts
--   the time as a delay from now, kind 2 as the due time.
-- Reply: { OK, now ms, then per job refused as a duplicate of a live job: its index (1-based), the live job's state
--   and due ms }. Every other job was created, due at its time (a delay counts from now), and is ready when that
--   is not after now, else delayed.
local MEMBER, TIMES = '<Bc0', '<Bi6i6Bc0'
load_meta(true)
local n, width, m_slots = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local declared = declared_slots(4, FIRST_EXTRA_KEY + POOLS)
local member_blob, times_blob = ARGV[5 + m_slots], ARGV[6 + m_slots]
local first_record = 6 + m_slots
local now = now_ms()
local call, byte, unpack_struct = redis.call, string.byte, struct.unpack
-- Commands take at most LUAI_MAXCSTACK arguments through unpack: large argument lists go in chunks.
local CHUNK = 4000
local function write(cmd, key, args, count)
  for i = 1, count, CHUNK do
    call(cmd, key, unpack(args, i, math.min(i + CHUNK - 1, count)))
  end
end

-- 1. The members, grouped by pool (a member's last byte names its pool).
local members, by_pool, pools_used = {}, {}, {}
local pos = 1
for j = 1, n do
  local m
  m, pos = unpack_struct(MEMBER, member_blob, pos)
  members[j] = m
  local b = byte(m, -1)
  local g = by_pool[b]
  if g then
    g[#g + 1] = m
  else
    by_pool[b] = { m }
    pools_used[#pools_used + 1] = b
  end
end

-- 2. Which members a live job holds already: one HMGET per pool. A job past its ttl is gone by the clock (get()
-- reports it absent) even before a catch-up swept it: it is swept here, and its id is free.
local existing, expired = nil, 0
for _, b in ipairs(pools_used) do
  local g, key = by_pool[b], KEYS[FIRST_EXTRA_KEY + b]
  local found = call('HMGET', key, unpack(g))
  for x = 1, #g do
    local rec = found[x]
    if rec then
      local m = g[x]
      local expire = record_expire(rec)
      if expire > 0 and expire <= now then
        drop(key, m, 'expired', rec)
        expired = expired + 1
      else
        existing = existing or {}
        existing[m] = rec
      end
    end
  end
end
if expired > 0 then call('HINCRBY', K_STATS, 'expired', expired) end

-- 3. Per job in order: a duplicate of a live job, or a new record and its place. Records and placements are
-- collected and written after the loop, one command per target key instead of one per job.
local reply, r = { OK, now }, 2 -- r: length of reply (counters instead of #t, which costs a search per use)
local created, ready_count = 0, 0
local records = {} -- per pool byte: member, record, ...
local near_args, n_near, near_min = {}, 0, nil
local slot_lists, slot_order, slot_min = {}, {}, nil
pos = 1
for j = 1, n do
  local m = members[j]
  local kind, due, ttl, score
  kind, due, ttl, score, pos = unpack_struct(TIMES, times_blob, pos)
  local old = existing and existing[m]
  if old then
    local due = record_due(old)
    reply[r + 1], reply[r + 2], reply[r + 3] = j, state_of(m, due, now), due
    r = r + 3
  else
    local rec = ARGV[first_record + j]
    if kind ~= 0 then
      if kind == 1 then
        due = now + due
        score = due
      end
      local expire = 0
      if ttl > 0 then
        expire = now + ttl
        call('ZADD', K_TTL, expire, m)
        clock_work_at(expire)
        promoter_due(expire)
      end
      -- Concatenated: struct.pack would copy the record a byte at a time.
      rec = struct.pack(RECORD_TIMES, due, now, expire) .. rec
    end
    local b = byte(m, -1)
    local w = records[b]
    if w then
      w[#w + 1] = m
      w[#w + 1] = rec
    else
      records[b] = { m, rec }
    end
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

-- 4. Write: the records, one HSET per pool; the placements, one command per target key.
for _, b in ipairs(pools_used) do
  local w = records[b]
  if w then write('HSET', KEYS[FIRST_EXTRA_KEY + b], w, #w) end
end
for _, slot_key in ipairs(slot_order) do
  local list = slot_lists[slot_key]
  if call('LLEN', slot_key) == 0 then call('ZADD', K_SLOTS, list.start, list.start) end
  write('RPUSH', slot_key, list, list.n)
end
if slot_min then
  clock_work_at(slot_min)
  promoter_due(slot_min - width)
end
if n_near > 0 then write('ZADD', K_NEAR, near_args, n_near) end
if near_min then promoter_due(near_min) end
if created > 0 then call('HINCRBY', K_STATS, 'enqueued', created) end
wake(ready_count)
return reply
