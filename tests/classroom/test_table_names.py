"""T2/T11 names a class can read (``speculation_nb.classroom.names``): normalised, nothing
invisible, no look-alike of a name at the table, refused with the reason before anything is stored.

The nine look-alikes of "Alice" are the ones issue 27 saw accepted on a live table.
"""

from __future__ import annotations

import asyncio
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from loops import run_loop

from speculation_nb import Rules, Session
from speculation_nb.classroom.codes import new_request_id, new_token
from speculation_nb.classroom.errors import TableRefusal
from speculation_nb.classroom.member import Member
from speculation_nb.classroom.names import MAX_MEMBER_NAME, check_name, clean_name, name_keys, skeleton
from speculation_nb.classroom.referee import Referee, SessionHost
from speculation_nb.classroom.stores.base import MemoryStore
from speculation_nb.languages.translator import error_text, translator

#: Each looks like "Alice" on the projector: eight with an invisible character, one Cyrillic.
ALICE_LOOKALIKES = {
    "zero-width space": "Al\u200bice",
    "zero-width joiner": "Ali\u200dce",
    "word joiner": "A\u2060lice",
    "byte-order mark": "\ufeffAlice",
    "left-to-right mark": "Alice\u200e",
    "right-to-left mark": "\u200fAlice",
    "Arabic letter mark": "Al\u061cice",
    "soft hyphen": "Ali\u00adce",
    "Cyrillic A": "\u0410lice",
}


def refusal(name: object, taken: tuple[str, ...] = ()) -> TableRefusal:
    with pytest.raises(TableRefusal) as refused:
        check_name(name, taken)
    assert refused.value.rule == "T2"
    return refused.value


@pytest.mark.parametrize("name", ALICE_LOOKALIKES.values(), ids=ALICE_LOOKALIKES.keys())
def test_T2_every_lookalike_of_alice_is_refused_when_alice_sits(name: str) -> None:
    found = refusal(name, ("Alice",))
    assert found.key in ("table.name_invisible", "table.name_lookalike")
    if found.key == "table.name_invisible":
        hidden = next(ch for ch in name if not ch.isalpha())
        assert found.params == {"code": f"U+{ord(hidden):04X}"}, "the reason names the character"
    else:
        assert found.params == {"name": name, "other": "Alice"}


@pytest.mark.parametrize("name", ALICE_LOOKALIKES.values(), ids=ALICE_LOOKALIKES.keys())
def test_T2_lookalikes_are_refused_by_the_referee_before_anything_is_stored(name: str) -> None:
    """Through the table: the look-alike's join is refused with T2, the roster and the record keep
    only the real Alice, and the words come from the catalogs in every language."""
    store = MemoryStore()
    referee = Referee.open(store, SessionHost(Session(Rules(players=3), seed=5)))
    alice, fake = Member(store, referee.code), Member(store, referee.code)
    assert _join(alice, referee, "Alice").ok
    token = new_token()  # raw, as a record that skipped the kernel's own check (Member.post's)
    store.append(referee.code, "requests", {"kind": "join", "rid": new_request_id(), "reply": token, "name": name})
    referee.handle_pending()
    reply = fake.reply(token)
    assert reply is not None and (reply.ok, reply.rule) == (False, "T2")
    assert [m.name for m in referee.members()] == ["Alice"]
    record = store.get(referee.code, "record")
    assert record is not None and [m["name"] for m in record["members"]] == ["Alice"]
    for language in ("en", "it", "pt", "de"):
        words = error_text(reply, translator(language))
        assert words.startswith(("Rule T2", "Regola T2", "Regra T2", "Regel T2")) and "{" not in words, words


def _join(member: Member, referee: Referee, name: str):  # type: ignore[no-untyped-def]
    async def go():  # type: ignore[no-untyped-def]
        task = asyncio.ensure_future(member.join(name, None, timeout=10))
        while not task.done():
            referee.handle_pending()
            await asyncio.sleep(0.005)
        return task.result()

    return run_loop(go)


