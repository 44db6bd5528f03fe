"""The Lua scripts of the Redis store: each write is one script, so it is atomic.

Every script that changes a room also wakes, in the same step, the nodes that watch the room
(the members of its ``watch`` set, each on its own channel), except the node that wrote.
"""

from __future__ import annotations

# Prepended to every script that wakes a room's nodes. ARGV of the caller: the node channel
# prefix, the wake-up, the writing node (not woken), given to wake() by position.
WAKE = """
local function wake(watch, prefix, message, writer)
    for _, node in ipairs(redis.call('SMEMBERS', watch)) do
        if node ~= writer then redis.call('PUBLISH', prefix .. node, message) end
    end
end
"""

# KEYS: room, open-set, watch, then one player key per seated person. ARGV: options, created,
# seats, code, the creating node (which watches the room from the start).
CREATE_ROOM = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'options', ARGV[1], 'created', ARGV[2], 'seats', ARGV[3],
           'closed', '0', 'match', '0')
redis.call('SADD', KEYS[2], ARGV[4])
if ARGV[5] ~= '' then redis.call('SADD', KEYS[3], ARGV[5]) end
for i = 4, #KEYS do redis.call('SET', KEYS[i], ARGV[4]) end
return 1
"""

# KEYS: room, watch, then one player key per seated person. ARGV: node channel prefix, wake-up,
# writer, seats, code, expected seats ('' to write whatever is there), now.
SAVE_SEATS = (
    WAKE
    + """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[6] ~= '' and redis.call('HGET', KEYS[1], 'seats') ~= ARGV[6] then return -1 end
redis.call('HSET', KEYS[1], 'seats', ARGV[4], 'touched', ARGV[7])
for i = 3, #KEYS do redis.call('SET', KEYS[i], ARGV[5]) end
wake(KEYS[2], ARGV[1], ARGV[2], ARGV[3])
return 1
"""
)

# KEYS: room, match, watch. ARGV: node channel prefix, wake-up, writer, number, seed, options,
# names, started.
START_MATCH = (
    WAKE
    + """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('HSET', KEYS[2], 'seed', ARGV[5], 'options', ARGV[6], 'names', ARGV[7],
           'started', ARGV[8])
if tonumber(redis.call('HGET', KEYS[1], 'match') or '0') < tonumber(ARGV[4]) then
    redis.call('HSET', KEYS[1], 'match', ARGV[4])
end
wake(KEYS[3], ARGV[1], ARGV[2], ARGV[3])
return 1
"""
)

# KEYS: match, log, room, voided, watch. ARGV: node channel prefix, wake-up, writer, index,
# entry, now, key, attempt, match number.
# Returns the new log length; -1 - length when the log is not at the expected index; the
# expected length when the entry there is this very entry, key included (the same move again:
# idempotent); VOIDED when CONFIRM_ACTION has voided this attempt (it timed out and was reported
# unsaved); NOT_CURRENT when the room has moved on to another match.
# The wake-up carries the entry, so the nodes that watch the room apply it without a read.
APPEND_ACTION = (
    WAKE
    + """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1000000000 end
if redis.call('SISMEMBER', KEYS[4], ARGV[8]) == 1 then return -1000000001 end
local index = tonumber(ARGV[4])
local length = redis.call('LLEN', KEYS[2])
if length ~= index then
    if ARGV[7] ~= '' and length > index and redis.call('LINDEX', KEYS[2], index) == ARGV[5] then
        return index + 1
    end
    return -1 - length
end
if redis.call('HGET', KEYS[3], 'match') ~= ARGV[9] then return -1000000002 end
length = redis.call('RPUSH', KEYS[2], ARGV[5])
redis.call('HSET', KEYS[3], 'touched', ARGV[6])
wake(KEYS[5], ARGV[1], ARGV[2], ARGV[3])
return length
"""
)

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

# KEYS: match, finished-set, watch. ARGV: node channel prefix, wake-up, writer, finished, result,
# winner, member.
FINISH_MATCH = (
    WAKE
    + """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'finished', ARGV[4], 'result', ARGV[5], 'winner', ARGV[6])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[7])
