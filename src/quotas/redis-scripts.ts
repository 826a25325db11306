/**
 * The Lua scripts behind a quota shared by a fleet (./redis-limiter.ts). Each runs atomically in
 * Redis, so concurrent admissions from any number of replicas see one consistent state, and all
 * times are Redis's own clock (`TIME`), so replicas' clocks never disagree about the window.
 *
 * Keys of one quota (KEYS[1..5], under the fleet's prefix, `<k>` the quota's config key):
 * - `quota:<k>:window`  sorted set: one member per admission in the last 60 s, score = admission time
 * - `quota:<k>:slots`   sorted set: one member per concurrency slot held, score = its lease's expiry
 * - `quota:<k>:ends`    hash: slot member -> "<admitted at>,<time budget or -1>" (the retry hint)
 * - `quota:<k>:queue`   sorted set: calls waiting for a slot, score = when they joined (FIFO)
 * - `quota:<k>:alive`   sorted set: the same waiters, score = their heartbeat's expiry
 * Members are `<replica id>:<uuid>`. A slot whose lease expired (its replica died) and a waiter whose
 * heartbeat expired are dropped by the next script that looks.
 */

/** Milliseconds since the epoch, by Redis's clock. */
const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * ARGV: member, per_minute (0 = none), concurrency (0 = none), queue bound, slot lease ms, waiter
 * lease ms, mean call duration ms (-1 = unknown), time budget ms (-1 = unknown), mode (`new`: a
 * fresh call; `wait`: a queued call trying again), window ms.
 * Returns {status, retry_after_ms, window_calls}: status `ok` (admitted: a window entry and, with a
 * concurrency limit, a slot leased), `per_minute` / `concurrency` (refused; out of the queue), or
 * `wait` (in the queue: try again on a release notice or the next poll).
 */
export const ACQUIRE_SCRIPT = `
local window, slots, ends, queue, alive = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local member = ARGV[1]
local perMinute = tonumber(ARGV[2])
local concurrency = tonumber(ARGV[3])
local queueLimit = tonumber(ARGV[4])
local slotLease = tonumber(ARGV[5])
local waiterLease = tonumber(ARGV[6])
local mean = tonumber(ARGV[7])
local budget = tonumber(ARGV[8])
local mode = ARGV[9]
local windowMs = tonumber(ARGV[10])
${NOW}

local function leaveQueue()
  redis.call('ZREM', queue, member)
  redis.call('ZREM', alive, member)
end

-- when the earliest slot is expected back (the in-memory limiter's rule, on every replica's slots)
local function hint()
  local fallback = 1000
  if mean >= 0 then fallback = mean end
  local earliest = nil
  local entries = redis.call('HGETALL', ends)
  for i = 1, #entries, 2 do
    local at, b = string.match(entries[i + 1], '^(%d+),(-?%d+)$')
    if at then
      at = tonumber(at)
      b = tonumber(b)
      local e
      if mean >= 0 and at + mean > now then e = at + mean
      elseif b >= 0 and at + b > now then e = at + b
      else e = now + fallback end
      if earliest == nil or e < earliest then earliest = e end
    end
  end
  if earliest == nil then earliest = now + fallback end
  return math.max(1, earliest - now)
end

local windowCalls = 0
if perMinute > 0 then
  redis.call('ZREMRANGEBYSCORE', window, '-inf', now - windowMs)
  windowCalls = redis.call('ZCARD', window)
  if windowCalls >= perMinute then
    local oldest = redis.call('ZRANGE', window, 0, 0, 'WITHSCORES')
    leaveQueue()
    return {'per_minute', math.max(1, tonumber(oldest[2]) + windowMs - now), windowCalls}
  end
end

if concurrency > 0 then
  local expired = redis.call('ZRANGEBYSCORE', slots, '-inf', now)
  if #expired > 0 then
    redis.call('ZREM', slots, unpack(expired))
    redis.call('HDEL', ends, unpack(expired))
  end
  local dead = redis.call('ZRANGEBYSCORE', alive, '-inf', now)
  if #dead > 0 then
    redis.call('ZREM', alive, unpack(dead))
    redis.call('ZREM', queue, unpack(dead))
  end
  local free = concurrency - redis.call('ZCARD', slots)
  local rank = false
  if mode == 'wait' then rank = redis.call('ZRANK', queue, member) end
  local ahead
  if rank then ahead = rank else ahead = redis.call('ZCARD', queue) end
  -- FIFO across the fleet: a free slot goes to the calls queued longest
  if free <= ahead then
    if not rank then
      if mode == 'new' and ahead >= queueLimit then return {'concurrency', hint(), windowCalls} end
      redis.call('ZADD', queue, now, member)
    end
    redis.call('ZADD', alive, now + waiterLease, member)
    redis.call('PEXPIRE', queue, slotLease * 4 + waiterLease)
    redis.call('PEXPIRE', alive, slotLease * 4 + waiterLease)
    return {'wait', hint(), windowCalls}
  end
  leaveQueue()
  redis.call('ZADD', slots, now + slotLease, member)
  redis.call('HSET', ends, member, string.format('%d,%d', now, budget))
  redis.call('PEXPIRE', slots, slotLease * 4)
  redis.call('PEXPIRE', ends, slotLease * 4)
end

if perMinute > 0 then
  redis.call('ZADD', window, now, member)
  redis.call('PEXPIRE', window, windowMs)
  windowCalls = windowCalls + 1
end
return {'ok', 0, windowCalls}
`;

/**
 * KEYS as ACQUIRE. ARGV: member, ran (`1`, or `0`: the call never ran, so its window entry is given
 * back too), the release channel. Frees the member's slot and queue place; publishes on the channel
 * when a slot or a queue place was freed (waiters on every replica try again). Returns 1 when a slot
 * was freed.
 */
export const RELEASE_SCRIPT = `
local member = ARGV[1]
local left = redis.call('ZREM', KEYS[4], member)
redis.call('ZREM', KEYS[5], member)
local freed = redis.call('ZREM', KEYS[2], member)
redis.call('HDEL', KEYS[3], member)
if ARGV[2] == '0' then redis.call('ZREM', KEYS[1], member) end
if (freed > 0 or left > 0) and ARGV[3] ~= '' then redis.call('PUBLISH', ARGV[3], '1') end
return freed
`;

/**
 * KEYS: slots, ends. ARGV: lease ms, then the members this replica holds. Extends each member's
 * lease that is still held (a lease that already expired is not revived: the slot may be someone
 * else's by now). Returns how many were extended.
 */
export const RENEW_SCRIPT = `
local lease = tonumber(ARGV[1])
${NOW}
local renewed = 0
for i = 2, #ARGV do
  if redis.call('ZSCORE', KEYS[1], ARGV[i]) then
    redis.call('ZADD', KEYS[1], now + lease, ARGV[i])
    renewed = renewed + 1
  end
end
redis.call('PEXPIRE', KEYS[1], lease * 4)
redis.call('PEXPIRE', KEYS[2], lease * 4)
return renewed
`;
