-- enqueue: create one or more jobs in one partition.
-- KEYS[1..10] the partition keys (see prelude); then per job j (0-based): KEYS[11+2j] its pool HASH,
--   KEYS[12+2j] a candidate slot LIST (the slot the client expects the due time to fall in).
-- ARGV[1] pools S; ARGV[2] job count n; ARGV[3] promoter wake-up channel; ARGV[4] slot lookahead ms;
--   then per job, 8 values from ARGV[5+8j]: id, mode ('d' delay from server now | 'a' absolute epoch ms),
--   time value ms, candidate slot start ms, maxAttempts, visibilityMs, ttlMs (0 = none),
--   tail (backoff length byte + backoff, lastError length (0) + payload: the record after its fixed header).
-- Reply: flat array, per job: status (0 created, 4 duplicate id), state ('ready'|'delayed'|existing state),
--   due ms (of the new job, or of the existing one on duplicate).
load_meta(true)
local n = tonumber(ARGV[2])
local channel = ARGV[3]
local lookahead = tonumber(ARGV[4])
local now = now_ms()
local reply = {}
local created, ready_count, earliest_head = 0, 0, nil
for j = 0, n - 1 do
  local a = 5 + 8 * j
  local id = ARGV[a]
  local pool_key = KEYS[11 + 2 * j]
  local due = tonumber(ARGV[a + 2])
  if ARGV[a + 1] == 'd' then due = now + due end
  local ttl = tonumber(ARGV[a + 6])
  local expire = 0
  if ttl > 0 then expire = now + ttl end
  local rec = struct.pack(HEADER, 1, due, now, expire, 0, tonumber(ARGV[a + 4]), tonumber(ARGV[a + 5])) .. ARGV[a + 7]
  if redis.call('HSETNX', pool_key, id, rec) == 0 then
    local e = decode(redis.call('HGET', pool_key, id))
    reply[#reply + 1] = DUPLICATE
    reply[#reply + 1] = state_of(id)
    reply[#reply + 1] = e.due
  else
    if expire > 0 then
      redis.call('ZADD', K_TTL, expire, id)
      lower_due(expire)
    end
    local state, earlier = place(id, due, now, KEYS[12 + 2 * j], tonumber(ARGV[a + 3]), lookahead)
    if state == 'ready' then ready_count = ready_count + 1 end
    if earlier and (earliest_head == nil or due < earliest_head) then earliest_head = due end
    created = created + 1
    reply[#reply + 1] = OK
    reply[#reply + 1] = state
    reply[#reply + 1] = due
  end
end
if created > 0 then redis.call('HINCRBY', K_STATS, 'enqueued', created) end
wake(ready_count)
if earliest_head then publish_head(channel, earliest_head) end
return reply
