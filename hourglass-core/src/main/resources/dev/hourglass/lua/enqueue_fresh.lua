--- @include "partition"
--- @include "dictionary"
-- enqueue_fresh: create jobs whose ids no live job can hold (the client made them at random for these jobs) in one
-- partition, without looking them up. Jobs of priority 0 only: the client sends the others through enqueue.lua, which
-- places each by the priority in its record (includes/priority.lua). The client writes each record whole and sorts the
-- jobs by where they go, so each group is written by one command straight from the arguments, with no work per job in
-- the script.
-- KEYS[1..13] the partition keys; KEYS[13+g] the pool HASH of group g (1-based); then L slot LISTs.
-- ARGV[1] pools S; ARGV[2] the client's estimate of the server clock its records were written at (their created
--   time, the due time of a delay, the expiry of a ttl), or 0 when they hold none of the last two; ARGV[3] the most
--   that estimate may lag, ms; ARGV[4] slot width ms; ARGV[5] G; ARGV[6] N, the jobs in near; ARGV[7] T, the jobs
--   with a ttl; ARGV[8] L; ARGV[9] the earliest due time of the jobs in near (when N > 0); ARGV[10..9+G] each
--   group's job count c; ARGV[10+G..9+G+2L] per slot list its start and its job count k; then the sections: per
--   group, c pairs member, record (whole: record.lua); N pairs due time (decimal), member; T pairs expiry ms,
--   member; per slot list, its k members, then their k due times (decimal); last, the id of the zstd dictionary
--   compressed payloads name and its bytes or '' (includes/dictionary.lua).
-- Reply: { OK, now ms }; or { CLOCK_SKEW, now ms } when ARGV[2] is after now or lags it by more than ARGV[3], and
--   no job was written: the client writes the records again from that now; or { NEED_DICTIONARY, now ms }, nothing
--   written, when the partition lacks the dictionary named.
local argv, call = ARGV, redis.call
load_meta(true)
local now = now_ms()
local estimate = tonumber(argv[2])
if estimate > 0 and (estimate > now or now - estimate > tonumber(argv[3])) then return { CLOCK_SKEW, now } end
if not dictionary_held() then return { NEED_DICTIONARY, now } end
local width, groups, in_near, with_ttl, lists = tonumber(argv[4]), tonumber(argv[5]), tonumber(argv[6]),
  tonumber(argv[7]), tonumber(argv[8])
-- Commands take at most LUAI_MAXCSTACK arguments through unpack: long runs of arguments go in chunks.
local CHUNK = 4000
local function write(cmd, key, from, count)
  for i = from, from + count - 1, CHUNK do
    call(cmd, key, unpack(argv, i, math.min(i + CHUNK - 1, from + count - 1)))
  end
end

local a = 10 + groups + 2 * lists -- the first argument of the sections
local created = 0
for g = 1, groups do
  local c = tonumber(argv[9 + g])
  pool_write(KEYS[FIRST_EXTRA_KEY - 1 + g], argv, a, a + 2 * c - 1)
  a, created = a + 2 * c, created + c
end

if in_near > 0 then
  write('ZADD', K_NEAR, a, 2 * in_near)
  a = a + 2 * in_near
  local earliest = tonumber(argv[9])
  if earliest > now then
    promoter_due(earliest)
  else
    -- Ready at once: announced by this script's wake-up rather than by a promoter (every ready job counts, those
    -- that waited before included: tokens are hints, at most 16).
    local now_str = fmt(now)
    wake(call('ZCOUNT', K_NEAR, '-inf', now_str))
    local next_due = head_score(K_NEAR, '(' .. now_str)
    if next_due then promoter_due(next_due) end
  end
end

if with_ttl > 0 then
  write('ZADD', K_TTL, a, 2 * with_ttl)
  local earliest
  for i = a, a + 2 * with_ttl - 1, 2 do
    local expire = tonumber(argv[i])
    if earliest == nil or expire < earliest then earliest = expire end
  end
  clock_work_at(earliest)
  promoter_due(earliest)
  a = a + 2 * with_ttl
end

-- A slot list holds jobs due at or after the watermark (see place.lua); a list the watermark has passed meanwhile
-- is not written, and its jobs wait in near instead, at their due times.
local wm = M_WM
if not wm then
  wm = now
  call('HSET', K_META, 'wm', fmt(now))
end
for l = 1, lists do
  local start, k = tonumber(argv[8 + groups + 2 * l]), tonumber(argv[9 + groups + 2 * l])
  local key = KEYS[FIRST_EXTRA_KEY - 1 + groups + l]
  if start >= wm then
    if call('LLEN', key) == 0 then call('ZADD', K_SLOTS, start, start) end
    write('RPUSH', key, a, k)
    clock_work_at(start)
    promoter_due(start - width)
  else
    local pairs_ = {}
    for i = 0, k - 1 do pairs_[2 * i + 1], pairs_[2 * i + 2] = argv[a + k + i], argv[a + i] end
    call('ZADD', K_NEAR, unpack(pairs_))
    local now_str = fmt(now)
    wake(call('ZCOUNT', K_NEAR, '-inf', now_str)) -- those already due, announced as above
    promoter_due(head_score(K_NEAR, '(' .. now_str) or NOTHING_DUE)
  end
  a = a + 2 * k
end
if created > 0 then call('HINCRBY', K_STATS, 'enqueued', fmt(created)) end
return { OK, now }
