--- @include "partition"
--- @include "schedule"
-- sched_change: pause, resume or delete a schedule (see includes/schedule.lua). Pausing removes its pending
-- occurrence; resuming enqueues the first occurrence later than now; deleting removes the schedule and its pending
-- occurrence (a delivered one finishes normally).
-- KEYS[1..13] the partition keys; KEYS[14..13+S] every pool HASH in index order.
-- ARGV[1] pools S; ARGV[2] schedule id; ARGV[3] 'pause' | 'resume' | 'delete'.
-- Reply: { OK } or { NOT_FOUND }.
load_meta(false)
local now = now_ms()
local sid, op = ARGV[2], ARGV[3]
local s = redis.call('HGET', K_SCHED, sid)
if not s then return { NOT_FOUND } end
local st = sched_decode(s)
if op == 'delete' then
  sched_unpend(sid, st)
  sched_mark(sid, false)
  redis.call('HDEL', K_SCHED, sid, sid .. '#t', sid .. '#d', sid .. '#k')
  return { OK }
end
if op == 'pause' then
  sched_unpend(sid, st)
  st.paused = 1
elseif st.paused == 1 then
  st.paused = 0
  st.last = math.max(st.last, now)
end
sched_advance(sid, st, now)
return { OK }
