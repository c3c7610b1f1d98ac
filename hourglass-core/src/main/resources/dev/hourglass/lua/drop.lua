--- @include "partition"
--- @include "catch_up"
-- drop: delete a partition and its jobs, when its queue is deleted. Unless forced, refuses a partition that holds
-- a job in any state (dead included) and changes nothing. Slot lists go as the caller declares them: while
-- undeclared ones remain, the declared ones are deleted and the reply asks for the next ones (NEED_SLOTS); when none
-- remains, every other key of the partition goes.
-- KEYS[1..13] the partition keys; KEYS[14..13+S] every pool HASH in index order; then m declared slot LISTs.
-- ARGV[1] pools S; ARGV[2] '1' to delete jobs too; ARGV[3] m, the number of declared slot lists; ARGV[4..3+m] their
--   starts.
-- Reply: { OK, jobs deleted }, { NOT_EMPTY, jobs } or { NEED_SLOTS, slot starts... }.
local MAX_DROPPED_SLOTS = 1000
local jobs = 0
for i = FIRST_EXTRA_KEY, FIRST_EXTRA_KEY + POOLS - 1 do jobs = jobs + redis.call('HLEN', KEYS[i]) end
if jobs > 0 and ARGV[2] ~= '1' then return { NOT_EMPTY, jobs } end
local declared = declared_slots(3, FIRST_EXTRA_KEY + POOLS)
local undeclared = {}
for _, s in ipairs(redis.call('ZRANGE', K_SLOTS, 0, -1)) do
  local start = tonumber(s)
  local key = declared[start]
  if key then
    redis.call('DEL', key)
    redis.call('ZREM', K_SLOTS, s)
  elseif #undeclared < MAX_DROPPED_SLOTS then
    undeclared[#undeclared + 1] = start
  end
end
if #undeclared > 0 then return need_slots(undeclared) end
for i = 1, FIRST_EXTRA_KEY + POOLS - 1 do redis.call('DEL', KEYS[i]) end
return { OK, jobs }
