--- @include "partition"
--- @include "schedule"
-- sched_put: create or replace a schedule (see includes/schedule.lua), in one call. When its timing is unchanged
-- the pending occurrence keeps its time (and so its id), its record rewritten from the new definition; otherwise
-- the pending occurrence goes and the first occurrence later than now is enqueued. A paused schedule stays paused.
-- KEYS[1..13] the partition keys; KEYS[14..13+S] every pool HASH in index order.
-- ARGV[1] pools S; ARGV[2] schedule id; ARGV[3] timing; ARGV[4] definition; ARGV[5] occurrence record template;
--   ARGV[6] ttl ms (0: none); ARGV[7] '1' when the times sent are all that remain; ARGV[8] upcoming times, each
--   struct SCHED_TIME, ascending.
-- Reply: { OK, 1 created | 0 replaced, now ms }.
load_meta(true)
local now = now_ms()
local sid, timing, tpl = ARGV[2], ARGV[3], ARGV[5]
local old = redis.call('HGET', K_SCHED, sid)
local st = { version = 1, paused = 0, pending = 0, ppool = 0, last = now }
if old then
  local prev = sched_decode(old)
  st.version, st.paused, st.pending, st.ppool = prev.version + 1, prev.paused, prev.pending, prev.ppool
  if redis.call('HGET', K_SCHED, sid .. '#k') == timing then
    st.last = math.max(prev.last, now)
    if st.pending > 0 then
      -- the pending occurrence keeps its time: its record follows the new definition
      local m = sched_member(sid, st.pending, st.ppool)
      local pool_key = KEYS[FIRST_EXTRA_KEY + st.ppool]
      local rec = redis.call('HGET', pool_key, m)
      if rec and (redis.call('ZSCORE', K_NEAR, m) or redis.call('ZSCORE', K_PRIO, m)) then
        local due, created = struct.unpack('<i6i6', rec)
        local expire = 0
        if tonumber(ARGV[6]) > 0 then expire = math.max(due, created) + tonumber(ARGV[6]) end
        redis.call('HSET', pool_key, m, struct.pack('<i6i6i6', due, created, expire) .. string.sub(tpl, 19))
        if expire > 0 then
          redis.call('ZADD', K_TTL, expire, m)
          clock_work_at(expire)
          promoter_due(expire)
        else
          redis.call('ZREM', K_TTL, m)
        end
        redis.call('ZREM', K_NEAR, m)
        redis.call('ZREM', K_PRIO, m)
        place(m, due, now, 1, {}, math.floor(string.byte(tpl, 19) / 16))
      else
        st.pending, st.ppool = 0, 0 -- gone meanwhile (claimed, or swept): the next is enqueued below
      end
    end
  else
    sched_unpend(sid, st)
  end
end
st.ttl, st.complete = tonumber(ARGV[6]), tonumber(ARGV[7])
sched_times(st, ARGV[8])
redis.call('HSET', K_SCHED, sid .. '#t', tpl, sid .. '#d', ARGV[4], sid .. '#k', timing)
sched_advance(sid, st, now)
if old then return { OK, 0, now } end
return { OK, 1, now }
