"""The table's record (T10): what the referee keeps in the store to resume after a reload (T9),
and the export it gives the teacher.

The record holds the session, the moment shown, the members and seats, the polls, who did each
action, the referee's cursor and the desk's memory, and only a hash of the host secret. The
export is for the teacher: the session and the seed that replays it (never the class's while the
table is open), who did each action, the members with their names and the polls with their
answers (and the same answers as CSV, :mod:`.answers`), and no secret or hash.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..languages.translator import translator
from .answers import answers_csv
from .codes import read_code, same_secret, secret_hash
from .poll import Poll
from .stores.base import TableStore

if TYPE_CHECKING:
    from .referee import Referee

__all__ = ["RECORD_FORMAT", "restore_record", "table_export", "table_record", "wipe_kept_table"]

RECORD_FORMAT = "speculation_nb.table"


def table_record(referee: Referee) -> dict[str, Any]:
    """The record of ``referee``'s table, as the store keeps it under ``"record"``."""
    return {
        "format": RECORD_FORMAT,
        "version": 1,
        "code": referee.code,
        "host": secret_hash(referee.host_secret),
        "epoch": referee.epoch,
        "session": referee.host.session.to_dict(),
        "moment": referee.host.moment,
        **referee.roster.to_dict(),
        "paused": referee.paused,
        "polls": [p.to_dict() for p in referee.polls],
        "actions": referee.ledger.actions(),
        "earlier": referee.ledger.earlier,
        "cursor": referee.cursor,
        **referee.desk.to_dict(),
        "published": referee.version,
    }


def restore_record(referee: Referee, record: Mapping[str, Any]) -> None:
    """Bring ``referee`` (made for the record's session) back to ``record``; a ``ValueError``
    (or ``KeyError``, ``TypeError``) if it is not a table's record."""
    if record.get("format") != RECORD_FORMAT:
        raise ValueError("not a table's record")
    referee.roster.restore(record)
    referee.paused = bool(record["paused"])
    referee.polls = [Poll.from_dict(p) for p in record["polls"]]
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
