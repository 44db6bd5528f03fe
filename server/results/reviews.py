"""The reviewer: what each signed-in player gave away in a finished match, for their record.

When a match is settled the store queues its review (see :mod:`server.store.accounts`). A
:class:`Reviewer` claims queued reviews, replays each match in a worker process with the
engine's reviewer (:func:`~muggins.shared.bots.review.review_match`, as ``muggins review`` uses
it: every decision of a seat set against the expert's, the expert seeing only what that seat
saw), and adds to each account's record:

- ``reviewed_deals``: the deals the seat played (a discard each) in reviewed matches;
- ``given_away_discard_milli``, ``given_away_play_milli``: the expected points its discards and
  its plays gave away against the expert's choices, in thousandths of a point.

The review takes a few tenths of a second of CPU per seat and game, so it never runs on the
event loop: ``muggins serve --review-workers N`` runs N worker processes (0: none; the reviews
stay queued in the store for a server that has some). Each review counts once whatever happens:
the store records it atomically with taking it off the queue, and a claim held by a server that
died runs out after :data:`~server.store.accounts.REVIEW_LEASE` seconds, when any server (any
node of a cluster) takes it again. After a restart the queue is where it was.

A worker process watches its parent: if the server dies, even by SIGKILL, the worker ends
within a second instead of living on as an orphan.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from muggins.server.store.accounts import PendingReview, Stats
from muggins.server.store.games import Store, StoreError, parse_match_id
from muggins.shared.actions import Action, GameOptions, Seat

log = logging.getLogger("muggins.reviews")

POLL_SECONDS = 1.0
"""How often an idle reviewer looks for queued reviews."""
PARENT_CHECK_SECONDS = 0.5


def review_stats(
    options: GameOptions,
    seed: bytes,
    actions: Sequence[tuple[Seat, Action]],
    seats: tuple[bool, bool],
) -> tuple[Stats, Stats]:
    """Each seat's review counters for a finished match (empty for a seat not asked for)."""
    from muggins.shared.bots.review import review_match

    stats: tuple[Stats, Stats] = ({}, {})
    for seat in (0, 1):
        if not seats[seat]:
            continue
        review = review_match(options, seed, actions, seat)
        deals = {(m.game, m.deal) for m in review.moments if m.kind == "discard"}
        stats[seat].update(
            reviewed_deals=len(deals),
            given_away_discard_milli=round(1000 * review.loss("discard")),
            given_away_play_milli=round(1000 * review.loss("play")),
        )
    return stats


def _warm_up() -> int:
    """Start a worker and load the reviewer (and the expert's tables) before the first review."""
    import muggins.shared.bots.review  # noqa: F401

    return os.getpid()


def _watch_parent(parent: int) -> None:
    """In a worker: end this process as soon as the server that started it is gone."""

    def watch() -> None:
        while True:
            time.sleep(PARENT_CHECK_SECONDS)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


class Reviewer:
    """Claims queued reviews from the store and runs them in ``workers`` processes."""

    def __init__(self, store: Store, workers: int, *, poll: float = POLL_SECONDS) -> None:
        self.store = store
        self.workers = workers
        self.poll = poll
        self.done = 0
        """Reviews this reviewer recorded (a figure for tests and benches)."""
        self._pool: ProcessPoolExecutor | None = None
        self._task: asyncio.Task[None] | None = None
        self._busy: set[str] = set()

    def start(self) -> None:
        if self.workers <= 0:
            return
        self._pool = self._new_pool()
        for _ in range(self.workers):
            self._pool.submit(_warm_up)
        self._task = asyncio.get_running_loop().create_task(self._run())

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_watch_parent,
            initargs=(os.getpid(),),
        )

    def worker_pids(self) -> list[int]:
        processes = getattr(self._pool, "_processes", None) or {}
        return [int(pid) for pid in processes]

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._pool is not None:
            pool, self._pool = self._pool, None
            processes = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:  # a review under way is simply done again later
                with contextlib.suppress(Exception):
                    process.terminate()

    async def _run(self) -> None:
        running: set[asyncio.Task[None]] = set()
        while True:
            free = self.workers - len(running)
            claimed: list[PendingReview] = []
            if free > 0:
                try:
                    claimed = await self.store.claim_reviews(limit=free, now=time.time())
                except StoreError as error:
                    log.warning("could not claim reviews: %s", error)
            started = 0
            for pending in claimed:
                if pending.match in self._busy:
                    continue
                self._busy.add(pending.match)
                task = asyncio.get_running_loop().create_task(self._review(pending))
                running.add(task)
                task.add_done_callback(running.discard)
                started += 1
            if started and len(running) < self.workers:
                continue  # the queue may hold more
            if running:
                await asyncio.wait(running, timeout=self.poll, return_when=asyncio.FIRST_COMPLETED)
            else:
                await asyncio.sleep(self.poll)

    async def _review(self, pending: PendingReview) -> None:
        try:
            code, number = parse_match_id(pending.match)
            record = await self.store.load_match(code, number)
            if record is None or record.finished is None:
                # Nothing to review (the match was forgotten): take it off the queue.
                await self.store.record_review(pending.match, ({}, {}))
                return
            seats = (pending.accounts[0] is not None, pending.accounts[1] is not None)
            stats = await self._in_worker(record.options, record.seed, record.actions, seats)
            if await self.store.record_review(pending.match, stats):
                self.done += 1
                log.info("match reviewed", extra={"match": pending.match})
        except StoreError as error:
            log.warning("review of %s not recorded: %s", pending.match, error)
        except Exception:
            log.exception("review of %s failed", pending.match)
        finally:
            self._busy.discard(pending.match)

    async def _in_worker(
        self,
        options: GameOptions,
        seed: bytes,
        actions: Sequence[tuple[Seat, Action]],
        seats: tuple[bool, bool],
    ) -> tuple[Stats, Stats]:
        for attempt in (1, 2):
            pool = self._pool
            assert pool is not None
            try:
                future: Future[tuple[Stats, Stats]] = pool.submit(
                    review_stats, options, seed, tuple(actions), seats
                )
                return await asyncio.wrap_future(future)
            except BrokenProcessPool:
                if attempt == 2 or self._pool is None:
                    raise
                if self._pool is pool:  # a worker died (killed, out of memory): start afresh
                    log.warning("a review worker died; starting new ones")
                    self._pool = self._new_pool()
        raise AssertionError("unreachable")