def test_T2_a_huge_name_is_refused_by_the_members_kernel_before_anything_is_stored() -> None:
    """Issue 27: a 3.9 MB name reached the store before the referee refused it. Now the member's
    kernel refuses it in words and posts nothing; the store refuses such a request anyway."""
    store = MemoryStore()
    referee = Referee.open(store, SessionHost(Session(Rules(players=3), seed=5)))
    member = Member(store, referee.code)

    async def go():  # type: ignore[no-untyped-def]
        return await member.join("x" * 3_900_000, None, timeout=1)

    reply = run_loop(go)
    assert (reply.ok, reply.rule, reply.key, dict(reply.params)) == (False, "T2", "table.name_long", {"limit": 24})
    assert store.read(referee.code, "requests") == [], "nothing was posted"


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("  Fanny  Price ", "Fanny Price"),
        ("\uff26\uff41\uff4e\uff4e\uff59", "Fanny"),  # full-width letters
        ("Fanny\u00a0Price", "Fanny Price"),  # a no-break space
        ("\ufb01ona", "fiona"),  # the ligature fi
        ("Cafe\u0301", "Café"),  # composed
        ("<b>Tom</b> & co", "<b>Tom</b> & co"),  # never escaped here (T11: the views do)
        ("Zoë 李 Ωmega", "Zoë 李 Ωmega"),
    ],
)
def test_T2_names_are_kept_normalised_nfkc_and_trimmed(typed: str, kept: str) -> None:
    assert clean_name(typed) == kept


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("Fan\nny", "table.name_control"),
        ("bell\x07", "table.name_control"),
        ("a\u2028b", "table.name_control"),
        ("ab\u202ecd", "table.name_invisible"),  # right-to-left override
        ("ab\u2066cd", "table.name_invisible"),  # an isolate
        ("Ann\ufe0f", "table.name_invisible"),  # a variation selector
        ("\u3164Ann", "table.name_invisible"),  # a Hangul filler
        ("Ann\U000e0041", "table.name_invisible"),  # a tag
        ("Ann\ue000", "table.name_invisible"),  # private use
        ("\u2800", "table.name_invisible"),  # the blank Braille pattern
        ("Z" + "\u0301\u0302\u0303\u0304", "table.name_marks"),
        ("x" * (MAX_MEMBER_NAME + 1), "table.name_long"),
        ("\ufdfa\ufdfa", "table.name_long"),  # two characters that NFKC makes 37
        ("\u200b", "table.name_invisible"),
        ("   ", "table.name_empty"),
    ],
)
def test_T2_a_name_with_anything_hidden_is_refused_with_the_reason(name: str, key: str) -> None:
    assert refusal(name).key == key


@pytest.mark.parametrize(
    ("name", "taken"),
    [("rnary", "mary"), ("Ian", "lan"), ("EDMUND", "edmund"), ("Εdmund", "Edmund"), ("Wi11iam", "William")],
)
def test_T2_names_with_one_skeleton_are_one_name(name: str, taken: str) -> None:
    assert refusal(name, (taken,)).key in ("table.name_taken", "table.name_lookalike")
    assert refusal(taken, (name,)).key in ("table.name_taken", "table.name_lookalike"), "either way round"


def test_T2_names_that_look_different_are_different() -> None:
    table = ("Alice", "Mary", "Tom", "Zoë", "Ωmega", "李")
    for name in ("Alicia", "Marie", "Tim", "Zoe", "Omega", "Ann", "Tomás"):
        assert check_name(name, table) == name
    assert skeleton("Alice") != skeleton("Alicia")


# --- properties ---------------------------------------------------------------------------

#: Characters refused wherever they stand in a name.
HIDDEN = st.sampled_from(
    ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u200e", "\u200f", "\u061c", "\u00ad", "\u202a", "\u2067"]
)
#: Latin letters and their look-alikes from other scripts (Cyrillic, Greek).
LOOKALIKE = {"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441", "A": "\u0391", "B": "\u0392"}
PLAIN = st.text(
    alphabet="abcdefghijkmnopqrstuvwxyzABCDEFGHJKMNPQRSTUVWXYZ ", min_size=1, max_size=MAX_MEMBER_NAME
).filter(lambda s: s.strip() != "")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_T2_any_text_is_refused_with_a_t2_reason_or_kept_clean(text: str) -> None:
    """Whatever a page sends: a T2 refusal, or a name that is NFKC, trimmed, short, with nothing
    invisible and no pile of marks, and that the rules keep as it is (idempotent)."""
    try:
        kept = clean_name(text)
    except TableRefusal as refused:
        assert refused.rule == "T2" and refused.key.startswith("table.name_")
        return
    assert kept == unicodedata.normalize("NFKC", kept) == kept.strip() and "  " not in kept
    assert 1 <= len(kept) <= MAX_MEMBER_NAME
    assert not any(unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cn", "Zl", "Zp") for ch in kept)
    assert clean_name(kept) == kept
    assert refusal(kept, (kept,)).key == "table.name_taken"


@settings(max_examples=200, deadline=None)
@given(PLAIN, HIDDEN, st.integers(min_value=0, max_value=MAX_MEMBER_NAME))
def test_T2_a_hidden_character_anywhere_is_refused(name: str, hidden: str, where: int) -> None:
    name = name.strip()
    where = min(where, len(name))
    assert refusal(name[:where] + hidden + name[where:]).key == "table.name_invisible"


@settings(max_examples=200, deadline=None)
@given(PLAIN, st.data())
def test_T2_swapping_letters_for_lookalikes_gives_the_same_name(name: str, data: st.DataObject) -> None:
    clean = clean_name(name)
    swapped = "".join(LOOKALIKE[ch] if ch in LOOKALIKE and data.draw(st.booleans()) else ch for ch in clean)
    assert name_keys(swapped) & name_keys(clean)
    assert refusal(swapped, (clean,)).key in ("table.name_taken", "table.name_lookalike")


def test_the_confusables_data_is_unicodes() -> None:
    """Sanity of the table recovered from confusable-homoglyphs: the prototypes of a few
    well-known lines of confusables.txt, and prototypes are never sources."""
    from speculation_nb.classroom.names import _prototypes

    table = _prototypes()
    assert len(table) > 6000
    assert table["\u0410"] == "A" and table["0"] == "O" and table["1"] == "l" and table["m"] == "rn"
    assert "l" not in table and "A" not in table
    assert not any(target in table for target in table.values())
