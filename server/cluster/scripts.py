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

# KEYS: match, log, room. ARGV: index, entry, channel, wake-up, now.
# Returns the new log length, or -1 - length when the log is not at the expected index.
APPEND_ACTION = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1000000000 end
local length = redis.call('LLEN', KEYS[2])
if length ~= tonumber(ARGV[1]) then return -1 - length end
length = redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('HSET', KEYS[3], 'touched', ARGV[5])
redis.call('PUBLISH', ARGV[3], ARGV[4])
return length
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

# KEYS: presence. ARGV: node, channel, wake-up.
CLEAR_PRESENCE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 1
"""

NO_MATCH = -1_000_000_000

SCRIPTS = {
    "create_room": CREATE_ROOM,
    "save_seats": SAVE_SEATS,
    "start_match": START_MATCH,
    "append_action": APPEND_ACTION,
    "finish_match": FINISH_MATCH,
    "close_room": CLOSE_ROOM,
    "claim": CLAIM,
    "release": RELEASE,
    "clear_presence": CLEAR_PRESENCE,
}
