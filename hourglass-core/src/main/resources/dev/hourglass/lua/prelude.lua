-- Prelude shared by every Hourglass script (layout version 4). The script registry prepends this file to each
-- operation script before loading it, so every script sees the same key order and helpers.
--
-- Every partition script receives the same ten leading KEYS, all carrying the partition's hash tag {queue.p}:
--   KEYS[1]  meta      HASH   pools (sub-pool count S); wm (watermark ms: due < wm lives in near, due >= wm in a
--                             slot); due (no promoter work is needed before this time: every writer that adds earlier
--                             work lowers it, so an idle promoter pass is one HMGET); po, pu (promoter lock owner and
--                             the time its lock lapses); lo, lu (the promoter lock of layouts 1 to 3: 'layout4' and
--                             a time about 95 years out once layout 4 serves the partition, see stand_down_older());
--                             ret (dead-letter retention the last full pass applied); sig (due jobs in near up to
--                             this time have been announced with wake tokens)
--   KEYS[2]  near      ZSET   id -> due ms, every job waiting for its time or for a consumer that is due before the
--                             watermark (and some later ones, see promote.lua): the ones due by now are ready, and
--                             claim takes them oldest due first
--   KEYS[3]  slots     ZSET   slotStart -> slotStart, index of non-empty slot lists
--   KEYS[4]  ready     ZSET   id -> due ms, layout 1 only: due jobs a layout-1 promoter moved out of near. Layout 2
--                             writes nothing here; a full promoter pass folds what is left back into near
--   KEYS[5]  inflight  ZSET   id -> lease deadline ms; and KEEPER -> -1 once a claim has leased a job (see KEEPER)
--   KEYS[6]  leases    HASH   id -> receipt of the current delivery; and KEEPER -> KEEPER likewise
--   KEYS[7]  dead      ZSET   id -> time of death ms
--   KEYS[8]  ttl       ZSET   id -> expiry ms, only jobs that have a ttl
--   KEYS[9]  stats     HASH   counters: enqueued, acked, retried, dead, expired, cancelled, purged; live jobs are
--                             enqueued - acked - cancelled - expired - purged (each removal counts exactly once)
--   KEYS[10] wake      LIST   wake-up tokens consumers block on (hints only)
-- Script-specific KEYS follow from KEYS[11].
-- ARGV[1] is always the pool count S the caller assumes (see POOLS_ARG); a mismatch with meta.pools is refused.
--
-- A job record (the pool HASH value) is: struct '<Bi6i6i6HHI4' (27 bytes) = format(1), due, created, expireAt
-- (0 none), attempts (finished attempts), maxAttempts, visibilityMs; then backoff (B length + bytes; length 0 = the
-- queue's default backoff), lastError (H length + bytes), then the payload bytes to the end. A slot list entry is
-- the id alone; layouts 1 to 3 wrote struct '<i6' due before it, and promote.lua reads both (see slot_entry()).
--
-- Status codes (first element of a reply, turned into typed errors in Java by ScriptStatus):
--   0 ok, 1 not found, 2 stale receipt, 3 inflight, 4 duplicate id, 5 dead (wrong state)
redis.replicate_commands()

local K_META, K_NEAR, K_SLOTS, K_READY, K_INFLIGHT, K_LEASES, K_DEAD, K_TTL, K_STATS, K_WAKE =
  KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10]
local FIRST_EXTRA_KEY = 11
local OK, NOT_FOUND, STALE, INFLIGHT, DUPLICATE, DEAD = 0, 1, 2, 3, 4, 5
local HEADER = '<Bi6i6i6HHI4'
local MAX_WAKE_TOKENS = 16
-- A member of inflight (score KEEPER_SCORE, below every lease deadline) and a field of leases that is not a job:
-- longer than the 64 bytes up to which Redis keeps a small sorted set or hash in its compact encoding (a ziplist,
-- listpack in Redis 7), so both keys stay in the hash-table one and are never deleted when their last lease ends.
-- In the compact encoding every ZADD, HSET, HMGET and ZREM scans the whole key: with the tens to hundreds of leases
-- a busy queue holds that made claim and ack cost several microseconds more per job. Not a job id (it has spaces),
-- so no lookup by id finds it; readers of whole ranges start at LEASES_FROM (deadlines are epoch ms) and stats leaves
-- it out. A promoter of an earlier version takes it for a lapsed lease of a missing job and deletes it: harmless,
-- the next claim writes it again.
local KEEPER = 'hourglass keeps this key in the hash-table encoding: not a job, see KEEPER in prelude.lua'
local KEEPER_SCORE = -1
local LEASES_FROM = 0 -- every lease deadline (epoch ms) is at or above it, the KEEPER below
-- The due time before the id in a slot entry of layouts 1 to 3 (see slot_entry()).
local SLOT_DUE, SLOT_DUE_BYTES = '<i6', 6

