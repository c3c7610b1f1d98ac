-- dead_list: one page of dead jobs, oldest death first, after a cursor (time of death, id).
-- KEYS[1..10] the partition keys; KEYS[11..10+S] every pool HASH in index order.
-- ARGV[1] pools S; ARGV[2] cursor time ms (-1 = from the start); ARGV[3] cursor id; ARGV[4] limit.
-- Reply: flat array: per job id, record, time of death; at most limit jobs. Ties in time are ordered by id.
load_meta(false)
local after, after_id, limit = tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4])
local min = '-inf'
if after >= 0 then min = after end
local reply = {}
local offset = 0
while #reply / 3 < limit do
  local page = redis.call('ZRANGEBYSCORE', K_DEAD, min, '+inf', 'WITHSCORES', 'LIMIT', offset, limit)
  if #page == 0 then break end
  for i = 1, #page, 2 do
    local id, at = page[i], tonumber(page[i + 1])
    if after < 0 or at > after or id > after_id then
      local rec = redis.call('HGET', KEYS[FIRST_EXTRA_KEY + pool_index(id)], id)
      if rec and #reply / 3 < limit then
        reply[#reply + 1] = id
        reply[#reply + 1] = rec
        reply[#reply + 1] = at
      end
    end
  end
  offset = offset + #page / 2
end
return reply
