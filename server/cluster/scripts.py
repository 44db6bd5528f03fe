"""The Lua scripts of the Redis store: each write is one script, so it is atomic.

Every script that changes a room also publishes a wake-up on the room's channel in the same step,
and keeps the room's entry in the listing index (``rooms:listed``, ``rooms:summary``) true: see
:data:`RELIST`.
"""

from __future__ import annotations

# Defines relist(room, listed, summary, code): put the room where the lobby lists it now. The
# sorted set ``listed`` holds "o:CODE" (a seat is open) or "w:CODE" (full, may be watched), all
# at score 0, so a page is a ZRANGEBYLEX; the hash ``summary`` holds what a listing shows of
# the room: JSON (status, open_seat, names), a newline, then the room's options as stored.
# Private, closed and unwatchable full rooms are in neither.
RELIST = """
local function relist(room, listed, summary, code)
    redis.call('ZREM', listed, 'o:' .. code, 'w:' .. code)
    local f = redis.call('HMGET', room, 'options', 'seats', 'closed', 'status', 'match')
    if not f[1] or not f[2] or f[3] == '1' then
        redis.call('HDEL', summary, code)
        return
    end
    local options = cjson.decode(f[1])
    local names, open = {}, false
    for i, seat in ipairs(cjson.decode(f[2])) do
        if seat['kind'] == 'empty' then open = true end
        names[i] = seat['name']
    end
    local section = false
    if options['private'] ~= true then
        if open then section = 'o' elseif options['spectators'] ~= false then section = 'w' end
    end
    if not section then
        redis.call('HDEL', summary, code)
        return
    end
    local status = f[4]
    if not status then
        if (f[5] or '0') == '0' then status = 'waiting' else status = 'playing' end
    end
    redis.call('ZADD', listed, 0, section .. ':' .. code)
    local shown = cjson.encode({status = status, open_seat = open, names = names})
    redis.call('HSET', summary, code, shown .. '\\n' .. f[1])
end
"""

# KEYS: room, listed, summary. ARGV: code. (Indexes a room written before the index existed.)
RELIST_ROOM = (
    RELIST
    + """
relist(KEYS[1], KEYS[2], KEYS[3], ARGV[1])
return 1
"""
)

# KEYS: room, open-set, listed, summary, then one player key per seated person. ARGV: options,
# created, seats, code.
CREATE_ROOM = (
    RELIST
    + """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'options', ARGV[1], 'created', ARGV[2], 'seats', ARGV[3],
           'closed', '0', 'match', '0', 'status', 'waiting')
redis.call('SADD', KEYS[2], ARGV[4])
for i = 5, #KEYS do redis.call('SET', KEYS[i], ARGV[4]) end
relist(KEYS[1], KEYS[3], KEYS[4], ARGV[4])
return 1
"""
)

# KEYS: room, listed, summary, vacant, then one player key per seated person. ARGV: seats,
# channel, wake-up, code, expected seats ('' to write whatever is there), now. A change of seats
# ends the room's vacancy (see CLOSE_VACANT).
SAVE_SEATS = (
    RELIST
    + """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[5] ~= '' and redis.call('HGET', KEYS[1], 'seats') ~= ARGV[5] then return -1 end
redis.call('HSET', KEYS[1], 'seats', ARGV[1], 'touched', ARGV[6])
for i = 5, #KEYS do redis.call('SET', KEYS[i], ARGV[4]) end
redis.call('HDEL', KEYS[4], ARGV[4])
relist(KEYS[1], KEYS[2], KEYS[3], ARGV[4])
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 1
"""
)

# KEYS: room, match, listed, summary. ARGV: number, seed, options, names, started, channel,
# wake-up, code.
START_MATCH = (
    RELIST
    + """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('HSET', KEYS[2], 'seed', ARGV[2], 'options', ARGV[3], 'names', ARGV[4],
           'started', ARGV[5])
if tonumber(redis.call('HGET', KEYS[1], 'match') or '0') < tonumber(ARGV[1]) then
    redis.call('HSET', KEYS[1], 'match', ARGV[1], 'status', 'playing')
    relist(KEYS[1], KEYS[3], KEYS[4], ARGV[8])
end
redis.call('PUBLISH', ARGV[6], ARGV[7])
return 1
"""
)

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

# KEYS: match, finished-set, room, listed, summary. ARGV: finished, result, winner, member,
# channel, wake-up, number, code.
FINISH_MATCH = (
    RELIST
    + """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'finished', ARGV[1], 'result', ARGV[2], 'winner', ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[1], ARGV[4])
if redis.call('HGET', KEYS[3], 'match') == ARGV[7] then
    redis.call('HSET', KEYS[3], 'status', 'over')
    relist(KEYS[3], KEYS[4], KEYS[5], ARGV[8])
end
redis.call('PUBLISH', ARGV[5], ARGV[6])
return 1
"""
)

# KEYS: room, open-set, listed, summary, vacant. ARGV: code, channel, wake-up.
CLOSE_ROOM = (
    RELIST
    + """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'closed', '1')
redis.call('SREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[5], ARGV[1])
relist(KEYS[1], KEYS[3], KEYS[4], ARGV[1])
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 1
"""
)

# KEYS: room, open-set, listed, summary, vacant, presence of seat 0, presence of seat 1.
# ARGV: code, channel, wake-up, since, grace (seconds).
# Closes a waiting room (no match started) that has been vacant (nobody connected for it on any
# node) since ``since``, if that is still so and ``grace`` has passed since, by Redis's clock:
# 1 if closed; 0 if not yet; -1 if it is no longer vacant (its vacancy is forgotten).
CLOSE_VACANT = (
    RELIST
    + """
local since = redis.call('HGET', KEYS[5], ARGV[1])
if since ~= ARGV[4] then return -1 end
local f = redis.call('HMGET', KEYS[1], 'closed', 'match')
local taken = not f[1] or f[1] == '1' or (f[2] or '0') ~= '0'
for i = 6, 7 do
    local holder = redis.call('GET', KEYS[i])
    if holder and holder ~= 'gone' then taken = true end
end
if taken then
    redis.call('HDEL', KEYS[5], ARGV[1])
    return -1
end
local now = redis.call('TIME')
if tonumber(now[1]) + tonumber(now[2]) / 1000000 - tonumber(since) < tonumber(ARGV[5]) then
    return 0
end
redis.call('HSET', KEYS[1], 'closed', '1')
redis.call('SREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[5], ARGV[1])
relist(KEYS[1], KEYS[3], KEYS[4], ARGV[1])
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 1
"""
)

# KEYS: vacant. ARGV: pairs of code and whether it is vacant now ('1' or '0').
# Notes since when (Redis's clock) each room seen vacant has been so; forgets the others.
# Returns the vacant rooms' codes and since-times, flattened.
MARK_VACANT = """
local now = redis.call('TIME')
local stamp = now[1] .. '.' .. string.format('%06d', tonumber(now[2]))
local found = {}
for i = 1, #ARGV, 2 do
    local code = ARGV[i]
    if ARGV[i + 1] == '1' then
        redis.call('HSETNX', KEYS[1], code, stamp)
        found[#found + 1] = code
        found[#found + 1] = redis.call('HGET', KEYS[1], code)
    else
        redis.call('HDEL', KEYS[1], code)
    end
end
return found
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
    "close_vacant": CLOSE_VACANT,
    "mark_vacant": MARK_VACANT,
    "relist_room": RELIST_ROOM,
    "claim": CLAIM,
    "release": RELEASE,
    "clear_presence": CLEAR_PRESENCE,
    "renew_presence": RENEW_PRESENCE,
}
