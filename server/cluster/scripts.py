"""The Lua scripts of the Redis store: each write is one script, so it is atomic.

Every script that changes a room also wakes, in the same step, the nodes that watch the room
(the members of its ``watch`` set, each on its own channel), except the node that wrote, and
keeps the room's entry in the listing index (``rooms:listed``, ``rooms:summary``) true: see
:data:`RELIST`.
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

# Defines live(node, alive, channels): whether node ``node`` runs. Its heartbeat (alive .. node)
# must live, and its wake-up channel (channels .. node) must have a subscriber: a node whose
# process ended (killed, crashed) has had its connections closed, so it is seen dead at once,
# while a node that merely stalls keeps its subscription and counts until its heartbeat lapses.
# Defines present(key, alive, channels): the presence key names a node that runs.
PRESENT = """
local function live(node, alive, channels)
    if redis.call('EXISTS', alive .. node) == 0 then return false end
    return redis.call('PUBSUB', 'NUMSUB', channels .. node)[2] > 0
end
local function present(key, alive, channels)
    local holder = redis.call('GET', key)
    return holder and holder ~= 'gone' and live(holder, alive, channels)
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

# KEYS: room, open-set, watch, listed, summary, then one player key per seated person. ARGV (the
# key prefix last, for the retired codes, see FORGET_MATCH):
# options, created, seats, code, the creating node (which watches the room from the start).
CREATE_ROOM = (
    RELIST
    + """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local retired = ARGV[6] .. 'retired:' .. string.sub(redis.sha1hex(ARGV[4]), 1, 2)
if redis.call('HEXISTS', retired, ARGV[4]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'options', ARGV[1], 'created', ARGV[2], 'seats', ARGV[3],
           'closed', '0', 'match', '0', 'status', 'waiting')
redis.call('SADD', KEYS[2], ARGV[4])
if ARGV[5] ~= '' then redis.call('SADD', KEYS[3], ARGV[5]) end
for i = 6, #KEYS do redis.call('SET', KEYS[i], ARGV[4]) end
relist(KEYS[1], KEYS[4], KEYS[5], ARGV[4])
return 1
"""
)

# KEYS: room, watch, listed, summary, vacant, then one player key per seated person. ARGV: node
# channel prefix, wake-up, writer, seats, code, expected seats ('' to write whatever is there),
# now. A change of seats ends the room's vacancy (see CLOSE_VACANT).
SAVE_SEATS = (
    WAKE
    + RELIST
    + """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[6] ~= '' and redis.call('HGET', KEYS[1], 'seats') ~= ARGV[6] then return -1 end
redis.call('HSET', KEYS[1], 'seats', ARGV[4], 'touched', ARGV[7])
for i = 6, #KEYS do redis.call('SET', KEYS[i], ARGV[5]) end
redis.call('HDEL', KEYS[5], ARGV[5])
relist(KEYS[1], KEYS[3], KEYS[4], ARGV[5])
wake(KEYS[2], ARGV[1], ARGV[2], ARGV[3])
return 1
"""
)

# KEYS: room, match, watch, listed, summary, unsettled. ARGV: node channel prefix, wake-up, writer,
# number, seed, options, names, started, code.
START_MATCH = (
    WAKE
    + RELIST
    + """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('HSET', KEYS[2], 'seed', ARGV[5], 'options', ARGV[6], 'names', ARGV[7],
           'started', ARGV[8])
redis.call('ZADD', KEYS[6], ARGV[8], ARGV[9] .. '-' .. ARGV[4])
if tonumber(redis.call('HGET', KEYS[1], 'match') or '0') < tonumber(ARGV[4]) then
    redis.call('HSET', KEYS[1], 'match', ARGV[4], 'status', 'playing')
    relist(KEYS[1], KEYS[4], KEYS[5], ARGV[9])
end
wake(KEYS[3], ARGV[1], ARGV[2], ARGV[3])
return 1
"""
)

