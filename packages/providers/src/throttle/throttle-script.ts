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
 * another mailbox of a pool), number of windows, then (cap, window ms) pairs, then
 * whether the bucket must have been seeded (1) before it grants anything.
 *
 * Seeding: the bucket lives only in Redis, so a Redis that lost its data would
 * grant a mailbox a whole fresh day. With seeding on, a bucket whose state hash has
 * no `seeded` field (lost, expired, or never made) grants nothing and answers `S`:
 * the caller rebuilds it from PostgreSQL with {@link THROTTLE_SEED_SCRIPT} and asks again.
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
 * A hint is a place in line only for a waiter that comes back at it. A touch whose
 * hint falls outside its own sending window (a pool sending to zones whose windows
 * barely overlap) comes back only when its window opens: the caller then gives the
 * hint up (`ZREM h:<member>`, MailboxThrottle.release), or it would stand there
 * unused, counted against the caps, with every later waiter queued behind it.
 *
 * Returns {granted (0|1), wait ms, now ms} as strings (Lua numbers would be
 * truncated to integers on the way out).
 */
export const THROTTLE_TAKE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
${takeBody()}`;

/** The take's decision after its clock reading (`now`, ms), shared by the single and the batched script. */
function takeBody(): string {
  return `
local member = ARGV[1]
local spacing = tonumber(ARGV[2])
local minSpacing = tonumber(ARGV[3])
local leaveHint = ARGV[4] == '1'
local n = tonumber(ARGV[5])
local maxW = 0
for i = 0, n - 1 do
  local w = tonumber(ARGV[7 + 2 * i])
  if w > maxW then maxW = w end
end
local ttl = math.ceil(maxW + 60000)
-- Upkeep (pruning the log past every window, renewing both keys' TTL) runs about
-- once every 30 s of a mailbox's sends, not on every take: \`e\` in the state hash is
-- the expiry both keys were last given. While it is more than \`ttl\` - 30 s away,
-- every grant made now still outlives its windows by 30 s. Entries past every
-- window left in the log meanwhile change no decision (each count and each place in
-- line looks at its own window), and a log that is not there (\`ZCARD\` 0: new,
-- expired or emptied) gets its TTL with the first entry added to it.
local state = redis.call('HMGET', KEYS[2], 'next', 'min', 'seeded', 'e')
local upkeep = not state[4] or tonumber(state[4]) - now < ttl - 30000
if upkeep then redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - maxW) end
local size = redis.call('ZCARD', KEYS[1])
local gkey = 'g:' .. member
local hkey = 'h:' .. member

local hint = size > 0 and redis.call('ZSCORE', KEYS[1], hkey)
if hint then
  hint = tonumber(hint)
  if hint > now then return {'0', tostring(hint - now), tostring(now)} end
  redis.call('ZREM', KEYS[1], hkey)
  size = size - 1
  -- A hint past every window is one upkeep would have pruned: its waiter is a newcomer.
  if hint <= now - maxW then hint = nil end
end
if size == 0 then upkeep = true end

if ARGV[6 + 2 * n] == '1' and not state[3] then return {'S', '0', tostring(now)} end
local nextAt = tonumber(state[1] or '0')
if hint then nextAt = tonumber(state[2] or '0') end
local spacedOk = now >= nextAt
local windowsOk = true
-- Every window's count is at most the log's size (hints to come included): a log
-- smaller than the smallest cap fits every window, and the counts are not needed.
-- Open caps (a sender far under its limits) then cost one ZCARD, not a ZCOUNT a
-- window: on a log of a few hundred entries (listpack) a ZCOUNT scans it.
local minCap = math.huge
for i = 0, n - 1 do
  local cap = tonumber(ARGV[6 + 2 * i])
  if cap < minCap then minCap = cap end
end
local counted = minCap <= size
local own = counted and redis.call('ZSCORE', KEYS[1], gkey)
if own then own = tonumber(own) end
for i = 0, (counted and n or 0) - 1 do
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

if ok then
  redis.call('ZADD', KEYS[1], now, gkey)
  if upkeep then
    redis.call('HSET', KEYS[2], 'next', now + spacing, 'min', now + minSpacing, 'e', now + ttl)
    redis.call('PEXPIRE', KEYS[1], ttl)
    redis.call('PEXPIRE', KEYS[2], ttl)
  else
    redis.call('HSET', KEYS[2], 'next', now + spacing, 'min', now + minSpacing)
  end
  return {'1', '0', tostring(now)}
end

if not leaveHint then return {'0', '0', tostring(now)} end
-- A waiter back on time whose windows have room, held only by the spacing from a
-- grant that came late: it keeps its place, just after that spacing.
if hint and windowsOk and not spacedOk then
  redis.call('ZADD', KEYS[1], nextAt, hkey)
  if upkeep then
    redis.call('HSET', KEYS[2], 'e', now + ttl)
    redis.call('PEXPIRE', KEYS[1], ttl)
    redis.call('PEXPIRE', KEYS[2], ttl)
  end
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
local hold = ttl + math.ceil(at - now)
redis.call('HSET', KEYS[2], 'e', now + hold)
redis.call('PEXPIRE', KEYS[1], hold)
redis.call('PEXPIRE', KEYS[2], hold)
return {'0', tostring(at - now), tostring(now)}
`;
}

