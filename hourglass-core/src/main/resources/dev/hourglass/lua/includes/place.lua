--- @include "priority"
-- place: where a job with a due time waits, by the one rule every placing script follows, and the slot lists a
-- caller declared for it.

-- Slot start -> declared slot LIST key, from ARGV[count_arg] = m, ARGV[count_arg + 1 .. count_arg + m] the starts,
-- and KEYS[first_key ..] their keys in the same order.
local function declared_slots(count_arg, first_key)
  local declared = {}
  for i = 1, tonumber(ARGV[count_arg]) do declared[tonumber(ARGV[count_arg + i])] = KEYS[first_key + i - 1] end
  return declared
end

-- The partition's watermark, set to now when it has none yet.
local function watermark(now)
  if M_WM then return M_WM end
  redis.call('HSET', K_META, 'wm', fmt(now))
  M_WM = now
  return now
end

-- Where a job due at `due` belongs: 'ready' when due (it goes into near, where claim finds it at once); 'near' when
-- due before the watermark; 'slot' when the slot list of its due time (the slot of width `width` holding it)
-- starts at or after the watermark and the caller declared it, and then also that list's key and start; else
-- 'near'. The caller declares the lists it expects from its estimate of the server clock: a poor estimate costs
-- near memory, never correctness. The width is the queue's slot width (the scripts' lookahead).
local function placement(due, now, width, declared)
  if due <= now then return 'ready' end
  local wm = watermark(now)
  if due < wm then return 'near' end
  local start = due - due % width
  local key = declared[start]
  if key and start >= wm then return 'slot', key, start end
  return 'near'
end

-- Puts a job where placement() says and tells whoever must act on it: consumers at once (a wake token) when it is
-- ready; else promoters, for when it falls due (near) or its slot must load (width ms before the slot starts).
-- A job of priority prio > 0 (nil: 0) waits in K_PRIO rather than near (includes/priority.lua), a slot list first
-- when far ahead. Returns the state, 'ready' or 'delayed'.
local function place(m, due, now, width, declared, prio)
  local where, slot_key, start = placement(due, now, width, declared)
  if where == 'slot' then
    if redis.call('RPUSH', slot_key, m) == 1 then redis.call('ZADD', K_SLOTS, start, start) end
    clock_work_at(start)
    promoter_due(start - width)
    return 'delayed'
  end
  wait_at(m, prio or 0, due)
  if where == 'ready' then
    wake(1)
    return 'ready'
  end
  promoter_due(due)
  return 'delayed'
end
