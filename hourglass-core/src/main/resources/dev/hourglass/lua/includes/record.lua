-- record: the job record, the value of a pool HASH (RecordCodec in Java reads and writes the same bytes).
-- struct '<i6i6i6BHHI4' (27 bytes) = due, created, expireAt (0 none), flags (bit 0: the payload is compressed;
-- bit 1: the job is an occurrence of a schedule, see includes/schedule.lua; bits 4-7: the priority 0..9),
-- attempts (finished attempts), maxAttempts, visibilityMs; then the backoff (B length + bytes; length 0 = the
-- queue's default), the last error (H length + UTF-8 bytes), then the payload bytes to the end. The client writes
-- a new record whole, its times from its estimate of the server's clock (which the enqueue scripts check); scripts
-- rewrite a record only to change its due time, attempts or last error.
local HEADER = '<i6i6i6BHHI4'

local function decode(rec)
  local due, created, expire, flags, attempts, max_attempts, vis, pos = struct.unpack(HEADER, rec)
  local blen = string.byte(rec, pos)
  local backoff = string.sub(rec, pos + 1, pos + blen)
  pos = pos + 1 + blen
  local elen = struct.unpack('<H', rec, pos)
  local err = string.sub(rec, pos + 2, pos + 1 + elen)
  return {
    due = due, created = created, expire = expire, flags = flags, attempts = attempts,
    max_attempts = max_attempts, vis = vis, backoff = backoff, err = err, payload_pos = pos + 2 + elen
  }
end

-- The record of job j (as decode() returns it, fields changed) with the payload of rec.
local function encode(j, rec)
  local err = j.err
  if #err > 65535 then err = string.sub(err, 1, 65535) end
  return struct.pack(HEADER, j.due, j.created, j.expire, j.flags, j.attempts, j.max_attempts, j.vis)
    .. string.char(#j.backoff) .. j.backoff .. struct.pack('<H', #err) .. err .. string.sub(rec, j.payload_pos)
end

-- The due time of a record, without decoding the rest.
local function record_due(rec)
  return (struct.unpack('<i6', rec))
end

-- The expiry of a record (0: none), without decoding the rest.
local function record_expire(rec)
  return (struct.unpack('<i6', rec, 13))
end