local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- ARGV[1] of every partition script: the pool count S, with ':staggered' after it for a queue created by layout 3
-- or later (see pool_index). The partition's meta keeps the same text, so a client assuming the other spread is
-- refused.
local POOLS_ARG = ARGV[1]
local POOLS = tonumber(string.match(POOLS_ARG, '^%d+'))
local STAGGERED = string.find(POOLS_ARG, ':staggered', 1, true) ~= nil

-- Promoters of layouts 1 to 3 take their lock in meta lo/lu and read every slot entry as a due time followed by an
-- id; a bare id would be misread, and its job never loaded. So before a partition gets bare entries, layout 4 holds
-- that old lock for good: such a promoter then finds it taken and stays idle (and sleeps until it lapses: about 95
-- years, kept below 2^63 ns ahead, which the old client's wait computes). Layout-4 promoters lock with po/pu instead.
-- The other scripts of those layouts go on working beside layout 4: they read no slot list, and the (due, id)
-- entries they write are read by layout-4 promoters.
local OLDER_PROMOTERS_OFF, OLDER_PROMOTERS_OFF_MS = 'layout4', 3000000000000
local M_WM, M_DUE, M_LOCK_OWNER, M_LOCK_UNTIL, M_RETENTION, M_SIGNALLED
local M_BARE_ENTRIES -- older promoters stand down: slot entries may be bare ids
local function stand_down_older(now)
  if M_BARE_ENTRIES then return end
  redis.call('HSET', K_META, 'lo', OLDER_PROMOTERS_OFF, 'lu', now + OLDER_PROMOTERS_OFF_MS)
  M_BARE_ENTRIES = true
end

-- Reads the partition's meta hash once per script and checks the caller's pool count against it. A partition it
-- creates gets bare slot entries from the start.
local function load_meta(create)
  local m = redis.call('HMGET', K_META, 'pools', 'wm', 'due', 'po', 'pu', 'ret', 'sig', 'lo')
  M_BARE_ENTRIES = m[8] == OLDER_PROMOTERS_OFF
  if not m[1] then
    if create then
      redis.call('HSET', K_META, 'pools', POOLS_ARG)
      stand_down_older(now_ms())
    end
  elseif m[1] ~= POOLS_ARG then
    error('HG_LAYOUT partition has ' .. m[1] .. ' pools, caller assumed ' .. POOLS_ARG) -- a string: Redis 6.2 cannot show a table
  end
  M_WM, M_DUE, M_LOCK_OWNER, M_LOCK_UNTIL, M_RETENTION = tonumber(m[2]), tonumber(m[3]), m[4], tonumber(m[5]), m[6]
  M_SIGNALLED = tonumber(m[7])
end

-- A slot list entry: the bare id once older promoters stand down (the record holds the due time), else the due time
-- as struct '<i6' followed by the id, as layouts 1 to 3 wrote and read it.
local function slot_entry(due, id)
  if M_BARE_ENTRIES then return id end
  return struct.pack(SLOT_DUE, due) .. id
end

-- Promoter work is due at time t (a near job, a lease deadline, a ttl, a slot to load): lower meta.due to it.
local function lower_due(t)
  if M_DUE == nil or t < M_DUE then
    redis.call('HSET', K_META, 'due', t)
    M_DUE = t
  end
end

-- The sub-pool of an id, from the first 16 bits x of its SHA-1; Java computes the same in Keys.poolIndex. Even: x
-- modulo S. Staggered: pool i takes a share proportional to S + i, so the pools' hash tables double at different
-- queue sizes; i is found from the sum C(i) = i * S + i * (i - 1) / 2 of the weights before it, the square root
-- guessing and exact integer comparisons deciding (all values stay far below 2^53).
local STAGGERED_TOTAL = POOLS * POOLS + POOLS * (POOLS - 1) / 2
local STAGGERED_B = POOLS - 0.5
local function weight_before(i) return i * POOLS + i * (i - 1) / 2 end
local function pool_index(id)
  local x = tonumber(string.sub(redis.sha1hex(id), 1, 4), 16)
  if not STAGGERED then return x % POOLS end
  local y = math.floor(x * STAGGERED_TOTAL / 65536)
  local i = math.floor(math.sqrt(STAGGERED_B * STAGGERED_B + 2 * y) - STAGGERED_B)
  while i + 1 < POOLS and weight_before(i + 1) <= y do i = i + 1 end
  while i > 0 and weight_before(i) > y do i = i - 1 end
  return i
end

local function decode(rec)
  local fmt, due, created, expire, attempts, max_attempts, vis, pos = struct.unpack(HEADER, rec)
  local blen = string.byte(rec, pos)
  local backoff = string.sub(rec, pos + 1, pos + blen)
  pos = pos + 1 + blen
  local elen = struct.unpack('<H', rec, pos)
  local err = string.sub(rec, pos + 2, pos + 1 + elen)
  local payload_pos = pos + 2 + elen
  return {
    due = due, created = created, expire = expire, attempts = attempts, max_attempts = max_attempts, vis = vis,
    backoff = backoff, err = err, payload_pos = payload_pos
  }
end

local function encode(j, rec)
  local err = j.err
  if #err > 65535 then err = string.sub(err, 1, 65535) end
  return struct.pack(HEADER, 1, j.due, j.created, j.expire, j.attempts, j.max_attempts, j.vis)
    .. string.char(#j.backoff) .. j.backoff .. struct.pack('<H', #err) .. err .. string.sub(rec, j.payload_pos)
end

local function wake(n)
  if n <= 0 then return end
  if n > MAX_WAKE_TOKENS then n = MAX_WAKE_TOKENS end
  local tokens = {}
  for i = 1, n do tokens[i] = '1' end
  if redis.call('LPUSH', K_WAKE, unpack(tokens)) > MAX_WAKE_TOKENS then
    redis.call('LTRIM', K_WAKE, 0, MAX_WAKE_TOKENS - 1)
  end
end

local function watermark(now)
  if M_WM then return M_WM end
  redis.call('HSET', K_META, 'wm', now)
  M_WM = now
  return now
end

-- Where a job with the given due time belongs: 'ready' when due (it goes into near, where claim finds it at once),
-- 'near' before the watermark, else 'slot' when the caller-declared slot is valid (watermark <= slotStart <= due),
-- else 'near'. The one rule every placing script follows (place() below writes at once; enqueue.lua collects a
-- batch first).
local function placement(due, now, slot_key, slot_start)
  if due <= now then return 'ready' end
  local wm = watermark(now)
  if due >= wm and slot_key and slot_start >= wm and slot_start <= due then return 'slot' end
  return 'near'
end

-- Puts a job where placement() says. A slot is loaded lookahead ms before it starts. Returns 'ready' or 'delayed',
-- and whether the job is due before any promoter work known so far (meta.due): then promoters must be woken.
-- A ready job needs no promoter: the caller wakes a consumer.
local function place(id, due, now, slot_key, slot_start, lookahead)
  local where = placement(due, now, slot_key, slot_start)
  if where == 'ready' then
    redis.call('ZADD', K_NEAR, due, id)
    return 'ready', false
  elseif where == 'slot' then
    if redis.call('RPUSH', slot_key, slot_entry(due, id)) == 1 then
      redis.call('ZADD', K_SLOTS, slot_start, slot_start)
    end
    lower_due(slot_start - lookahead)
    return 'delayed', false
  end
  redis.call('ZADD', K_NEAR, due, id)
  local earlier = M_DUE == nil or due < M_DUE
  lower_due(due)
  return 'delayed', earlier
end

-- Removes every trace of a job (slot entries excepted: they are skipped when their slot loads). The caller counts
-- the removal in exactly one counter (acked, cancelled, expired or purged).
local function drop(pool_key, id)
  redis.call('HDEL', pool_key, id)
  redis.call('ZREM', K_NEAR, id)
  redis.call('ZREM', K_READY, id)
  redis.call('ZREM', K_INFLIGHT, id)
  redis.call('HDEL', K_LEASES, id)
  redis.call('ZREM', K_DEAD, id)
  redis.call('ZREM', K_TTL, id)
end

-- Checks that the receipt holds the job's current lease: nil when it does, else the status to return
-- (STALE when the job lives on under another or no lease, NOT_FOUND when it is gone).
local function lease_refusal(pool_key, id, receipt)
  if redis.call('HGET', K_LEASES, id) == receipt then return nil end
  if redis.call('HEXISTS', pool_key, id) == 1 then return STALE end
  return NOT_FOUND
end

-- The state of a live job that is not in near: 'inflight', 'dead', 'ready' (a layout-1 ready set), or nil when
-- it is in none of these sets and so waits in a slot list.
local function set_state(id)
  if redis.call('ZSCORE', K_INFLIGHT, id) then return 'inflight' end
  if redis.call('ZSCORE', K_DEAD, id) then return 'dead' end
  if redis.call('ZSCORE', K_READY, id) then return 'ready' end
  return nil
end

-- The state of a live job: a job in near is ready once it is due (by the server clock now), else delayed (a job is
-- never in near and another set at once); otherwise set_state(), and a job in no set waits in a slot list.
local function state_of(id, now)
  local due = redis.call('ZSCORE', K_NEAR, id)
  if due then
    if tonumber(due) <= now then return 'ready' end
    return 'delayed'
  end
  return set_state(id) or 'delayed'
end

local function publish_head(channel, due)
  redis.call('PUBLISH', channel, due)
end
