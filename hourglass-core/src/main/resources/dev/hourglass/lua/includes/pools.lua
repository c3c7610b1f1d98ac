-- pools: which pool HASH of the partition holds a job's record, for scripts that receive every pool in index
-- order as KEYS[11..10+S] (Keys.poolIndex in Java computes the same).
--
-- From the first 16 bits x of the id's SHA-1, pool i takes a share of the x values proportional to S + i, so the
-- largest pool holds (2S - 1) / S times the smallest. Redis doubles a hash's table when it holds as many entries as
-- buckets and then moves the entries a bucket per operation on that hash; pools of staggered sizes double at
-- different queue sizes instead of all at once. i is found from the sum C(i) = i * S + i * (i - 1) / 2 of the
-- weights before it, the square root guessing and exact integer comparisons deciding (all values stay far below
-- 2^53, so Lua's doubles are exact).
local STAGGERED_TOTAL = POOLS * POOLS + POOLS * (POOLS - 1) / 2
local STAGGERED_B = POOLS - 0.5

local function weight_before(i) return i * POOLS + i * (i - 1) / 2 end

local function pool_index(id)
  local x = tonumber(string.sub(redis.sha1hex(id), 1, 4), 16)
  local y = math.floor(x * STAGGERED_TOTAL / 65536)
  local i = math.floor(math.sqrt(STAGGERED_B * STAGGERED_B + 2 * y) - STAGGERED_B)
  while i + 1 < POOLS and weight_before(i + 1) <= y do i = i + 1 end
  while i > 0 and weight_before(i) > y do i = i - 1 end
  return i
end

local function pool_of(id) return KEYS[FIRST_EXTRA_KEY + pool_index(id)] end
