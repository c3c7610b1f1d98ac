--- @include "partition"
--- @include "catch_up"
-- claim: lease up to max ready jobs (the jobs in near that are due by the server clock), oldest due first, after
-- catching up with the clock (catch_up.lua), so an overdue job is claimed even when no promoter has run.
-- KEYS[1..10] the partition keys; KEYS[11..10+S] every pool HASH in index order; then m declared slot LISTs.
-- ARGV[1] pools S; ARGV[2] max jobs; ARGV[3] visibility ms for this claim (0 = each job's own); ARGV[4] receipt
--   prefix (random, from the client; a job's receipt is the prefix, '-', and its index in this claim as two base-64
--   characters, so no two deliveries share one); ARGV[5] m, the number of declared slot lists; ARGV[6..5+m] their
--   starts.
-- Reply: { OK, now ms, then per leased job: id, record, attempt (1-based), receipt, lease deadline ms }, or
--   { NEED_SLOTS, slot starts... }. A job whose ttl has passed is dropped instead of leased. When ready jobs
--   remain (the ones the catch-up made ready included), one wake token is pushed so that another blocked consumer
--   picks them up, and it passes the wake-up on likewise. A paused queue's claims lease nothing.
load_meta(false)
local now = now_ms()
if M_PAUSED then return { OK, now } end
if clock_work_due(now) then
  local c = catch_up(now, now + 1, 1000, declared_slots(5, FIRST_EXTRA_KEY + POOLS))
  if c.need then return need_slots(c.need) end
end
if redis.call('ZCARD', K_NEAR) == 0 then return { OK, now } end
local max = tonumber(ARGV[2])
-- One more than asked tells whether ready jobs remain.
local ids = redis.call('ZRANGEBYSCORE', K_NEAR, '-inf', now, 'LIMIT', 0, max + 1)
local n_ids = #ids
if n_ids == 0 then return { OK, now } end
local more = n_ids > max
if more then
  ids[n_ids] = nil
  n_ids = max
end
redis.call('ZREM', K_NEAR, unpack(ids))
local vis_override = tonumber(ARGV[3])
local prefix = ARGV[4] .. '-'
-- Byte codes of the URL-safe base-64 alphabet: the claim index as two characters, without the sprintf that number
-- to string conversion costs in Lua 5.1 (max jobs per claim is at most 1000 < 64 * 64).
local B64 = { string.byte('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_', 1, 64) }
local last_vis, deadline, deadline_str = nil, nil, nil
local earliest_deadline = nil
local reply, r = { OK, now }, 2 -- r: length of reply (counters instead of #t, which costs a search per use)
local leased, expired = 0, 0
-- Both lists start with the KEEPER entry: first, so that a key this claim creates starts in the hash-table encoding.
-- Its lease is KEEPER too, longer than any receipt (at most 64 characters), so no ack or extend can match it.
local inflight_args, lease_args = { KEEPER_SCORE, KEEPER }, { KEEPER, KEEPER }
for i = 1, n_ids do
  local id = ids[i]
  local pool_key = pool_of(id)
  local rec = redis.call('HGET', pool_key, id)
  if rec then
    -- Only the fixed header is needed here; decode() would also cut out backoff and last error.
    local _, _, _, expire, attempts, _, vis = struct.unpack(HEADER, rec)
    if expire > 0 and expire <= now then
      drop(pool_key, id, 'expired', rec)
      expired = expired + 1
    else
      if vis_override > 0 then vis = vis_override end
      if vis ~= last_vis then
        -- Jobs of one claim nearly always share a visibility: format the deadline once (number to string
        -- conversion is a sprintf in Lua 5.1).
        last_vis, deadline = vis, now + vis
        deadline_str = tostring(deadline)
        if earliest_deadline == nil or deadline < earliest_deadline then earliest_deadline = deadline end
      end
      leased = leased + 1
      local receipt = prefix .. string.char(B64[math.floor(leased / 64) + 1], B64[leased % 64 + 1])
      local a = 2 * leased + 2
      inflight_args[a - 1], inflight_args[a] = deadline_str, id
      lease_args[a - 1], lease_args[a] = id, receipt
      reply[r + 1], reply[r + 2], reply[r + 3], reply[r + 4], reply[r + 5] = id, rec, attempts + 1, receipt, deadline
      r = r + 5
    end
  end
end
if leased > 0 then
  redis.call('ZADD', K_INFLIGHT, unpack(inflight_args))
  redis.call('HSET', K_LEASES, unpack(lease_args))
  clock_work_at(earliest_deadline)
  promoter_due(earliest_deadline)
  redis.call('HINCRBY', K_STATS, 'delivered', leased)
end
if expired > 0 then redis.call('HINCRBY', K_STATS, 'expired', expired) end
-- Ready jobs were left behind: pass the wake-up on to another blocked consumer.
if more then wake(1) end
return reply
