"""The connection classes a :class:`~server.cluster.redis_store.RedisStore` gives redis-py's pool:
redis-py's own, writing each command without a task of its own. Kept apart so that a redis-py
upgrade that changes its connection's insides breaks this file only."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError


class Connection(aioredis.Connection):
    """redis-py's connection, writing a command without a task of its own.

    redis-py bounds every write with ``asyncio.wait_for``, which on Python 3.11 runs the write in
    a new task: a task, a timer and an extra turn of the event loop per command. A write hands
    the command to the transport at once and waits only when the socket's buffer is full, so
    here it is written directly and the timeout is armed only if it has to wait (the same
    errors as redis-py's, the connection dropped on any of them).
    """

    async def send_packed_command(
        self, command: bytes | str | Iterable[bytes], check_health: bool = True
    ) -> None:
        if not self.is_connected:
            await self.connect_check_health(check_health=False)
        if check_health:
            await self.check_health()  # type: ignore[no-untyped-call]
        if isinstance(command, str):
            command = command.encode()
        if isinstance(command, bytes):
            command = [command]
        writer = self._writer
        assert writer is not None
        try:
            writer.writelines(command)
            if writer.transport.get_write_buffer_size() == 0:
                await writer.drain()  # all in the socket: raises only if the connection died
            else:
                async with asyncio.timeout(self.socket_timeout):
                    await writer.drain()
        except TimeoutError:
            await self.disconnect(nowait=True)
            raise RedisTimeoutError("Timeout writing to socket") from None
        except OSError as error:
            await self.disconnect(nowait=True)
            raise RedisConnectionError(f"Error while writing to socket: {error}") from error
        except BaseException:
            await self.disconnect(nowait=True)
            raise


class UnixConnection(aioredis.UnixDomainSocketConnection, Connection):
    """The same direct write on a Unix socket (a ``unix://`` URL): the socket's own connect,
    :class:`Connection`'s write."""
