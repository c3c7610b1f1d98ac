-- place: where a job with a due time waits, by the one rule every placing script follows.

-- The partition's watermark, set to now when it has none yet.
local function watermark(now)
  if M_WM then return M_WM end
  redis.call('HSET', K_META, 'wm', now)
  M_WM = now
  return now
end

-- Where a job due at `due` belongs: 'ready' when due (it goes into near, where claim finds it at once); 'near' when
-- due before the watermark; 'slot' when the slot the caller proposed is valid (watermark <= slot start <= due <
-- slot start + 2 widths: a slot list holds jobs due within two widths of its start, which listing by due time
-- relies on; the second width absorbs a caller's clock estimate that is off by up to a width at a slot's edge);
-- else 'near'. The caller proposes the slot from its estimate of the server clock: a poor estimate costs near
-- memory, never correctness. The width is the queue's slot width (the scripts' lookahead).
local function placement(due, now, slot_key, slot_start, width)
  if due <= now then return 'ready' end
  local wm = watermark(now)
  if due >= wm and slot_key and slot_start >= wm and slot_start <= due and due < slot_start + 2 * width then
    return 'slot'
  end
  return 'near'
end

-- Puts a job where placement() says and tells whoever must act on it: consumers at once (a wake token) when it is
-- ready; else promoters, for when it falls due (near) or its slot must load (lookahead ms before the slot starts).
-- Returns the state, 'ready' or 'delayed'.
local function place(id, due, now, slot_key, slot_start, lookahead)
  local where = placement(due, now, slot_key, slot_start, lookahead)
  if where == 'slot' then
    if redis.call('RPUSH', slot_key, id) == 1 then redis.call('ZADD', K_SLOTS, slot_start, slot_start) end
    clock_work_at(slot_start)
    promoter_due(slot_start - lookahead)
    return 'delayed'
  end
  redis.call('ZADD', K_NEAR, due, id)
  if where == 'ready' then
    wake(1)
    return 'ready'
  end
  promoter_due(due)
  return 'delayed'
end
