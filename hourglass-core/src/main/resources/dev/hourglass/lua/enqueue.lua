--- @include "partition"
--- @include "record"
--- @include "jobs"
--- @include "place"
--- @include "dictionary"
-- enqueue: create jobs whose ids the caller was given, in one partition: each is looked up first, and refused as a
-- duplicate of a live job that holds its id. (Ids the client made at random go through enqueue_fresh.lua.) The
-- caller sends each member at most once per call, and the jobs of one pool one after the other.
-- KEYS[1..13] the partition keys; then KEYS[13+g] the pool HASH of group g (1-based); then m declared slot LISTs
--   (the slot lists the caller expects the jobs' due times to fall in; see placement() in place.lua).
-- ARGV[1] pools S; ARGV[2] the client's estimate of the server clock its records were written at (their created
--   time, the due time of a delay, the expiry of a ttl), or 0 when they hold none of the last two; ARGV[3] the most
--   that estimate may lag, ms; ARGV[4] G, the number of groups; ARGV[5..4+G] each group's job count; ARGV[5+G] slot
--   width ms; ARGV[6+G] m; ARGV[7+G..6+G+m] the declared slot lists' starts; then, with F = 7+G+m: ARGV[F] the
--   jobs' members, one after the other, each struct '<Bc0'; ARGV[F+1] per job struct TIMES: its due time, its
--   expiry (0: none) and its due time in decimal as ZADD takes it; then ARGV[F+2..F+1+n] the jobs' records, whole
--   (record.lua), each its own argument (every string that enters a script is hashed whole, so a record crosses
--   once); last, the id of the zstd dictionary compressed payloads name and its bytes or '' (includes/dictionary.lua).
-- Reply: { OK, now ms, then per job refused as a duplicate of a live job: its index (1-based, in the order sent),
--   the live job's state and due ms }, or { CLOCK_SKEW, now ms } when ARGV[2] is after now or lags it by more than
--   ARGV[3], and no job was written; or { NEED_DICTIONARY, now ms }, no job written, when the partition lacks the
--   dictionary named. Every other job was created, and is ready when its due time is not after now, else delayed.
local MEMBER, TIMES = '<Bc0', '<i6i6Bc0'
local argv, call, unpack_struct = ARGV, redis.call, struct.unpack
load_meta(true)
local now = now_ms()
local estimate = tonumber(argv[2])
if estimate > 0 and (estimate > now or now - estimate > tonumber(argv[3])) then return { CLOCK_SKEW, now } end
if not dictionary_held() then return { NEED_DICTIONARY, now } end
local groups = tonumber(argv[4])
local width, m_slots = tonumber(argv[5 + groups]), tonumber(argv[6 + groups])
local declared = declared_slots(6 + groups, FIRST_EXTRA_KEY + groups)
local f = 7 + groups + m_slots
local member_blob, times_blob, first_record = argv[f], argv[f + 1], f + 1
local wm = watermark(now)
-- Commands take at most LUAI_MAXCSTACK arguments through unpack: large argument lists go in chunks.
local CHUNK = 4000
local function write(cmd, key, args, count)
  for i = 1, count, CHUNK do
    call(cmd, key, unpack(args, i, math.min(i + CHUNK - 1, count)))
  end
end

-- 1. The members; and which of them a live job holds already, one HMGET per pool. A job past its ttl is gone by the
-- clock (get() reports it absent) even before a catch-up swept it: it is swept here, and its id is free.
local members, n, pos = {}, 0, 1
local existing, expired = nil, 0
for g = 1, groups do
  local key, c = KEYS[FIRST_EXTRA_KEY - 1 + g], tonumber(argv[4 + g])
  for j = n + 1, n + c do
    members[j], pos = unpack_struct(MEMBER, member_blob, pos)
  end
  local found = call('HMGET', key, unpack(members, n + 1, n + c))
  for x = 1, c do
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

-- 2. Per job in order: a duplicate of a live job, or a new record and its place (placement() in place.lua, written out;
-- near or K_PRIO by the priority in the record). Records go in one HSET per pool; placements are collected and written
-- after the loop, one command per target key instead of one per job.
local reply, r = { OK, now }, 2 -- r: length of reply (counters instead of #t, which costs a search per use)
local created, ready_count = 0, 0
local pairs_, near_args, n_near, near_min = {}, {}, 0, nil
local prio_args, n_prio = {}, 0 -- jobs of priority 1 to 9 wait in K_PRIO (includes/priority.lua)
local slot_lists, slot_order, slot_min = {}, {}, nil
local j = 0
pos = 1
for g = 1, groups do
  local p = 0 -- pairs_ of this group: member, record, ...
  for _ = 1, tonumber(argv[4 + g]) do
    j = j + 1
    local m = members[j]
    local due, expire, score
    due, expire, score, pos = unpack_struct(TIMES, times_blob, pos)
    local old = existing and existing[m]
    if old then
      local old_due = record_due(old)
      reply[r + 1], reply[r + 2], reply[r + 3] = j, state_of(m, old_due, now, record_prio(old)), old_due
      r = r + 3
    else
      pairs_[p + 1], pairs_[p + 2] = m, argv[first_record + j]
      p = p + 2
      if expire > 0 then
        call('ZADD', K_TTL, expire, m)
        clock_work_at(expire)
        promoter_due(expire)
      end
      local slot_key = false
      if due > now and due >= wm then
        local start = due - due % width
        slot_key = start >= wm and declared[start]
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
        end
      end
      if not slot_key then
        local prio = record_prio(argv[first_record + j])
        if prio > 0 then
          prio_list(prio)
          prio_args[n_prio + 1], prio_args[n_prio + 2] = prio_score(prio, due), m
          n_prio = n_prio + 2
        else
          near_args[n_near + 1], near_args[n_near + 2] = score, m
          n_near = n_near + 2
        end
        if due <= now then
          ready_count = ready_count + 1 -- announced by this script's wake-up rather than by a promoter
        elseif near_min == nil or due < near_min then
          near_min = due
        end
      end
      created = created + 1
    end
  end
  if p > 0 then pool_write(KEYS[FIRST_EXTRA_KEY - 1 + g], pairs_, 1, p) end
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
if n_prio > 0 then write('ZADD', K_PRIO, prio_args, n_prio) end
if near_min then promoter_due(near_min) end
if created > 0 then call('HINCRBY', K_STATS, 'enqueued', created) end
wake(ready_count)
return reply