wake(KEYS[3], ARGV[1], ARGV[2], ARGV[3])
return 1
"""
)

# KEYS: room, open-set, watch, presence of seat 0 and 1. ARGV: node channel prefix, wake-up,
# writer, code. The room's watchers are woken, then the watch set and presence are forgotten.
CLOSE_ROOM = (
    WAKE
    + """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'closed', '1')
redis.call('SREM', KEYS[2], ARGV[4])
wake(KEYS[3], ARGV[1], ARGV[2], ARGV[3])
redis.call('DEL', KEYS[3], KEYS[4], KEYS[5])
return 1
"""
)

# KEYS: watch. ARGV: node channel prefix, wake-up, writer. A wake-up with no change in Redis
# (a relayed chat line or notice).
WAKE_ROOM = (
    WAKE
    + """
wake(KEYS[1], ARGV[1], ARGV[2], ARGV[3])
return 1
"""
)

# KEYS: room, watch. ARGV: node channel prefix, wake-up, writer, agreement.
SAVE_AGREEMENT = (
    WAKE
    + """
redis.call('HSET', KEYS[1], 'agreement', ARGV[4])
wake(KEYS[2], ARGV[1], ARGV[2], ARGV[3])
return 1
"""
)

# KEYS: room, presence of seat 0 and 1. ARGV: node heartbeat prefix.
# What a catch-up checks: seats, closed, match number, agreement, then per seat the node that
# holds its connection (or 'gone') and whether that node's heartbeat is alive (1) or not (0).
ROOM_STATE = """
local fields = redis.call('HMGET', KEYS[1], 'seats', 'closed', 'match', 'agreement')
local result = {fields[1], fields[2], fields[3], fields[4]}
for i = 2, 3 do
    local holder = redis.call('GET', KEYS[i])
    result[#result + 1] = holder
    local alive = 0
    if holder and holder ~= 'gone' and redis.call('EXISTS', ARGV[1] .. holder) == 1 then
        alive = 1
    end
    result[#result + 1] = alive
end
return result
"""

# KEYS: open-set. ARGV: key prefix, node heartbeat prefix, since (wall clock).
# Open rooms with no write since ``since`` and no seat held by a live node.
IDLE_ROOMS = """
local idle = {}
for _, code in ipairs(redis.call('SMEMBERS', KEYS[1])) do
    local room = ARGV[1] .. 'room:' .. code
    local times = redis.call('HMGET', room, 'touched', 'created')
    local last = tonumber(times[1] or times[2] or '0') or 0
    if last < tonumber(ARGV[3]) then
        local present = false
        for seat = 0, 1 do
            local holder = redis.call('GET', ARGV[1] .. 'here:' .. code .. ':' .. seat)
            if holder and holder ~= 'gone' and redis.call('EXISTS', ARGV[2] .. holder) == 1 then
                present = true
            end
        end
        if not present then idle[#idle + 1] = code end
    end
end
return idle
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

# KEYS: presence, watch. ARGV: node channel prefix, wake-up, writer (this node).
# The seat's connection is on this node now (no expiry: the node's heartbeat says it lives).
# The room's other nodes are woken only when the holder changed.
SET_PRESENCE = (
    WAKE
    + """
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[3] then return 0 end
redis.call('SET', KEYS[1], ARGV[3])
wake(KEYS[2], ARGV[1], ARGV[2], ARGV[3])
return 1
"""
)

# KEYS: presence, watch. ARGV: node channel prefix, wake-up, writer (this node), milliseconds.
# The key becomes 'gone' (a clean disconnect) rather than disappearing, so other nodes can tell
# a player who left from a presence that lapsed (a dead node, or one whose heartbeat came late).
CLEAR_PRESENCE = (
    WAKE
    + """
if redis.call('GET', KEYS[1]) ~= ARGV[3] then return 0 end
redis.call('SET', KEYS[1], 'gone', 'PX', ARGV[4])
wake(KEYS[2], ARGV[1], ARGV[2], ARGV[3])
return 1
"""
)

NO_MATCH = -1_000_000_000
VOIDED = -1_000_000_001
NOT_CURRENT = -1_000_000_002

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
    "wake_room": WAKE_ROOM,
    "save_agreement": SAVE_AGREEMENT,
    "room_state": ROOM_STATE,
    "idle_rooms": IDLE_ROOMS,
    "set_presence": SET_PRESENCE,
    "clear_presence": CLEAR_PRESENCE,
}
