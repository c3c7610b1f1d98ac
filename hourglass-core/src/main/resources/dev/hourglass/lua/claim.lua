--- @include "partition"
--- @include "priority"
--- @include "limits"
--- @include "schedule"
-- claim: lease up to max ready jobs (the jobs in near and K_PRIO that are due by the server clock): the highest
-- priority first, then the oldest due, then the lowest id (includes/priority.lua). While
-- clock work has fallen due (meta.cu, see catch_up.lua) it answers CATCH_UP and changes nothing: its caller runs
-- clock.lua and claims again, so an overdue job is claimed even when no promoter has run.
-- KEYS[1..13] the partition keys; KEYS[14..13+S] every pool HASH in index order.
-- ARGV[1] pools S; ARGV[2] max jobs; ARGV[3] visibility ms for this claim (0 = each job's own); ARGV[4] the lease
--   token of this claim (random, from the client: no two claims share one, and a claim leases a job at most once,
--   so a member and a token name one delivery). leases holds the token; the receipt a consumer gets adds the job's
--   own mark to it, which the client checks before it presents the token (Receipts.receipt).
-- Reply: { OK, now ms, held until, then per leased job: member, record (grouped by pool, not in due order) }, or
--   { CATCH_UP }. Held until is 0, or, when the queue's flow-control limits (includes/limits.lua) hold ready jobs
--   back, the server time at which they next let one through: the caller sleeps until then or a wake token. A
--   leased job's attempt is its record's attempts + 1, its lease runs until now + the visibility (the claim's, else
--   its record's). No job past its ttl is in near: a ttl is clock work, so the catch-up has removed it. When ready
--   jobs remain, one wake token is pushed so that another blocked consumer picks them up, and it passes the wake-up
--   on likewise; when none remain, the tokens left are deleted, since each would only wake a consumer into an empty
--   claim; so are they when the limits hold jobs back (every consumer that claims learns when to come back). A
--   paused queue's claims lease nothing. Under limits a claim leases at most what they allow.
local call, byte = redis.call, string.byte
load_meta(false)
local now = now_ms()
if M_PAUSED then return { OK, now, 0 } end
if M_CU == nil or M_CU <= now then return { CATCH_UP } end
local asked = tonumber(ARGV[2])
local max = limits_allow(now, asked)
-- One more than asked tells whether ready jobs remain.
local members, from_prio = due_jobs(now, max + 1)
local n = #members
if n == 0 then
  call('DEL', K_WAKE) -- nothing is ready: every token left is stale
  return { OK, now, 0 }
end
local more = n > max
if more then
  members[n] = nil
  n = max
end
if n == 0 then -- ready jobs, all held back by the limits
  call('DEL', K_WAKE)
  return { OK, now, limits_next(now, 0) }
end
unwait_due(members, n, from_prio)

-- Grouped by pool, for one HMGET of the records per pool (a member's last byte names its pool).
local groups, order, n_groups = {}, {}, 0
for i = 1, n do
  local m = members[i]
  local b = byte(m, -1)
  local g = groups[b]
  if g then
    g[#g + 1] = m
  else
    groups[b] = { m }
    n_groups = n_groups + 1
    order[n_groups] = b
  end
end

local vis_override = tonumber(ARGV[3])
local token = ARGV[4]
local last_vis, deadline, deadline_str = nil, nil, nil
local earliest_deadline = nil
local reply, r = { OK, now, 0 }, 3 -- r: length of reply (counters instead of #t, which costs a search per use)
-- Both lists start with the KEEPER entry: first, so that a key this claim creates starts in the hash-table encoding.
-- Its lease is KEEPER too, longer than any receipt (at most 64 characters), so no ack or extend can match it.
local inflight_args, lease_args = { KEEPER_SCORE, KEEPER }, { KEEPER, KEEPER }
local a = 2
local occurrences = {} -- leased occurrences of schedules: each enqueues its schedule's next (schedule.lua)
for gi = 1, n_groups do
  local g = groups[order[gi]]
  local pool_key = KEYS[FIRST_EXTRA_KEY + order[gi]]
  local recs = call('HMGET', pool_key, unpack(g))
  for x = 1, #g do
    local m, rec = g[x], recs[x]
    if rec then
      local vis = vis_override
      if vis == 0 then
        local v1, v2, v3, v4 = byte(rec, 24, 27) -- visibilityMs, little-endian (record.lua)
        vis = v1 + 256 * (v2 + 256 * (v3 + 256 * v4))
      end
      if vis ~= last_vis then
        -- Jobs of one claim nearly always share a visibility: format the deadline once (number to string
        -- conversion is a sprintf in Lua 5.1).
        last_vis, deadline = vis, now + vis
        deadline_str = fmt(deadline)
        if earliest_deadline == nil or deadline < earliest_deadline then earliest_deadline = deadline end
      end
      inflight_args[a + 1], inflight_args[a + 2] = deadline_str, m
      lease_args[a + 1], lease_args[a + 2] = m, token
      reply[r + 1], reply[r + 2] = m, rec
      a, r = a + 2, r + 2
      if byte(rec, 19) % 4 >= 2 then occurrences[#occurrences + 1] = m end -- flags bit 1 (record.lua)
    end
  end
end
local leased = a / 2 - 1
if leased > 0 then
  call('ZADD', K_INFLIGHT, unpack(inflight_args))
  call('HSET', K_LEASES, unpack(lease_args))
  clock_work_at(earliest_deadline)
  promoter_due(earliest_deadline)
  call('HINCRBY', K_STATS, 'delivered', fmt(leased))
  limits_started(now, leased)
end
for _, m in ipairs(occurrences) do sched_left(m, now) end
-- Ready jobs were left behind: pass the wake-up on to another blocked consumer, unless the limits hold them back.
-- Else every token left is stale (nothing is ready): they would only wake consumers into empty claims.
if more and max < asked then
  reply[3] = limits_next(now, leased)
  call('DEL', K_WAKE)
elseif more then
  wake(1)
else
  call('DEL', K_WAKE)
end
return reply