# KEYS: match, log, room, voided, watch. ARGV: node channel prefix, writer, index, entry, now,
# key, attempt, match number, the room's code as a JSON string.
# Returns the new log length; -1 - length when the log is not at the expected index; the
# expected length when the entry there is this very entry, key included (the same move again:
# idempotent); VOIDED when CONFIRM_ACTION has voided this attempt (it timed out and was reported
# unsaved); NOT_CURRENT when the room has moved on to another match.
# The wake-up carries the entry, so the nodes that watch the room apply it without a read; it is
# written here, and only when another node watches the room (most moves wake nobody: a room's
# players are routed to its owner).
APPEND_ACTION = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1000000000 end
if redis.call('SISMEMBER', KEYS[4], ARGV[7]) == 1 then return -1000000001 end
local index = tonumber(ARGV[3])
local length = redis.call('LLEN', KEYS[2])
if length ~= index then
    if ARGV[6] ~= '' and length > index and redis.call('LINDEX', KEYS[2], index) == ARGV[4] then
        return index + 1
    end
    return -1 - length
end
if redis.call('HGET', KEYS[3], 'match') ~= ARGV[8] then return -1000000002 end
length = redis.call('RPUSH', KEYS[2], ARGV[4])
redis.call('HSET', KEYS[3], 'touched', ARGV[5])
local message = false
for _, node in ipairs(redis.call('SMEMBERS', KEYS[5])) do
    if node ~= ARGV[2] then
        if not message then
            message = '{"kind":"action","room":' .. ARGV[9] .. ',"number":' .. ARGV[8]
                .. ',"index":' .. ARGV[3] .. ',"entry":' .. ARGV[4] .. '}'
        end
        redis.call('PUBLISH', ARGV[1] .. node, message)
    end
end
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

# KEYS: match, finished-set, watch, room, listed, summary. ARGV: node channel prefix, wake-up,
# writer, finished, result, winner, member, number, code.
# The first finish recorded stands (any node that sees the match over records it, in case the
# node that applied its last move died first): a second is answered 1 and changes nothing.
FINISH_MATCH = (
    WAKE
    + RELIST
    + """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('HEXISTS', KEYS[1], 'finished') == 1 then return 1 end
redis.call('HSET', KEYS[1], 'finished', ARGV[4], 'result', ARGV[5], 'winner', ARGV[6])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[7])
if redis.call('HGET', KEYS[4], 'match') == ARGV[8] then
    redis.call('HSET', KEYS[4], 'status', 'over')
    relist(KEYS[4], KEYS[5], KEYS[6], ARGV[9])
end
wake(KEYS[3], ARGV[1], ARGV[2], ARGV[3])
return 1
"""
)

# A seat changed hands: KEYS[1] the match; ARGV the field (handover:SEAT:AT) and its JSON.
# Kept once (HSETNX); 0 when there is no such match.
HAND_OVER = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2])
return 1
"""

# Defines close(KEYS, code): the end of CLOSE_ROOM and CLOSE_VACANT, whose KEYS are room,
# open-set, watch, presence of seat 0 and 1, listed, summary, vacant, and whose ARGV start with
# the node channel prefix, the wake-up and the writer. The room's watchers are woken, then the
# watch set and presence are forgotten.
CLOSE = """
local function close(code)
    redis.call('HSET', KEYS[1], 'closed', '1')
    redis.call('SREM', KEYS[2], code)
    redis.call('HDEL', KEYS[8], code)
    relist(KEYS[1], KEYS[6], KEYS[7], code)
    wake(KEYS[3], ARGV[1], ARGV[2], ARGV[3])
    redis.call('DEL', KEYS[3], KEYS[4], KEYS[5])
end
"""

# KEYS: see CLOSE. ARGV: node channel prefix, wake-up, writer, code.
CLOSE_ROOM = (
    WAKE
    + RELIST
    + CLOSE
    + """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
close(ARGV[4])
return 1
"""
)

# KEYS: see CLOSE. ARGV: node channel prefix, wake-up, writer, code, since, grace (seconds),
# node heartbeat prefix.
# Closes a waiting room (no match started) that has been vacant (nobody connected for it on any
# live node) since ``since``, if that is still so and ``grace`` has passed since, by Redis's
# clock: 1 if closed; 0 if not yet; -1 if it is no longer vacant (its vacancy is forgotten).
CLOSE_VACANT = (
    WAKE
    + RELIST
    + PRESENT
    + CLOSE
    + """
