"""The Lua scripts the referee's Redis user runs (:mod:`.redis_store`): each changes a table at once.

A script runs whole or not at all, and with the rights of the user who runs it (a student may run
none: the ``student`` ACL user has no ``EVALSHA``). Redis 7 logs a script's *effects* in its
append-only file and to replicas (wrapped in ``MULTI``/``EXEC``), not the script itself: a replay
does the same writes, with the numbers the script chose.

Every key of a table expires at one instant: the ``meta`` key's (``PEXPIRETIME``), which
:data:`CREATE` and :data:`TOUCH` set ``ttl`` milliseconds from the server's clock (``TIME``).

The ``inbox`` is the only key a student's kernel writes: a list that always starts with
:data:`SENTINEL`, so that ``RPUSHX`` (push only to a list that exists) adds a request to a live
table's inbox and can never make a key, and :data:`TAKE_IN` moves the requests behind the sentinel
into the ``requests`` stream, numbered ``0-1``, ``0-2``, ... by the referee alone.
"""

from __future__ import annotations

__all__ = ["CREATE", "PUT", "SENTINEL", "TAKE_IN", "TOUCH", "WIPE"]

#: The first item of every inbox (never a request: not a JSON object).
SENTINEL = "inbox"

# KEYS: meta, requests, events, moment, record, keys, inbox. ARGV: meta JSON, ttl in ms, sentinel.
CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7])
local now = redis.call('TIME')
local at = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) + tonumber(ARGV[2])
for i = 2, 3 do
  redis.call('XGROUP', 'CREATE', KEYS[i], 'new', '$', 'MKSTREAM')
  redis.call('XGROUP', 'DESTROY', KEYS[i], 'new')
  redis.call('PEXPIREAT', KEYS[i], at)
end
redis.call('RPUSH', KEYS[7], ARGV[3])
redis.call('PEXPIREAT', KEYS[7], at)
redis.call('SET', KEYS[1], ARGV[1], 'PXAT', at)
return 1
"""

# KEYS: meta, the key, keys. ARGV: the record's JSON, the key's name.
PUT = """
local at = redis.call('PEXPIRETIME', KEYS[1])
if at < 0 then return redis.error_reply('NOTABLE no such table') end
redis.call('SET', KEYS[2], ARGV[1], 'PXAT', at)
if ARGV[2] ~= 'meta' then
  redis.call('SADD', KEYS[3], ARGV[2])
  redis.call('PEXPIREAT', KEYS[3], at)
end
return 1
"""

# KEYS: meta, requests, events, keys, inbox. ARGV: ttl in ms, the prefix of the table's keys.
TOUCH = """
if redis.call('EXISTS', KEYS[1]) == 0 then return redis.error_reply('NOTABLE no such table') end
local now = redis.call('TIME')
local at = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) + tonumber(ARGV[1])
for i = 1, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 then redis.call('PEXPIREAT', KEYS[i], at) end
end
for _, name in ipairs(redis.call('SMEMBERS', KEYS[4])) do
  redis.call('PEXPIREAT', ARGV[2] .. name, at)
end
return 1
"""

# KEYS: meta, requests, events, keys, inbox. ARGV: the prefix of the table's keys.
WIPE = """
for _, name in ipairs(redis.call('SMEMBERS', KEYS[4])) do redis.call('DEL', ARGV[1] .. name) end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5])
return 1
"""

# KEYS: inbox, requests, meta. ARGV: the longest request in bytes, the most to take, the sentinel.
# Returns {taken in, dropped as too long}. Nothing is lost between the inbox and the stream: one
# script does both. A too-long request is dropped here, unread (the referee logs how many).
TAKE_IN = """
local at = redis.call('PEXPIRETIME', KEYS[3])
if at < 0 then return {0, 0} end
local length = redis.call('LLEN', KEYS[1])
local first = 0
if length > 0 and redis.call('LINDEX', KEYS[1], 0) == ARGV[3] then first = 1 end
local count = math.min(length - first, tonumber(ARGV[2]))
if count <= 0 then return {0, 0} end
local items = redis.call('LRANGE', KEYS[1], first, first + count - 1)
redis.call('LTRIM', KEYS[1], first + count, -1)
redis.call('LPUSH', KEYS[1], ARGV[3])
redis.call('PEXPIREAT', KEYS[1], at)
local taken, dropped = 0, 0
for _, item in ipairs(items) do
  if string.len(item) <= tonumber(ARGV[1]) then
    redis.call('XADD', KEYS[2], '0-*', 'r', item)
    taken = taken + 1
  else
    dropped = dropped + 1
  end
end
if taken > 0 then redis.call('PEXPIREAT', KEYS[2], at) end
return {taken, dropped}
"""