/**
 * Rebuilds a lost bucket from the sends PostgreSQL recorded, once, atomically.
 *
 * KEYS as {@link THROTTLE_TAKE_SCRIPT}. ARGV: the counts in the minute, hour and day
 * windows, the three window lengths in ms, the newest send's time (ms, 0 for none),
 * the minimum spacing, and for a bucket with a week window its count and length.
 * When another replica seeded first (`seeded` is set), nothing
 * changes. Otherwise each counted send becomes an `s:` entry placed as late as its
 * window allows (the minute's at now, the rest of the hour's at the minute window's
 * edge, the rest of the day's at the hour window's edge): each entry leaves its
 * windows no earlier than the send it stands for, so the rebuilt bucket is never
 * more generous than the lost one. Returns the number of entries added.
 */
export const THROTTLE_SEED_SCRIPT = `
if redis.call('HEXISTS', KEYS[2], 'seeded') == 1 then return -1 end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local cMin = tonumber(ARGV[1])
local cHour = math.max(cMin, tonumber(ARGV[2]))
local cDay = math.max(cHour, tonumber(ARGV[3]))
local wMin = tonumber(ARGV[4])
local wHour = tonumber(ARGV[5])
local wDay = tonumber(ARGV[6])
local lastAt = tonumber(ARGV[7])
local minSpacing = tonumber(ARGV[8])
local added = 0
local function put(count, at)
  for i = 1, count do
    added = added + 1
    redis.call('ZADD', KEYS[1], at, 's:' .. tostring(now) .. ':' .. added)
  end
end
put(cMin, now)
-- Windows count (now - W, now]: an entry at now - W is already outside W, inside the next.
put(cHour - cMin, now - wMin)
put(cDay - cHour, now - wHour)
local wMax = wDay
if ARGV[10] then
  -- The rest of the week's, at the day window's edge.
  put(math.max(cDay, tonumber(ARGV[9])) - cDay, now - wDay)
  wMax = tonumber(ARGV[10])
end
redis.call('HSET', KEYS[2], 'seeded', 1)
if lastAt > 0 then
  local nextAt = math.min(now, lastAt) + minSpacing
  local cur = tonumber(redis.call('HGET', KEYS[2], 'next') or '0')
  if nextAt > cur then redis.call('HSET', KEYS[2], 'next', nextAt, 'min', nextAt) end
end
local ttl = math.ceil(wMax + 60000)
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[2], ttl)
return added
`;

/**
 * {@link THROTTLE_TAKE_SCRIPT} for several touches in one call: the touches a sender
 * has in flight ask together, so Redis runs one script (and the client sends one
 * command) for all of them instead of one each. Each take is the single script's
 * body run as a function on its own two keys and arguments, one after the other, as
 * separate calls at the same moment would be (one clock reading for all of them);
 * the whole call is atomic, so caps hold exactly as they do one take at a time.
 *
 * KEYS: each take's two keys in turn. ARGV: for each take, the number of its
 * arguments, then those arguments (as the single script's ARGV). Returns the takes'
 * answers one after the other, three strings each, as the single script does. Every
 * key of one call must be on one Redis node (not used on a cluster).
 */
export const THROTTLE_TAKE_MANY_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local function take(KEYS, ARGV)
${takeBody()}
end
local out = {}
local a = 1
for i = 1, #KEYS / 2 do
  local len = tonumber(ARGV[a])
  local args = {}
  for j = 1, len do args[j] = ARGV[a + j] end
  a = a + len + 1
  local r = take({KEYS[2 * i - 1], KEYS[2 * i]}, args)
  out[#out + 1] = r[1]
  out[#out + 1] = r[2]
  out[#out + 1] = r[3]
end
return out
`;
