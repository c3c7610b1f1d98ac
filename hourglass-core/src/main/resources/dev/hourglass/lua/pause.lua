--- @include "partition"
--- @include "priority"
-- pause: pause or resume a partition's deliveries. A paused partition keeps time and takes enqueues, and its
-- promoter keeps moving jobs, but its claims lease nothing (claim.lua), so workers, long polls and push delivery
-- all stop. Resuming wakes consumers for the jobs that are ready.
-- KEYS[1..13] the partition keys. ARGV[1] pools S; ARGV[2] '1' to pause, '0' to resume.
-- Reply: { OK }
load_meta(true)
if ARGV[2] == '1' then
  redis.call('HSET', K_META, 'paused', '1')
elseif redis.call('HDEL', K_META, 'paused') == 1 then
  -- At least one token: jobs that fell due in a slot list or by a lapsed lease while paused are not in near yet,
  -- and the consumer that wakes catches up before it claims, and passes the wake-up on.
  local now = now_ms()
  local ready = redis.call('ZCOUNT', K_NEAR, '-inf', now)
  if M_PRIO then ready = ready + prio_count(nil, now) end
  wake(math.max(1, ready))
end
return { OK }
