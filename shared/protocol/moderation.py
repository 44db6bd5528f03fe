"""Moderation messages: players report, block and hide chat; moderators act and look.

A player may ``report`` another (from the table, a profile or a chat line), ``block`` one
(matchmaking never pairs them) or hide one's chat for themselves. A moderator or admin sends
``moderate`` (ban, unban, mute, unmute, void a rated result, force a rename, close a room,
remove a chat line, close a report) and ``moderation`` for the moderation view. What each
action does to a game in progress and to ratings is in docs/moderation.md.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from muggins.shared.protocol.accounts import AccountName, HistoryItem, MessageId

Reason = Annotated[str, Field(max_length=500)]


class _Message(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: MessageId = None


class _Part(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# --- client -> server ----------------------------------------------------------------------


class Report(_Message):
    """Report a player to the moderators, with a reason; from a table (``room``), a profile,
    or a chat line (``line``: its id, from the ``chat`` message)."""

    type: Literal["report"] = "report"
    name: AccountName = Field(description="the player reported, as shown")
    reason: Annotated[str, Field(min_length=1, max_length=500)]
    room: str | None = Field(default=None, max_length=12)
    game: str | None = Field(default=None, max_length=40)
    line: str | None = Field(default=None, max_length=40)


class Block(_Message):
    """For yourself: ``block`` (matchmaking never pairs you) or ``hide_chat`` (their chat is
    not sent to you); ``on`` false undoes it. Signed in, for a registered player."""

    type: Literal["block"] = "block"
    name: AccountName
    what: Literal["block", "hide_chat"] = "block"
    on: bool = True


ModerationAction = Literal[
    "ban",
    "unban",
    "mute",
    "unmute",
    "void",
    "rename",
    "close_room",
    "remove_line",
    "close_report",
]


class Moderate(_Message):
    """A moderator's action (moderators and admins only; everyone else gets ``not_allowed``)."""

    type: Literal["moderate"] = "moderate"
    action: ModerationAction
    name: AccountName | None = Field(
        default=None, description="the account (ban, unban, mute, unmute, rename)"
    )
    reason: Reason = ""
    minutes: int | None = Field(
        default=None, ge=1, le=10_000_000, description="how long (ban, mute); none: for good"
    )
    address: bool = Field(default=False, description="ban: the account's address too")
    new_name: AccountName | None = Field(default=None, description="rename: the new name")
    room: str | None = Field(default=None, max_length=12, description="close_room, remove_line")
    line: str | None = Field(default=None, max_length=40, description="remove_line: its id")
    game: str | None = Field(default=None, max_length=40, description="void: the game's id")
    report: str | None = Field(default=None, max_length=40, description="close_report: its id")


class GetModeration(_Message):
    """The moderation view (moderators and admins); with ``name``, that account's too."""

    type: Literal["moderation"] = "moderation"
    name: AccountName | None = None


MODERATION_REQUESTS = (Report, Block, Moderate, GetModeration)
ModerationRequest = Report | Block | Moderate | GetModeration


# --- server -> client ----------------------------------------------------------------------


class Moderated(_Message):
    """The answer to ``report``, ``block`` and ``moderate``: what was done, in a sentence."""

    type: Literal["moderated"] = "moderated"
    action: str
    text: str


class Sanctioned(_Message):
    """You are banned or muted: why and until when (Unix time; none: for good)."""

    type: Literal["sanctioned"] = "sanctioned"
    kind: Literal["ban", "mute"]
    reason: str
    until: float | None
    text: str


class KeptChatLine(_Part):
    id: str
    room: str
    at: float
    sender: str
    text: str


class ReportItem(_Part):
    id: str
    at: float
    by: str
    name: str
    reason: str
    room: str | None
    game: str | None
    line: KeptChatLine | None
    chat: tuple[KeptChatLine, ...] = Field(description="the room's kept chat around the report")


class SanctionItem(_Part):
    kind: Literal["ban", "mute"]
    name: str
    reason: str
    by: str
    at: float
    until: float | None
    address: bool


class RoomItem(_Part):
    code: str
    names: tuple[str, str]
    status: str
    rated: bool


class LogItem(_Part):
    at: float
    by: str
    action: str
    target: str
    reason: str


class AccountItem(_Part):
    """One account as a moderator sees it."""

    name: str
    role: str | None
    games: tuple[HistoryItem, ...]
    chat: tuple[KeptChatLine, ...]
    reports: tuple[ReportItem, ...]
    sanctions: tuple[SanctionItem, ...]


class ModerationView(_Message):
    type: Literal["moderation"] = "moderation"
    reports: tuple[ReportItem, ...] = Field(description="open reports, oldest first")
    sanctions: tuple[SanctionItem, ...] = Field(description="bans and mutes in force, newest first")
    rooms: tuple[RoomItem, ...] = Field(description="rooms live on this node")
    online: tuple[str, ...] = Field(description="players online on this node")
    log: tuple[LogItem, ...] = Field(description="the moderation log, newest first")
    account: AccountItem | None = None


ModerationReply = Moderated | Sanctioned | ModerationView
