-- partition: what every partition script shares (layout version 9): its keys, job members, status codes, the meta
-- hash, the server clock, wake tokens. Every partition script includes it first.
--
-- Every partition script receives the same ten leading KEYS, all carrying the partition's hash tag {queue.p}:
--   KEYS[1] meta     HASH  pools (the pool count S, written when the partition is created: every script refuses a
--                          caller that assumes another); wm (watermark ms: a job due before it waits in near; one due
--                          at or after it in a slot list, or in near when placed there); due (the promoter has no
--                          work before this time); cu (clock work, i.e. a ttl, a lease deadline or a slot start,
--                          falls due at this time: see catch_up.lua); po, pu (promoter lock owner, and when its lock
--                          lapses); ret (the dead-letter retention the last full promoter pass applied); sig (due
--                          jobs in near up to this time were announced with wake tokens); paused (present while the
--                          queue is paused: claims lease nothing); archive (present while finished jobs are recorded
--                          in the outbox: the most records it may hold); obd (records dropped from the outbox past
--                          that bound); pr (the priorities K_PRIO may hold jobs of: includes/priority.lua); rmax,
--                          rper, conc (present while the queue has flow-control limits: this partition's share of
--                          them, see includes/limits.lua)
--   KEYS[2] near     ZSET  member -> due ms: every job neither leased nor dead nor in a slot list (those due before
--                          the watermark, those an enqueue placed here, those whose slot list it could not write).
--                          The ones due by the server clock are ready; claim takes them oldest due first
--   KEYS[3] slots    ZSET  slot start -> slot start: the index of non-empty slot lists (hg:{q.p}:slot:<start>,
--                          LISTs of the members of far-future jobs)
--   KEYS[4] inflight ZSET  member -> lease deadline ms; and KEEPER -> -1 once a claim has leased a job (see KEEPER)
--   KEYS[5] leases   HASH  member -> lease token of the current delivery (its claim's, see claim.lua); and KEEPER
--                          -> KEEPER likewise
--   KEYS[6] dead     ZSET  member -> time of death ms
--   KEYS[7] ttl      ZSET  member -> expiry ms, only jobs that have a ttl
--   KEYS[8] stats    HASH  counters: enqueued, delivered, acked, retried, dead, expired, cancelled, purged; live
--                          jobs are enqueued - acked - cancelled - expired - purged (each removal counts once)
--   KEYS[9] wake     LIST  wake-up tokens consumers block on (hints only)
--   KEYS[10] outbox  STREAM finished jobs waiting for an archiver, oldest first, while meta.archive is set: fields
--                          m (the job's member), o (outcome: acked, dead, cancelled, expired, purged), t (finished,
--                          ms), r (the job's record as it finished; see record.lua). See outbox_add()
--   KEYS[11] prio   ZSET  the waiting jobs (delayed or ready) of priority 1 to 9, which near does not hold (a job's
--                          priority is in its record's flags, see record.lua): how they are scored and claimed is
--                          written down in includes/priority.lua
--   KEYS[12] sched  HASH  the partition's schedules (recurring jobs): see includes/schedule.lua
--   KEYS[13] rate   LIST  the start times (ms) of the deliveries of the last rate period, while the queue has a rate
--                          limit: see includes/limits.lua
-- Script-specific KEYS follow from KEYS[14]. ARGV[1] is always the pool count S the caller assumes.
--
-- A job is known inside Redis by its member: its id, then one byte naming the pool HASH that holds its record, the
-- pool's index (0 to 44: below every character an id may hold, so members sort as their ids do; Partition.member in
-- Java, which alone chooses the pool). The member is the pool's field, and the job's entry in near, the slot lists,
-- inflight, leases, dead and ttl, so no script computes a pool or cuts a string: the last byte names the pool.
--
-- Status codes, the first element of every partition script's reply (Status in Java):
--   0 ok, 1 not found, 2 stale receipt, 3 inflight, 4 duplicate id, 5 dead (wrong state), 6 need slots (the script
--   must load slot lists its caller did not declare: the reply lists their starts, and the caller calls again
--   with them declared), 7 not empty (a queue to delete still holds jobs), 8 catch up (clock work has fallen due:
--   the caller runs clock.lua first, then calls again), 9 clock skew (the caller's estimate of the server clock is
--   off: it writes its records again from the server's time, and calls again), 10 need dictionary (the partition
--   does not hold the zstd dictionary an enqueue's payloads were compressed with: the caller sends it, see
--   includes/dictionary.lua)
redis.replicate_commands()

local K_META, K_NEAR, K_SLOTS, K_INFLIGHT, K_LEASES, K_DEAD, K_TTL, K_STATS, K_WAKE, K_OUTBOX =
  KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10]
local K_PRIO, K_SCHED, K_RATE = KEYS[11], KEYS[12], KEYS[13]
local FIRST_EXTRA_KEY = 14
local OK, NOT_FOUND, STALE, INFLIGHT, DUPLICATE, DEAD, NEED_SLOTS, NOT_EMPTY, CATCH_UP, CLOCK_SKEW =
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9
local NEED_DICTIONARY = 10
local NOTHING_DUE = 9000000000000000
local MAX_WAKE_TOKENS = 16
-- A member of inflight (score KEEPER_SCORE, below every lease deadline) and a field of leases that is not a job:
-- longer than the 64 bytes up to which Redis keeps a small sorted set or hash in its compact encoding (a ziplist,
-- listpack in Redis 7), so both keys stay in the hash-table one and are never deleted when their last lease ends.
-- In the compact encoding every ZADD, HSET, HMGET and ZREM scans the whole key: with the tens to hundreds of leases
-- a busy queue holds, that made claim and ack cost several microseconds more per job. Not a job (it has spaces,
-- which no id has), so no lookup finds it; readers of whole ranges start at LEASES_FROM (deadlines are epoch ms).
local KEEPER = 'hourglass keeps this key in the hash-table encoding: not a job, see KEEPER in partition.lua'
local KEEPER_SCORE = '-1'
local LEASES_FROM = '0'

-- Records go into a pool through pool_write, which keeps the pool in the hash-table encoding. A pool created by a plain
-- HSET of small records (under 64 bytes: payloads of a few bytes) starts in the compact encoding, up to 512 fields,
-- in which every HSET, HMGET and HDEL scans the whole key: a queue of small payloads spread over three partitions on one
-- master cost 1.8 times the Redis instructions per job of one partition, 1.12 times with this. KEEPER,
-- written with the first records and removed after the last, creates the key in (or converts it to) the hash-table
-- encoding, which Redis keeps while the key lives. t[from..to] are field and value pairs, sent in chunks (a command
-- takes at most LUAI_MAXCSTACK arguments through unpack).
local POOL_CHUNK = 4000
local function pool_write(key, t, from, to)
  local call = redis.call
  call('HSET', key, KEEPER, '', unpack(t, from, math.min(from + POOL_CHUNK - 1, to)))
  for i = from + POOL_CHUNK, to, POOL_CHUNK do
    call('HSET', key, unpack(t, i, math.min(i + POOL_CHUNK - 1, to)))
  end
  call('HDEL', key, KEEPER)
end

-- A whole number as a decimal string. Numbers given to redis.call are formatted with '%.17g', and tostring uses
-- '%.14g': both go through the C library's floating-point printing, several times the cost of '%d'.
local function fmt(n)
  return string.format('%d', n)
end

local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- The meta fields a script reads (load_meta): the watermark, promoter due time, clock work time and outbox bound as
-- numbers; the promoter's fields (po, pu, ret, sig) and the priorities listed (pr) as stored.
local M_WM, M_DUE, M_CU, M_LOCK_OWNER, M_LOCK_UNTIL, M_RETENTION, M_SIGNALLED, M_PAUSED, M_ARCHIVE
local M_PRIO
-- The partition's flow-control limits as numbers, nil when it has none (includes/limits.lua).
local M_RATE_MAX, M_RATE_PERIOD, M_CONCURRENCY

-- Reads the partition's meta hash once per script and refuses a caller that assumes another pool count. Creates the
-- partition when asked (enqueue does; a partition with no meta holds no job). Converts each number once.
local function load_meta(create)
  local m = redis.call('HMGET', K_META, 'pools', 'wm', 'due', 'cu', 'po', 'pu', 'ret', 'sig', 'paused', 'archive',
    'pr', 'rmax', 'rper', 'conc')
  if not m[1] then
    -- A new partition has no clock work yet: every writer that adds some lowers cu to it.
    if create then redis.call('HSET', K_META, 'pools', ARGV[1], 'cu', fmt(NOTHING_DUE)) end
  elseif m[1] ~= ARGV[1] then
    error('HG_LAYOUT partition has ' .. m[1] .. ' pools, caller assumed ' .. ARGV[1]) -- a string: Redis 6.2 shows it
  end
  M_WM, M_DUE, M_CU, M_LOCK_OWNER = tonumber(m[2]), tonumber(m[3]), tonumber(m[4]), m[5]
  if create and not m[1] then M_CU = NOTHING_DUE end
  M_LOCK_UNTIL, M_RETENTION, M_SIGNALLED = m[6] or nil, m[7], m[8] or nil
  M_PAUSED = m[9] ~= false
  M_ARCHIVE = tonumber(m[10])
  M_PRIO = m[11] or nil
  M_RATE_MAX, M_RATE_PERIOD, M_CONCURRENCY = tonumber(m[12]), tonumber(m[13]), tonumber(m[14])
end

-- The checks of scripts that read nothing else of meta (ack): the pool count, and the outbox bound; and the
-- concurrency limit, whose held-back consumers an ack wakes.
local function load_meta_bound()
  local m = redis.call('HMGET', K_META, 'pools', 'archive', 'conc')
  if m[1] and m[1] ~= ARGV[1] then
    error('HG_LAYOUT partition has ' .. m[1] .. ' pools, caller assumed ' .. ARGV[1])
  end
  M_ARCHIVE = tonumber(m[2])
  M_CONCURRENCY = tonumber(m[3])
end

-- A job finished (outcome acked, dead, cancelled, expired or purged) with record rec as it was then: while the
-- partition records finished jobs, append it to the outbox, in the same script as the change, so that the outbox
-- holds a record exactly when Redis finished the job. Past the bound the oldest record goes, counted in meta.obd.
local function outbox_add(m, rec, outcome)
  if not M_ARCHIVE or not rec then return end
  if redis.call('XLEN', K_OUTBOX) >= M_ARCHIVE then redis.call('HINCRBY', K_META, 'obd', 1) end
  redis.call('XADD', K_OUTBOX, 'MAXLEN', fmt(M_ARCHIVE), '*', 'm', m, 'o', outcome, 't', fmt(now_ms()), 'r', rec)
end

-- The channel promoters listen on: the meta key's name with 'promote' for 'meta', as Partition.channel builds it.
local function promote_channel()
  return string.sub(K_META, 1, -5) .. 'promote'
end

-- Promoter work falls due at time t (a job in near, a lease deadline, a ttl, a slot to load): lower meta.due to it
-- and announce it, so that every promoter (the leader, and followers ready to take over) plans a pass for then.
local function promoter_due(t)
  if M_DUE == nil or t < M_DUE then
    local ts = fmt(t)
    redis.call('HSET', K_META, 'due', ts)
    M_DUE = t
    redis.call('PUBLISH', promote_channel(), ts)
  end
end

-- Clock work falls due at time t (a ttl, a lease deadline, a slot start): lower meta.cu to it, so that the first
-- script to read state after t catches up first (catch_up.lua). promoter_due() must be called too.
local function clock_work_at(t)
  if M_CU == nil or t < M_CU then
    redis.call('HSET', K_META, 'cu', fmt(t))
    M_CU = t
  end
end

-- The lowest score in key from min on, or nil.
local function head_score(key, min)
  local h = redis.call('ZRANGEBYSCORE', key, min, '+inf', 'WITHSCORES', 'LIMIT', '0', '1')
  if h[2] then return tonumber(h[2]) end
  return nil
end

-- Pushes up to MAX_WAKE_TOKENS wake tokens for n jobs that became ready; the list never holds more.
local function wake(n)
  if n <= 0 then return end
  if n > MAX_WAKE_TOKENS then n = MAX_WAKE_TOKENS end
  local tokens = {}
  for i = 1, n do tokens[i] = '1' end
  if redis.call('LPUSH', K_WAKE, unpack(tokens)) > MAX_WAKE_TOKENS then
    redis.call('LTRIM', K_WAKE, '0', '15') -- the first MAX_WAKE_TOKENS
  end
end
