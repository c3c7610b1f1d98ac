--- @include "partition"
--- @include "schedule"
-- sched_refill: give a schedule more upcoming times (a promoter computed them from the state it read at a version;
-- the call changes nothing when the schedule changed since), and repair it: when no occurrence is pending (its
-- times had run out, or its pending one vanished), the first later than both now and the last that left is
-- enqueued. See includes/schedule.lua.
-- KEYS[1..13] the partition keys; KEYS[14..13+S] every pool HASH in index order.
-- ARGV[1] pools S; ARGV[2] schedule id; ARGV[3] the version read; ARGV[4] '1' when the times sent are all that
--   remain; ARGV[5] upcoming times, each struct SCHED_TIME, ascending.
-- Reply: { OK, 1 refilled | 0 stale or gone }.
load_meta(false)
local now = now_ms()
local sid = ARGV[2]
local s = redis.call('HGET', K_SCHED, sid)
if not s then
  sched_mark(sid, false)
  return { OK, 0 }
end
local st = sched_decode(s)
if st.version ~= tonumber(ARGV[3]) then return { OK, 0 } end
if st.pending > 0 then
  local m = sched_member(sid, st.pending, st.ppool)
  if not redis.call('ZSCORE', K_NEAR, m) and not redis.call('ZSCORE', K_PRIO, m) then
    local rec = redis.call('HGET', KEYS[FIRST_EXTRA_KEY + st.ppool], m)
    -- in a slot list or nowhere: only an occurrence placed in near by this file is pending
    if not rec or redis.call('ZSCORE', K_INFLIGHT, m) or redis.call('ZSCORE', K_DEAD, m) then
      st.last = math.max(st.last, st.pending)
      st.pending, st.ppool = 0, 0
    end
  end
end
if st.pending == 0 then st.last = math.max(st.last, now) end
st.version, st.complete = st.version + 1, tonumber(ARGV[4])
sched_times(st, ARGV[5])
sched_advance(sid, st, now)
return { OK, 1 }
