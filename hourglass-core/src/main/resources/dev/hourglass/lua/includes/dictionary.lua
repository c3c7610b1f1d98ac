-- The zstd dictionary an enqueue's compressed payloads name (Payloads.java): an enqueue's last two arguments are its
-- id ('' for none) and its bytes, when the call installs it in the partition (else ''). A dictionary lives in field
-- z<id> of the meta hash of every partition that holds a payload compressed with it, so that a reader finds it on
-- the node of the payload, and a replica that has the payload has it too. False when the partition does not hold
-- the dictionary named and the call does not bring it: the caller sends the call again with it.
local function dictionary_held()
  local n = #ARGV
  local id = ARGV[n - 1]
  if id == '' then return true end
  if ARGV[n] ~= '' then
    redis.call('HSET', K_META, 'z' .. id, ARGV[n])
    return true
  end
  return redis.call('HEXISTS', K_META, 'z' .. id) == 1
end
