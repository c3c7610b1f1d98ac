--- @include "partition"
--- @include "pools"
-- dead_list: one page of dead jobs, oldest death first, after a cursor (time of death, id).
-- KEYS[1..9] the partition keys; KEYS[10..9+S] every pool HASH in index order.
-- ARGV[1] pools S; ARGV[2] cursor time ms (-1 = from the start); ARGV[3] cursor id; ARGV[4] limit.
-- Reply: { OK, then per job: id, record, time of death }, at most limit jobs. Ties in time are ordered by id.
load_meta(false)
local after, after_id, limit = tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4])
local min = '-inf'
if after >= 0 then min = after end
local reply, listed = { OK }, 0
local offset = 0
while listed < limit do
  local page = redis.call('ZRANGEBYSCORE', K_DEAD, min, '+inf', 'WITHSCORES', 'LIMIT', offset, limit)
  if #page == 0 then break end
  for i = 1, #page, 2 do
    local id, at = page[i], tonumber(page[i + 1])
    if after < 0 or at > after or id > after_id then
      local rec = redis.call('HGET', pool_of(id), id)
      if rec and listed < limit then
        reply[#reply + 1] = id
        reply[#reply + 1] = rec
        reply[#reply + 1] = at
        listed = listed + 1
      end
    end
  end
  offset = offset + #page / 2
end
return reply
