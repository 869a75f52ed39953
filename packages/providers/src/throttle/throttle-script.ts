/**
 * The token bucket of one mailbox as one atomic Redis script, so every sender
 * replica shares it and a decision costs one round trip.
 *
 * KEYS[1]: sorted set of grants (`g:<member>`, scored by grant time) and wait
 * hints (`h:<member>`, scored by the time the waiter should come back).
 * KEYS[2]: hash with `next`, the earliest time of the next grant (spacing +
 * jitter), and `min`, the same without the jitter.
 * ARGV: member, spacing in ms for the gap after this grant (with its jitter),
 * the minimum spacing, whether a refusal leaves a hint (1) or nothing (0, to try
 * another mailbox of a pool), number of windows, then (cap, window ms) pairs.
 *
 * A waiter coming back at its hint is held to the minimum spacing only: its hint
 * was already placed one jittered gap after the entry before it, and holding it
 * to the jitter drawn by another grant would send it to the back of the line.
 *
 * Times are Redis's own clock (TIME), in fractional ms: one clock for the whole
 * fleet, so replicas with skewed clocks cannot each believe a window has rolled.
 *
 * A grant is decided at the moment of the call: it is given only if, for every
 * window W with cap C, fewer than C entries lie in (now - W, now], and `next` has
 * passed. Past hints count as entries too (their owners are about to come back),
 * which only makes the count stricter. Caps therefore hold exactly on grant times,
 * however late a delayed job comes back.
 *
 * A refusal appends a hint: the earliest time at which one more entry after all
 * the others (grants and earlier hints) fits every window. Waiters come back one
 * slot after another instead of all at once when a window rolls.
 *
 * Returns {granted (0|1), wait ms, now ms} as strings (Lua numbers would be
 * truncated to integers on the way out).
 */
export const THROTTLE_TAKE_SCRIPT = `
local member = ARGV[1]
local spacing = tonumber(ARGV[2])
local minSpacing = tonumber(ARGV[3])
local leaveHint = ARGV[4] == '1'
local n = tonumber(ARGV[5])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local maxW = 0
for i = 0, n - 1 do
  local w = tonumber(ARGV[7 + 2 * i])
  if w > maxW then maxW = w end
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - maxW)
local gkey = 'g:' .. member
local hkey = 'h:' .. member

local hint = redis.call('ZSCORE', KEYS[1], hkey)
if hint then
  hint = tonumber(hint)
  if hint > now then return {'0', tostring(hint - now), tostring(now)} end
  redis.call('ZREM', KEYS[1], hkey)
end

local state = redis.call('HMGET', KEYS[2], 'next', 'min')
local nextAt = tonumber(state[1] or '0')
if hint then nextAt = tonumber(state[2] or '0') end
local own = redis.call('ZSCORE', KEYS[1], gkey)
if own then own = tonumber(own) end
local spacedOk = now >= nextAt
local windowsOk = true
for i = 0, n - 1 do
  local cap = tonumber(ARGV[6 + 2 * i])
  local w = tonumber(ARGV[7 + 2 * i])
  local c = redis.call('ZCOUNT', KEYS[1], '(' .. (now - w), now)
  -- A retry of a grant that was never used (429, a pause) re-takes its own slot.
  if own and own > now - w and own <= now then c = c - 1 end
  if c >= cap then
    windowsOk = false
    break
  end
end
local ok = spacedOk and windowsOk

local ttl = math.ceil(maxW + 60000)
if ok then
  redis.call('ZADD', KEYS[1], now, gkey)
  redis.call('HSET', KEYS[2], 'next', now + spacing, 'min', now + minSpacing)
  redis.call('PEXPIRE', KEYS[1], ttl)
  redis.call('PEXPIRE', KEYS[2], ttl)
  return {'1', '0', tostring(now)}
end

if not leaveHint then return {'0', '0', tostring(now)} end
-- A waiter back on time whose windows have room, held only by the spacing from a
-- grant that came late: it keeps its place, just after that spacing.
if hint and windowsOk and not spacedOk then
  redis.call('ZADD', KEYS[1], nextAt, hkey)
  return {'0', tostring(nextAt - now), tostring(now)}
end
local at = math.max(now, tonumber(state[1] or '0'))
if spacing > 0 then
  local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
  if last[2] then at = math.max(at, tonumber(last[2]) + spacing) end
end
for i = 0, n - 1 do
  local cap = tonumber(ARGV[6 + 2 * i])
  local w = tonumber(ARGV[7 + 2 * i])
  local e = redis.call('ZRANGE', KEYS[1], -cap, -cap, 'WITHSCORES')
  if e[2] then at = math.max(at, tonumber(e[2]) + w) end
end
if at <= now then at = now + 1 end
redis.call('ZADD', KEYS[1], at, hkey)
redis.call('PEXPIRE', KEYS[1], ttl + math.ceil(at - now))
redis.call('PEXPIRE', KEYS[2], ttl + math.ceil(at - now))
return {'0', tostring(at - now), tostring(now)}
`;
