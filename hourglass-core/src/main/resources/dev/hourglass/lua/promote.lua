-- promote: one promoter pass over a partition. Safe to run from many processes: a leadership lock (meta po/pu)
-- lets one promote and answers the others at once with the time to try again. When meta.due says nothing is due
-- yet, the pass ends after one HMGET and TIME: that is what an idle safety sweep costs.
-- KEYS[1..10] the partition keys; KEYS[11..10+S] every pool HASH in index order; then KEYS[11+S..] slot LISTs the
--   client declares for loading, in the order of their starts in ARGV.
-- ARGV[1] pools S; ARGV[2] owner id; ARGV[3] lock ms; ARGV[4] lookahead ms (slots starting before now + lookahead
--   are loaded into near); ARGV[5] budget (max jobs moved per step); ARGV[6] dead retention age ms (0 = keep);
--   ARGV[7] dead retention count (0 = no limit); ARGV[8] number m of declared slot keys; ARGV[9..8+m] their starts.
-- Reply: { leader (1|0), jobs the pass made ready (expired leases back, slot jobs loaded when already due, layout-1
--   ready jobs folded in; a job waiting in near turns ready by the clock alone and is not counted), more (1: a budget was hit or an undeclared slot is due: call again now),
--   next wake ms (server clock; -1 none known), now ms, full pass (1|0), then up to 4 upcoming slot starts }
load_meta(false)
local owner, lock_ms, lookahead, budget = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local dead_age, dead_count, m = tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8])
local NOTHING_DUE = 9000000000000000
local now = now_ms()

if M_LOCK_OWNER and M_LOCK_OWNER ~= owner and M_LOCK_UNTIL and M_LOCK_UNTIL > now then
  return { 0, 0, 0, M_LOCK_UNTIL, now, 0 }
end
if M_LOCK_OWNER ~= owner or M_LOCK_UNTIL == nil or M_LOCK_UNTIL - now < lock_ms / 2 then
  redis.call('HSET', K_META, 'po', owner, 'pu', now + lock_ms)
end
-- This promoter serves the partition now: promoters of older layouts stand down, and slot entries may be bare ids.
stand_down_older(now)
-- Idle unless something is due or the retention settings changed since the last full pass.
local retention = ARGV[6] .. ':' .. ARGV[7]
if M_DUE and M_DUE > now and M_RETENTION == retention then
  return { 1, 0, 0, M_DUE, now, 0 }
end
if M_RETENTION ~= retention then redis.call('HSET', K_META, 'ret', retention) end

local pool_base = FIRST_EXTRA_KEY
local function pool_of(id) return KEYS[pool_base + pool_index(id)] end
local more = 0

-- Due jobs in near are ready where they are (claim takes them from near), by the clock alone. The ones that fell
-- due since the last pass (meta.sig) are announced to blocked consumers at the end, with the jobs this pass makes
-- ready below.
local since = '-inf'
if M_SIGNALLED then since = '(' .. M_SIGNALLED end
local fell_due = redis.call('ZCOUNT', K_NEAR, since, now)
local made_ready = 0
local signalled = now
if M_SIGNALLED and M_SIGNALLED > now then signalled = M_SIGNALLED end

-- 1. Jobs past their ttl leave, wherever they are.
local expired = redis.call('ZRANGEBYSCORE', K_TTL, '-inf', now, 'LIMIT', 0, budget)
for _, id in ipairs(expired) do drop(pool_of(id), id) end
if #expired > 0 then redis.call('HINCRBY', K_STATS, 'expired', #expired) end
if #expired == budget then more = 1 end

-- 2. Expired leases: the attempt counts; back to near (ready, at their due time), or dead when attempts are spent.
local lapsed = redis.call('ZRANGEBYSCORE', K_INFLIGHT, LEASES_FROM, now, 'LIMIT', 0, budget)
local requeued, killed = 0, 0
for _, id in ipairs(lapsed) do
  local pool_key = pool_of(id)
  local rec = redis.call('HGET', pool_key, id)
  redis.call('ZREM', K_INFLIGHT, id)
  redis.call('HDEL', K_LEASES, id)
  if rec then
    local j = decode(rec)
    j.attempts = j.attempts + 1
    j.err = 'lease expired'
    redis.call('HSET', pool_key, id, encode(j, rec))
    if j.attempts >= j.max_attempts then
      redis.call('ZADD', K_DEAD, now, id)
      killed = killed + 1
    else
      redis.call('ZADD', K_NEAR, j.due, id)
      requeued = requeued + 1
    end
  end
end
if requeued > 0 then redis.call('HINCRBY', K_STATS, 'retried', requeued) end
if killed > 0 then redis.call('HINCRBY', K_STATS, 'dead', killed) end
if #lapsed == budget then more = 1 end

