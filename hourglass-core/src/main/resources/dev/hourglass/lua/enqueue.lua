--- @include "partition"
--- @include "record"
--- @include "jobs"
--- @include "place"
-- enqueue: create one or more jobs in one partition. The caller sends each member at most once per call, and the
-- jobs of one pool one after the other: first those whose ids a live job may hold already (ids the caller was
-- given), then those whose ids no job can hold (ids the client made at random for them), which are not looked up.
-- KEYS[1..10] the partition keys; then KEYS[10+g] the pool HASH of group g (1-based); then m declared slot LISTs
--   (the slot lists the caller expects the jobs' due times to fall in; see placement() in place.lua).
-- ARGV[1] pools S; ARGV[2] G, the number of groups; ARGV[1+2g], ARGV[2+2g] group g's job count and how many of
--   them to look up; ARGV[3+2G] slot width ms; ARGV[4+2G] m; ARGV[5+2G..4+2G+m] the declared slot lists' starts;
--   then, with F = 5+2G+m: ARGV[F] the jobs'
--   members, one after the other, each struct '<Bc0'; ARGV[F+1] per job struct TIMES: its kind, time ms, ttl ms (0:
--   none) and its due time in decimal as ZADD takes it (kinds 0 and 2; empty for kind 1); then ARGV[F+2..F+1+n]
--   the jobs' records, each its own argument (every string that enters a script is hashed whole, so a record
--   crosses once). Kind 0: the time is the due time, the record is whole (the client wrote its created time from
--   its estimate of the server clock), and the job has no ttl. Kinds 1 and 2: the record is given from its flags
--   on (see record.lua: flags, attempts 0, maxAttempts, visibilityMs, backoff, an empty last error, payload), and
--   the script puts the three times in front by the server clock: kind 1 counts the time as a delay from now,
--   kind 2 as the due time.
-- Reply: { OK, now ms, then per job refused as a duplicate of a live job: its index (1-based, in the order sent),
--   the live job's state and due ms }. Every other job was created, due at its time (a delay counts from now), and
--   is ready when that is not after now, else delayed.
local MEMBER, TIMES = '<Bc0', '<Bi6i6Bc0'
local argv, call, byte, unpack_struct = ARGV, redis.call, string.byte, struct.unpack
load_meta(true)
local groups = tonumber(argv[2])
local width, m_slots = tonumber(argv[3 + 2 * groups]), tonumber(argv[4 + 2 * groups])
local declared = declared_slots(4 + 2 * groups, FIRST_EXTRA_KEY + groups)
local f = 5 + 2 * groups + m_slots
local member_blob, times_blob, first_record = argv[f], argv[f + 1], f + 1
local now = now_ms()
local wm = watermark(now)
-- Commands take at most LUAI_MAXCSTACK arguments through unpack: large argument lists go in chunks.
local CHUNK = 4000
local function write(cmd, key, args, count)
  for i = 1, count, CHUNK do
    call(cmd, key, unpack(args, i, math.min(i + CHUNK - 1, count)))
  end
end

-- 1. The members; and which of those to look up a live job holds already, one HMGET per pool. A job past its ttl is
-- gone by the clock (get() reports it absent) even before a catch-up swept it: it is swept here, and its id is free.
local members, n, pos = {}, 0, 1
local existing, expired = nil, 0
for g = 1, groups do
  local key, c, checked = KEYS[10 + g], tonumber(argv[1 + 2 * g]), tonumber(argv[2 + 2 * g])
  for j = n + 1, n + c do
    members[j], pos = unpack_struct(MEMBER, member_blob, pos)
  end
  local found = checked > 0 and call('HMGET', key, unpack(members, n + 1, n + checked)) or {}
  for x = 1, checked do
    local rec = found[x]
    if rec then
      local m = members[n + x]
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
  n = n + c
end
if expired > 0 then call('HINCRBY', K_STATS, 'expired', expired) end

-- 2. Per job in order: a duplicate of a live job, or a new record and its place (placement() in place.lua, written
-- out). Records go in one HSET per pool; placements are collected and written after the loop, one command per
-- target key instead of one per job.
local reply, r = { OK, now }, 2 -- r: length of reply (counters instead of #t, which costs a search per use)
local created, ready_count = 0, 0
local pairs_, near_args, n_near, near_min = {}, {}, 0, nil
local slot_lists, slot_order, slot_min = {}, {}, nil
local j = 0
pos = 1
for g = 1, groups do
  local p = 0 -- pairs_ of this group: member, record, ...
  for _ = 1, tonumber(argv[1 + 2 * g]) do
    j = j + 1
    local m = members[j]
    local kind, due, ttl, score
    kind, due, ttl, score, pos = unpack_struct(TIMES, times_blob, pos)
    local old = existing and existing[m]
    if old then
      local old_due = record_due(old)
      reply[r + 1], reply[r + 2], reply[r + 3] = j, state_of(m, old_due, now), old_due
      r = r + 3
    else
      local rec = argv[first_record + j]
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
      pairs_[p + 1], pairs_[p + 2] = m, rec
      p = p + 2
      local start = due - due % width
      local slot_key = due > now and start >= wm and declared[start]
      if slot_key then
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
        if due <= now then
          ready_count = ready_count + 1 -- announced by this script's wake-up rather than by a promoter
        elseif near_min == nil or due < near_min then
          near_min = due
        end
      end
      created = created + 1
    end
  end
  if p > 0 then write('HSET', KEYS[10 + g], pairs_, p) end
end

-- 3. The placements, one command per target key.
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
