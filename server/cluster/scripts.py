"""The Lua scripts of the Redis store: each write is one script, so it is atomic.

Every script that changes a room also publishes a wake-up on the room's channel in the same step.
"""

from __future__ import annotations

# KEYS: room, open-set, then one player key per seated person. ARGV: options, created, seats,
# code.
CREATE_ROOM = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'options', ARGV[1], 'created', ARGV[2], 'seats', ARGV[3],
           'closed', '0', 'match', '0')
redis.call('SADD', KEYS[2], ARGV[4])
for i = 3, #KEYS do redis.call('SET', KEYS[i], ARGV[4]) end
return 1
"""

# KEYS: room, then one player key per seated person. ARGV: seats, channel, wake-up, code,
# expected seats ('' to write whatever is there).
SAVE_SEATS = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[5] ~= '' and redis.call('HGET', KEYS[1], 'seats') ~= ARGV[5] then return -1 end
redis.call('HSET', KEYS[1], 'seats', ARGV[1], 'touched', ARGV[6])
for i = 2, #KEYS do redis.call('SET', KEYS[i], ARGV[4]) end
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 1
"""

# KEYS: room, match. ARGV: number, seed, options, names, started, channel, wake-up.
START_MATCH = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('HSET', KEYS[2], 'seed', ARGV[2], 'options', ARGV[3], 'names', ARGV[4],
           'started', ARGV[5])
if tonumber(redis.call('HGET', KEYS[1], 'match') or '0') < tonumber(ARGV[1]) then
    redis.call('HSET', KEYS[1], 'match', ARGV[1])
end
redis.call('PUBLISH', ARGV[6], ARGV[7])
return 1
"""

# KEYS: match, log, room, voided. ARGV: index, entry, channel, wake-up, now, key, attempt.
# Returns the new log length; -1 - length when the log is not at the expected index; the
# expected length when the entry there is this very entry, key included (the same move again:
# idempotent);
# VOIDED when CONFIRM_ACTION has voided this attempt (it timed out and was reported unsaved).
APPEND_ACTION = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1000000000 end
if redis.call('SISMEMBER', KEYS[4], ARGV[7]) == 1 then return -1000000001 end
local index = tonumber(ARGV[1])
local length = redis.call('LLEN', KEYS[2])
if length ~= index then
    if ARGV[6] ~= '' and length > index and redis.call('LINDEX', KEYS[2], index) == ARGV[2] then
        return index + 1
    end
    return -1 - length
end
length = redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('HSET', KEYS[3], 'touched', ARGV[5])
redis.call('PUBLISH', ARGV[3], ARGV[4])
return length
"""

# KEYS: log, voided. ARGV: index, key, attempt, milliseconds to keep the voided mark.
# 1 if the entry at index has the key; otherwise 0, and the attempt can never append.
CONFIRM_ACTION = """
local index = tonumber(ARGV[1])
if redis.call('LLEN', KEYS[1]) > index then
    local entry = cjson.decode(redis.call('LINDEX', KEYS[1], index))
    if entry['key'] == ARGV[2] then return 1 end
end
redis.call('SADD', KEYS[2], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return 0
"""

# KEYS: match, finished-set. ARGV: finished, result, winner, member, channel, wake-up.
FINISH_MATCH = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'finished', ARGV[1], 'result', ARGV[2], 'winner', ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[1], ARGV[4])
redis.call('PUBLISH', ARGV[5], ARGV[6])
return 1
"""

# KEYS: room, open-set. ARGV: code, channel, wake-up.
CLOSE_ROOM = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'closed', '1')
redis.call('SREM', KEYS[2], ARGV[1])
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 1
"""

# KEYS: claim. ARGV: owner, milliseconds.
CLAIM = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
if redis.call('GET', KEYS[1]) == ARGV[1] then return 1 end
return 0
"""

# KEYS: claim. ARGV: owner.
RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# KEYS: presence. ARGV: node, channel, wake-up, milliseconds.
# The key becomes 'gone' (a clean disconnect) rather than disappearing, so other nodes can tell
# a player who left from a presence that lapsed (a dead node, or a renewal that came late).
CLEAR_PRESENCE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], 'gone', 'PX', ARGV[4])
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 1
"""

# KEYS: presence keys. ARGV: node, milliseconds, wake-up, then one channel per key.
# Renews this node's players in one step; a key another node holds, or marked gone since, is
# left alone. A key that had lapsed is written again and its room woken (the player is here).
RENEW_PRESENCE = """
local renewed = 0
for i, key in ipairs(KEYS) do
    local holder = redis.call('GET', key)
    if holder == false or holder == ARGV[1] then
        redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
        renewed = renewed + 1
        if holder == false then redis.call('PUBLISH', ARGV[3 + i], ARGV[3]) end
    end
end
return renewed
"""

NO_MATCH = -1_000_000_000
VOIDED = -1_000_000_001

SCRIPTS = {
    "create_room": CREATE_ROOM,
    "save_seats": SAVE_SEATS,
    "start_match": START_MATCH,
    "append_action": APPEND_ACTION,
    "confirm_action": CONFIRM_ACTION,
    "finish_match": FINISH_MATCH,
    "close_room": CLOSE_ROOM,
    "claim": CLAIM,
    "release": RELEASE,
    "clear_presence": CLEAR_PRESENCE,
    "renew_presence": RENEW_PRESENCE,
}
