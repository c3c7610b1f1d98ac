-- ack: finish a delivery; the job is gone.
-- KEYS[1..10] the partition keys; KEYS[11] the job's pool HASH.
-- ARGV[1] pools S; ARGV[2] id; ARGV[3] receipt.
-- Reply: { status } 0 ok, 1 not found, 2 stale receipt (the job lives but this delivery no longer holds it).
load_meta(false)
local id, receipt = ARGV[2], ARGV[3]
local pool_key = KEYS[FIRST_EXTRA_KEY]
local refusal = lease_refusal(pool_key, id, receipt)
if refusal then return { refusal } end
drop(pool_key, id)
redis.call('HINCRBY', K_STATS, 'acked', 1)
return { OK }
