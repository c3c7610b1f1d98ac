-- pools: the pool HASH of a job, for scripts that receive every pool in index order as KEYS[14..13+S]: the last
-- byte of its member names it (see partition.lua).
local POOLS = tonumber(ARGV[1])
local function pool_of(m) return KEYS[FIRST_EXTRA_KEY + string.byte(m, -1)] end