local code = ARGV[4]
local since = redis.call('HGET', KEYS[8], code)
if since ~= ARGV[5] then return -1 end
local f = redis.call('HMGET', KEYS[1], 'closed', 'match')
local taken = not f[1] or f[1] == '1' or (f[2] or '0') ~= '0'
if present(KEYS[4], ARGV[7], ARGV[1]) or present(KEYS[5], ARGV[7], ARGV[1]) then
    taken = true
end
if taken then
    redis.call('HDEL', KEYS[8], code)
    return -1
end
local now = redis.call('TIME')
if tonumber(now[1]) + tonumber(now[2]) / 1000000 - tonumber(since) < tonumber(ARGV[6]) then
    return 0
end
close(code)
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

# KEYS: room, watch. ARGV: node channel prefix, wake-up, writer, agreement, the agreement the
# writer last read ('' for none). Compare-and-set: two nodes writing rematch wishes at once must
# not lose one (the room would wait for ever); -1 when the stored agreement changed meanwhile.
SAVE_AGREEMENT = (
    WAKE
    + """
if (redis.call('HGET', KEYS[1], 'agreement') or '') ~= ARGV[5] then return -1 end
redis.call('HSET', KEYS[1], 'agreement', ARGV[4])
wake(KEYS[2], ARGV[1], ARGV[2], ARGV[3])
return 1
"""
)

# KEYS: room, presence of seat 0 and 1. ARGV: node heartbeat prefix, node channel prefix.
# What a catch-up checks: seats, closed, match number, agreement, then per seat the node that
# holds its connection (or 'gone'), whether that node runs (1, see live()) or not (0), and
# whether its wake-up channel has a subscriber (1) or not (0: its process has ended).
ROOM_STATE = """
local fields = redis.call('HMGET', KEYS[1], 'seats', 'closed', 'match', 'agreement')
local result = {fields[1], fields[2], fields[3], fields[4]}
for i = 2, 3 do
    local holder = redis.call('GET', KEYS[i])
    result[#result + 1] = holder
    local alive, subscribed = 0, 0
    if holder and holder ~= 'gone' then
        if redis.call('PUBSUB', 'NUMSUB', ARGV[2] .. holder)[2] > 0 then subscribed = 1 end
        if subscribed == 1 and redis.call('EXISTS', ARGV[1] .. holder) == 1 then alive = 1 end
    end
    result[#result + 1] = alive
    result[#result + 1] = subscribed
end
return result
"""

# KEYS: open-set, vacant. ARGV: key prefix, node heartbeat prefix, since (wall clock), node
# channel prefix, cursor, count.
# One step of the sweep over the open rooms ``SSCAN`` returns from ``cursor`` (about ``count``):
# returns {next cursor ('0' when the pass is over), idle, vacant}, so a pass over many rooms never
# holds Redis long. ``idle``: open rooms with no write since ``since`` and no seat held by a live
# node. ``vacant``: waiting rooms (no match started) with no seat held by a live node, flattened
# as code, since when (Redis's clock, noted here the first time the room is seen so); a waiting
# room seen occupied has its vacancy forgotten.
SWEEP_ROOMS = (
    PRESENT
    + """
local now = redis.call('TIME')
local stamp = now[1] .. '.' .. string.format('%06d', tonumber(now[2]))
local idle, vacant = {}, {}
local scan = redis.call('SSCAN', KEYS[1], ARGV[5], 'COUNT', ARGV[6])
for _, code in ipairs(scan[2]) do
    local room = ARGV[1] .. 'room:' .. code
    local f = redis.call('HMGET', room, 'touched', 'created', 'match')
    local last = tonumber(f[1] or f[2] or '0') or 0
    local here = ARGV[1] .. 'here:' .. code .. ':'
    local waiting = (f[3] or '0') == '0'
    local occupied = nil  -- asked of Redis only for a room it decides: most were just written
    if last < tonumber(ARGV[3]) or waiting then
        occupied = present(here .. '0', ARGV[2], ARGV[4])
            or present(here .. '1', ARGV[2], ARGV[4])
    end
    if last < tonumber(ARGV[3]) and not occupied then
        idle[#idle + 1] = code
    elseif waiting then
        if occupied then
            redis.call('HDEL', KEYS[2], code)
        else
            redis.call('HSETNX', KEYS[2], code, stamp)
            vacant[#vacant + 1] = code
            vacant[#vacant + 1] = redis.call('HGET', KEYS[2], code)
        end
    end
end
return {scan[1], idle, vacant}
"""
)

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

