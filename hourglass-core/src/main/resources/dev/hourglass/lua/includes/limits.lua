-- limits: a queue's flow-control limits (API.md 1.2, "Flow control") as one partition enforces them. Claims
-- enforce them (claim.lua), so every consumer of every client and server obeys one limit. A queue of P partitions
-- gives each partition its share (docs/ARCHITECTURE.md, "Flow control"); meta holds the share, read by load_meta:
--   rmax, rper  at most rmax deliveries start in any window of rper ms (a sliding window, not a fixed one)
--   conc        at most conc jobs are leased at once (inflight, not counting its KEEPER entry)
-- K_RATE, while the partition has a rate limit, is its delivery log: one entry per claim that leased jobs in the
-- last rper ms, oldest first, '<start ms>:<jobs>:<total>', total counting the jobs of this entry and of every entry
-- before it since the list was last empty. So the deliveries that started in the window (now - rper, now] are the
-- tail's total minus the total before the head, read with two LINDEX whatever the list's length; the list never
-- holds more than rmax entries, and each entry is pushed once and popped once.

-- The rate log's entries older than the window go; returns the deliveries in the window, the start of the oldest
-- of them (nil when none) and the tail's total (0 when none).
local function rate_window(now)
  local from = now - M_RATE_PERIOD
  while true do
    local head = redis.call('LINDEX', K_RATE, 0)
    if not head then return 0, nil, 0 end
    local t, n, total = string.match(head, '^(%d+):(%d+):(%d+)$')
    t = tonumber(t)
    if t > from then
      local last = tonumber(string.match(redis.call('LINDEX', K_RATE, -1), '(%d+)$'))
      return last - tonumber(total) + tonumber(n), t, last
    end
    redis.call('LPOP', K_RATE)
  end
end

-- What limits_allow read, for limits_started and limits_next of the same claim.
local L_RATE_COUNT, L_RATE_HEAD, L_RATE_TOTAL, L_INFLIGHT = 0, nil, 0, 0

-- How many of max jobs the limits let a claim lease now: max when the partition has no limit (no command sent).
local function limits_allow(now, max)
  local allow = max
  if M_RATE_MAX and M_RATE_PERIOD then
    L_RATE_COUNT, L_RATE_HEAD, L_RATE_TOTAL = rate_window(now)
    allow = math.min(allow, M_RATE_MAX - L_RATE_COUNT)
  end
  if M_CONCURRENCY then
    L_INFLIGHT = redis.call('ZCOUNT', K_INFLIGHT, LEASES_FROM, '+inf')
    allow = math.min(allow, M_CONCURRENCY - L_INFLIGHT)
  end
  if allow < 0 then return 0 end
  return allow
end

-- A claim leased n jobs at now: they are logged in the rate window.
local function limits_started(now, n)
  if n > 0 and M_RATE_MAX and M_RATE_PERIOD then
    L_RATE_TOTAL = L_RATE_TOTAL + n
    redis.call('RPUSH', K_RATE, fmt(now) .. ':' .. fmt(n) .. ':' .. fmt(L_RATE_TOTAL))
    if not L_RATE_HEAD then L_RATE_HEAD = now end
    L_RATE_COUNT = L_RATE_COUNT + n
  end
end

-- After a claim that leased n jobs at now and left ready jobs that the limits hold back: the server time at which
-- the limits next let a job through. A rate limit, when its oldest delivery in the window leaves it; a concurrency
-- limit, at the latest when the earliest lease ends (an ack, nack or release before then wakes consumers: see
-- limits_freed); both, the later of the two.
local function limits_next(now, n)
  local t = now
  if M_RATE_MAX and M_RATE_PERIOD and L_RATE_COUNT >= M_RATE_MAX then
    t = math.max(t, (L_RATE_HEAD or now) + M_RATE_PERIOD)
  end
  if M_CONCURRENCY and L_INFLIGHT + n >= M_CONCURRENCY then
    local deadline = head_score(K_INFLIGHT, LEASES_FROM)
    if deadline then t = math.max(t, deadline) end
  end
  if t <= now then t = now + 1 end
  return t
end

-- n leases ended (acked, nacked, released, lapsed, or past a ttl): under a concurrency limit a consumer may be
-- held back waiting for one, so one wake token goes (a woken claim passes it on while ready jobs remain and the
-- limit allows).
local function limits_freed(n)
  if n > 0 and M_CONCURRENCY then wake(1) end
end

-- The ready jobs the limits hold back right now: those of ready beyond what a claim could lease now.
local function limits_held(now, ready)
  if ready <= 0 or not (M_RATE_MAX or M_CONCURRENCY) then return 0 end
  return ready - limits_allow(now, ready)
end
