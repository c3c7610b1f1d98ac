--- @include "partition"
--- @include "catch_up"
-- clock: the clock work of a partition that has fallen due (catch_up.lua: ttl expiry, lapsed leases, slot lists
-- that start by now), for a caller that must see its effects first: claim.lua answers CATCH_UP instead of claiming
-- while any is due, and its caller runs this, then claims again.
-- KEYS[1..10] the partition keys; KEYS[11..10+S] every pool HASH in index order; then m declared slot LISTs.
-- ARGV[1] pools S; ARGV[2] m, the number of declared slot lists; ARGV[3..2+m] their starts.
-- Reply: { OK, more (1 when a budget ran out: call again) }, or { NEED_SLOTS, slot starts... }.
load_meta(false)
local now = now_ms()
if not clock_work_due(now) then return { OK, 0 } end
local c = catch_up(now, now + 1, 1000, declared_slots(2, FIRST_EXTRA_KEY + POOLS))
if c.need then return need_slots(c.need) end
wake(c.made_ready) -- every path that makes jobs ready wakes consumers for them
if c.more then return { OK, 1 } end
return { OK, 0 }