# KEYS: owner, room. ARGV: this node, milliseconds, node channel prefix, node address prefix,
# '1' when the room must be stored already (a connection names it; a room being made is not yet),
# node heartbeat prefix.
# A room's owner lease: kept by its holder while the holder runs (see live(): its heartbeat lives
# and its process is subscribed to its channel), so it lapses with the holder's heartbeat, not on
# a clock of its own (the key's expiry only clears leases of rooms long gone); else this node
# takes it. Returns {owner, the owner's address or false}; {false, false} for a room that is not
# stored.
OWN_ROOM = (
    PRESENT
    + """
if ARGV[5] == '1' and redis.call('EXISTS', KEYS[2]) == 0 then return {false, false} end
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] and live(holder, ARGV[6], ARGV[3]) then
    return {holder, redis.call('GET', ARGV[4] .. holder)}
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return {ARGV[1], false}
"""
)

# KEYS: the owner leases of a node's rooms. ARGV: this node, milliseconds.
# Renews each lease this node still holds (one another node took over is left alone).
RENEW_OWNED = """
for _, key in ipairs(KEYS) do
    if redis.call('GET', key) == ARGV[1] then redis.call('PEXPIRE', key, ARGV[2]) end
end
return #KEYS
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

# KEYS: match, log, voided, finished, unsettled, room. ARGV: match id, match number, player key
# prefix, room code, key prefix. A match moved to PostgreSQL leaves Redis; when it is the last
# match of a closed room, the room leaves too, with its owner lease and the players' keys that
# still name it, and its code is noted as retired (never given out again, so match ids stay
# unique): a field in one of 256 small hashes ``retired:XX`` (XX from the code's SHA-1), a dozen
# bytes a room.
FORGET_MATCH = """
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
redis.call('ZREM', KEYS[4], ARGV[1])
redis.call('ZREM', KEYS[5], ARGV[1])
local f = redis.call('HMGET', KEYS[6], 'closed', 'match', 'seats')
if f[1] == '1' and f[2] == ARGV[2] and f[3] then
    for _, seat in ipairs(cjson.decode(f[3])) do
        local player = seat['player']
        if type(player) == 'string' and player ~= '' then
            local key = ARGV[3] .. player
            if redis.call('GET', key) == ARGV[4] then redis.call('DEL', key) end
        end
    end
    redis.call('DEL', KEYS[6], ARGV[5] .. 'owner:' .. ARGV[4])
    local retired = ARGV[5] .. 'retired:' .. string.sub(redis.sha1hex(ARGV[4]), 1, 2)
    redis.call('HSET', retired, ARGV[4], ARGV[2])
end
return 1
"""

NO_MATCH = -1_000_000_000
VOIDED = -1_000_000_001
NOT_CURRENT = -1_000_000_002

SCRIPTS = {
    "forget_match": FORGET_MATCH,
    "create_room": CREATE_ROOM,
    "save_seats": SAVE_SEATS,
    "start_match": START_MATCH,
    "append_action": APPEND_ACTION,
    "confirm_action": CONFIRM_ACTION,
    "finish_match": FINISH_MATCH,
    "hand_over": HAND_OVER,
    "close_room": CLOSE_ROOM,
    "close_vacant": CLOSE_VACANT,
    "relist_room": RELIST_ROOM,
    "claim": CLAIM,
    "release": RELEASE,
    "own_room": OWN_ROOM,
    "renew_owned": RENEW_OWNED,
    "wake_room": WAKE_ROOM,
    "save_agreement": SAVE_AGREEMENT,
    "room_state": ROOM_STATE,
    "sweep_rooms": SWEEP_ROOMS,
    "set_presence": SET_PRESENCE,
    "clear_presence": CLEAR_PRESENCE,
}
