--- @include "priority"
-- jobs: a live job's state, its lease check, and its removal.
--
-- A job's state is where its member is, and the server clock: in inflight it is leased; in dead, dead; in near (or
-- K_PRIO, for a job of priority 1 to 9: includes/priority.lua), ready once its due time has passed, else delayed; in
-- none of these it waits in a slot list, and is likewise ready once its due time (in its record) has passed: the first
-- claim loads it (catch_up.lua). A job is never in two of them.

-- The state of a live job whose record says it is due at `due`, and holds priority prio.
local function state_of(m, due, now, prio)
  local near_due = nil
  if prio > 0 then
    if redis.call('ZSCORE', K_PRIO, m) then near_due = due end
  else
    near_due = redis.call('ZSCORE', K_NEAR, m)
  end
  if near_due then due = tonumber(near_due)
  elseif redis.call('ZSCORE', K_INFLIGHT, m) then return 'inflight'
  elseif redis.call('ZSCORE', K_DEAD, m) then return 'dead'
  end
  if due <= now then return 'ready' end
  return 'delayed'
end

-- Checks that a lease token holds the job's current lease: nil when it does, else the status to return (STALE when
-- the job lives on under another lease or none, NOT_FOUND when it is gone).
local function lease_refusal(pool_key, m, token)
  if redis.call('HGET', K_LEASES, m) == token then return nil end
  if redis.call('HEXISTS', pool_key, m) == 1 then return STALE end
  return NOT_FOUND
end

-- Removes every trace of a job (slot-list entries excepted: they are skipped when their slot loads), recording it
-- in the outbox as finished with `outcome` (cancelled, expired or purged); rec is its record when the caller has
-- it already. The caller counts the removal in exactly one counter (cancelled, expired or purged).
local function drop(pool_key, m, outcome, rec)
  if M_ARCHIVE then outbox_add(m, rec or redis.call('HGET', pool_key, m), outcome) end
  redis.call('HDEL', pool_key, m)
  redis.call('ZREM', K_NEAR, m)
  if M_PRIO then redis.call('ZREM', K_PRIO, m) end
  redis.call('ZREM', K_INFLIGHT, m)
  redis.call('HDEL', K_LEASES, m)
  redis.call('ZREM', K_DEAD, m)
  redis.call('ZREM', K_TTL, m)
end
