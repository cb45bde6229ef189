"""The table's record (T10): what the referee keeps in the store to resume after a reload (T9),
and the export it gives the teacher.

The record holds the session, the moment shown, the members and seats, the polls, who did each
action, the referee's cursor and the desk's memory, and only a hash of the host secret; the
session, which holds every deal's cards and seed, and the question deals (their cards too) are
sealed with the host secret (:mod:`.sealed`: a kernel that can read the store, an SQLite file,
learns no face-down card). The
export is for the teacher: the session and the seed that replays it (never the class's while the
table is open), who did each action, the members with their names and the polls with their
answers (and the same answers as CSV, :mod:`.answers`), and no secret or hash.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ..engine.session import Session
from ..languages.translator import translator
from .answers import answers_csv
from .codes import read_code, same_secret, secret_hash, show_code
from .errors import TableRefusal
from .poll import Poll
from .questions import QuestionDeal
from .restore import StoreWatch
from .sealed import seal, unseal
from .stores.base import TableStore

if TYPE_CHECKING:
    from .referee import Referee
    from .teacher_game import Host

__all__ = [
    "RECORD_FORMAT",
    "kept_referee",
    "restore_record",
    "table_export",
    "table_meta",
    "table_record",
    "wipe_kept_table",
]

RECORD_FORMAT = "speculation_nb.table"


def table_record(referee: Referee) -> dict[str, Any]:
    """The record of ``referee``'s table, as the store keeps it under ``"record"``."""
    return {
        "format": RECORD_FORMAT,
        "version": 1,
        "code": referee.code,
        "host": secret_hash(referee.host_secret),
        "epoch": referee.epoch,
        "session": seal(referee.host.session.to_dict(), referee.host_secret),  # the cards: sealed
        "moment": referee.host.moment,
        **referee.roster.to_dict(),
        "paused": referee.paused,
        "polls": [p.to_dict() for p in referee.polls],
        "questions": seal([q.to_dict() for q in referee.questions], referee.host_secret),  # their cards: sealed
        "question": None if referee.question is None else referee.question.id,
        "actions": referee.ledger.actions(),
        "earlier": referee.ledger.earlier,
        "cursor": referee.cursor,
        **referee.desk.to_dict(),
        "published": referee.version,
    }


def table_meta(referee: Referee) -> dict[str, Any]:
    """What a joining kernel reads (``"meta"``): the seats, who may sit, the referee's epoch (T12)."""
    session = referee.host.session
    seats = referee.seats()
    return {
        "players": session.rules.players,
        "names": session.names,
        "seats": [{"kind": s.kind, "members": list(s.members)} for s in seats],
        "free": [s.seat for s in seats if s.kind == "free" or (referee.roster.teams and s.kind == "people")],
        "teams": referee.teams,
        "referee": referee.epoch,
    } | ({} if referee.restored is None else {"restored": referee.restored.meta()})


def kept_referee(
    cls: type[Referee], store: TableStore, code: str, host_secret: str, make_host: Callable[[Session], Host], **kw: Any
) -> Referee:
    """A referee of table ``code`` made from its record in ``store`` (T9: :meth:`.Referee.resume`,
    which then saves and publishes); T1 if the table is gone, T9 if the host secret is not its."""
    code = read_code(code)
    record, meta = store.get(code, "record"), store.get(code, "meta")
    if record is None or meta is None:
        raise TableRefusal("T1", "table.no_table", {"code": show_code(code)})
    if not same_secret(host_secret, record.get("host")):
        raise TableRefusal("T9", "table.bad_host_secret")
    try:
        stored = record["session"]  # sealed (a record from before issue 27: plain)
        plain = unseal(stored, host_secret) if isinstance(stored, dict) and "sealed" in stored else stored
        session = Session.from_json(json.dumps(plain))
        host = make_host(session)
        kw.setdefault("max_joins", record["max_joins"])
        kw.setdefault("teams", record["teams"])
        referee = cls(store, host, code=code, **kw)
        referee.host_secret = host_secret  # (it unseals the question deals)
        restore_record(referee, record)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise ValueError(f"the table's record cannot be read: {error}") from None
    referee.host_secret = host_secret
    referee.watch = StoreWatch(store.last(code, "events"))
    referee.epoch = max(int(meta.get("referee", 0)), int(record.get("epoch", 0))) + 1
    host.set_computers(frozenset(referee.roster.computers))
    return referee


def restore_record(referee: Referee, record: Mapping[str, Any]) -> None:
    """Bring ``referee`` (made for the record's session) back to ``record``; a ``ValueError``
    (or ``KeyError``, ``TypeError``) if it is not a table's record."""
    if record.get("format") != RECORD_FORMAT:
        raise ValueError("not a table's record")
    referee.roster.restore(record)
    referee.paused = bool(record["paused"])
    referee.polls = [Poll.from_dict(p) for p in record["polls"]]
    kept = record.get("questions", [])  # sealed (a record from before: plain)
    kept = unseal(kept, referee.host_secret) if isinstance(kept, dict) else kept
    referee.questions = [QuestionDeal.from_dict(q) for q in kept]
    shown = record.get("question")
    referee.question = next((q for q in referee.questions if q.id == shown), None)
    referee.ledger.restore(record["actions"], record["earlier"], referee.host.session)
    referee.cursor = int(record["cursor"])
    referee.desk.restore(record)
    referee.version = int(record["published"])


def table_export(referee: Referee) -> dict[str, Any]:
    """T10: the table's record for the teacher (see the module docstring)."""
    session = referee.host.session
    referee.ledger.attribute(session, referee.roster.computers)
    export = {
        "format": RECORD_FORMAT + ".export",
        "version": 1,
        "code": referee.code,
        "seed": session.seed,
        "session": session.to_dict(),
        "actions": referee.ledger.actions(),
        "earlier": list(referee.ledger.earlier),
        "members": [
            {"id": m.id, "name": m.name, "seat": m.seat, "joined_at": m.joined_at, "left": m.left}
            for m in referee.roster.members.values()
        ],
        "joins": referee.roster.joins,
        "polls": [p.to_dict() for p in referee.polls],
        "questions": [q.to_dict() for q in referee.questions],
    }
    # the answers as the teacher takes them home (one CSV row per answer, names included, English)
    return export | {"answers_csv": answers_csv(export, translator("en"), named=True)}


def wipe_kept_table(store: TableStore, code: str, host_secret: str) -> bool:
    """T9/T10: wipe table ``code`` from the store with its host secret, without refereeing it
    (a table kept from before a reload, when the teacher opens a new one instead); its students
    are told it closed. False if it is gone already or the secret is not its."""
    code = read_code(code)
    record = store.get(code, "record")
    if record is None or not same_secret(host_secret, record.get("host")):
        return False
    store.wipe(code)
    return True