-- 3. Load slots that start before now + lookahead into near, then advance the watermark past what was loaded.
local target = now + lookahead
local declared = {}
for i = 1, m do declared[tonumber(ARGV[8 + i])] = KEYS[pool_base + POOLS + i - 1] end
local wm = watermark(now)
local ID_CHARS = '^[A-Za-z0-9._:%-]+$'
local LEGACY_SPAN = 1099511627776 -- 2^40 ms: how far past its slot's start a due-time entry's due may lie
-- Loads the job of a slot entry into near at the due time its record holds, if it still waits for it: its record
-- exists, it is neither leased nor dead, and, for an entry that names a due time, the record's is the same.
-- Entries left behind by cancel or reschedule are skipped that way. A job already in near has its due time as its
-- score, so adding it again changes nothing; a job rescheduled to a later slot may be loaded early, which only
-- means it waits in near (claim takes a job from near when it is due).
local function load_entry(id, entry_due)
  local rec = redis.call('HGET', pool_of(id), id)
  if not rec then return end
  local due = decode(rec).due
  if (entry_due == nil or entry_due == due) and not set_state(id) then
    if redis.call('ZADD', K_NEAR, due, id) == 1 and due <= now then
      made_ready = made_ready + 1 -- a late pass: ready at once
    end
  end
end
local loaded = 0
local blocked_at = nil
while true do
  local first = redis.call('ZRANGEBYSCORE', K_SLOTS, '-inf', '(' .. target, 'LIMIT', 0, 1)
  if #first == 0 then break end
  local start = tonumber(first[1])
  local slot_key = declared[start]
  if not slot_key or loaded >= budget then
    blocked_at = start
    more = 1
    break
  end
  local entries = redis.call('LRANGE', slot_key, 0, budget - loaded - 1)
  for _, e in ipairs(entries) do
    -- An entry is a bare id, or the due time (6 bytes) and then the id: written before older promoters stood down,
    -- or by a script of layouts 1 to 3 still running (see slot_entry()). An id has only the characters of ID_CHARS,
    -- and the sixth byte of a due-time entry is due >> 40, which stays below them until the year 3538: a slot that
    -- far out can hold both forms, so both readings are tried there.
    local bare = string.find(e, ID_CHARS) ~= nil
    if bare then load_entry(e, nil) end
    if #e > SLOT_DUE_BYTES then
      local due = struct.unpack(SLOT_DUE, e)
      if not bare or (due >= start and due - start < LEGACY_SPAN) then
        load_entry(string.sub(e, SLOT_DUE_BYTES + 1), due)
      end
    end
  end
  loaded = loaded + #entries
  if redis.call('LLEN', slot_key) > #entries then
    redis.call('LTRIM', slot_key, #entries, -1)
    blocked_at = start
    more = 1
    break
  end
  redis.call('DEL', slot_key)
  redis.call('ZREM', K_SLOTS, start)
end
local new_wm = blocked_at or target
if new_wm > wm then redis.call('HSET', K_META, 'wm', new_wm) end

-- 4. Jobs a layout-1 client left in ready fold back into near; then every job that became ready is announced.
local legacy = redis.call('ZRANGE', K_READY, 0, budget - 1, 'WITHSCORES')
if #legacy > 0 then
  local zadd, ids = {}, {}
  for i = 1, #legacy, 2 do
    zadd[i], zadd[i + 1] = legacy[i + 1], legacy[i]
    ids[(i + 1) / 2] = legacy[i]
  end
  redis.call('ZADD', K_NEAR, unpack(zadd))
  redis.call('ZREM', K_READY, unpack(ids))
  made_ready = made_ready + #ids
  if #ids == budget then more = 1 end
end
wake(fell_due + made_ready + requeued)

-- 5. Dead-letter retention, by age and by count.
if dead_age > 0 then
  local old = redis.call('ZRANGEBYSCORE', K_DEAD, '-inf', now - dead_age, 'LIMIT', 0, budget)
  for _, id in ipairs(old) do drop(pool_of(id), id) end
  if #old > 0 then redis.call('HINCRBY', K_STATS, 'purged', #old) end
  if #old == budget then more = 1 end
end
if dead_count > 0 then
  local excess = redis.call('ZCARD', K_DEAD) - dead_count
  if excess > 0 then
    if excess > budget then excess = budget; more = 1 end
    local oldest = redis.call('ZRANGE', K_DEAD, 0, excess - 1)
    for _, id in ipairs(oldest) do drop(pool_of(id), id) end
    redis.call('HINCRBY', K_STATS, 'purged', #oldest)
  end
end

-- 6. When is the next pass worth running: the earliest of the next job in near to fall due, a lease deadline, a
-- ttl expiry, and the moment the next slot enters the lookahead window.
local next_wake = -1
local function consider(t)
  if t and (next_wake < 0 or t < next_wake) then next_wake = t end
end
-- The lowest score in key from min on, or nil.
local function head_score(key, min)
  local h = redis.call('ZRANGEBYSCORE', key, min, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
  if h[2] then return tonumber(h[2]) end
  return nil
end
consider(head_score(K_NEAR, '(' .. now))
consider(head_score(K_INFLIGHT, LEASES_FROM))
consider(head_score(K_TTL, '-inf'))
if dead_age > 0 then
  local oldest_dead = head_score(K_DEAD, '-inf')
  if oldest_dead then consider(oldest_dead + dead_age) end
end
local upcoming = redis.call('ZRANGE', K_SLOTS, 0, 3)
if upcoming[1] then consider(tonumber(upcoming[1]) - lookahead) end
local due = NOTHING_DUE
if more == 1 then
  due = now
elseif next_wake >= 0 then
  due = next_wake
end
redis.call('HSET', K_META, 'due', due, 'sig', signalled)
local reply = { 1, made_ready + requeued, more, next_wake, now, 1 }
for _, s in ipairs(upcoming) do reply[#reply + 1] = tonumber(s) end
return reply
