"""The referee of a shared table and its members (docs/TABLE.md, rules T2-T12), in one process
with a MemoryStore: whole deals through Member and Referee, forged requests, retries, the rate
limit, names, pauses, the teacher's powers, resuming, and a property: the referee's game is
always the replay of the actions it accepted, each one by a member entitled to it."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from loops import run_loop

from speculation_nb import Game, Rules, Session
from speculation_nb.classroom import (
    Host,
    Member,
    MemoryStore,
    Referee,
    Reply,
    SessionHost,
    StoreError,
    TableRefusal,
    show_code,
)
from speculation_nb.classroom.codes import new_request_id, new_token
from speculation_nb.classroom.seating import MAX_MEMBER_NAME
from speculation_nb.engine.actions import Action
from speculation_nb.languages.translator import error_text, translator


class Clock:
    """A clock that moves only when told (T5 without sleeping)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def fresh(players: int = 3, seed: int = 1) -> Session:
    """A session whose first deal is not over at once (no Ace turned up, S5)."""
    return next(s for s in (Session(Rules(players=players), seed=x) for x in range(seed, seed + 60)) if not s.game.over)


def table(players: int = 3, seed: int = 1, **kw):
    store = MemoryStore()
    session = fresh(players, seed)
    host = SessionHost(session)
    referee = Referee.open(store, host, clock=kw.pop("clock", Clock()), **kw)
    return store, session, host, referee


def ask(who: Member, referee: Referee, kind: str, **fields) -> Reply:
    """One request handled at once (the synchronous way: post, handle, read the reply)."""
    token = who.post(kind, **fields)
    referee.handle_pending()
    answer = who.reply(token)
    assert answer is not None
    return answer


def raw_join(store, referee: Referee, name, seat) -> Reply:
    """A join record written to the store as it is, without the kernel's own check of the name
    (:meth:`Member.post` checks it): what the referee must check again."""
    token = new_token()
    store.append(
        referee.code, "requests", {"kind": "join", "rid": new_request_id(), "reply": token, "name": name, "seat": seat}
    )
    referee.handle_pending()
    answer = Member(store, referee.code).reply(token)
    assert answer is not None
    return answer


def seated(store, referee, names_seats):
    members = []
    for name, seat in names_seats:
        m = Member(store, referee.code)
        assert ask(m, referee, "join", name=name, seat=seat).ok
        members.append(m)
    return members


def act(member: Member, referee: Referee, action: Action, seat: int | None = None) -> Reply:
    return ask(member, referee, "act", seat=member.seat if seat is None else seat, action=action.to_dict())


# --------------------------------------------------------------------------- whole deals
def test_T2_T3_a_whole_deal_played_by_three_members_and_a_spectator():
    store, session, _host, referee = table(3, seed=4)
    seen_events: list[dict] = []

    async def main() -> None:
        serving = asyncio.create_task(referee.serve(0.05))
        names = ["Fanny", "Edmund", "Mary"]
        members = [Member(store, show_code(referee.code).lower()) for _ in names]
        for seat, (m, name) in enumerate(zip(members, names)):
            joined = await m.join(name, seat)
            assert joined.ok and m.seat == seat and m.token and "secret" not in joined.data
        watcher = Member(store, referee.code)
        assert (await watcher.join("Lady Bertram", None)).ok and watcher.seat is None
        refused = await watcher.act(Action.make("reveal", seat=session.game.turn))
        assert (refused.rule, refused.key) == ("T3", "table.spectator")
        while not session.game.over:
            moment = watcher.latest()
            assert moment is not None and moment.due.reveal is not None
            due = moment.due.reveal
            assert (await members[due].act(Action.make("reveal", seat=due))).ok
            seen_events.extend(await watcher.updates(timeout=0.01))
        seen_events.extend(await watcher.updates(timeout=0.01))
        referee.close()
        await serving

    run_loop(main)
    final = Member(store, referee.code).latest()
    assert final is not None and final.over and final.winner == session.game.winner
    assert final.step == len(session.game.history) and final.version == referee.version
    assert [e["moment"]["version"] for e in seen_events if e["kind"] == "moment"] == sorted(
        {e["moment"]["version"] for e in seen_events if e["kind"] == "moment"}
    )
    export = referee.export()
    who = [a["who"] for a in export["actions"]]
    assert len(who) == len(session.game.history) and set(who) <= {"Fanny", "Edmund", "Mary"}
    assert all(a["seat"] == a["action"]["seat"] for a in export["actions"])


def test_P2_T3_an_auction_between_two_members_with_the_holder_accepting():
    store, session, _host, referee = table(3, seed=2)
    game = session.game
    game.reveal()  # the teacher turns up the first card: the auction is not P1's
    referee.publish()
    holder = game.holder
    others = [s for s in range(3) if s != holder]
    members = dict(zip(range(3), seated(store, referee, [("Fanny", 0), ("Edmund", 1), ("Mary", 2)])))
    hold, low, high = members[holder], members[others[0]], members[others[1]]
    assert act(hold, referee, Action.make("open_auction")).ok
    assert act(low, referee, Action.make("bid", seat=others[0], amount=3)).ok
    assert act(high, referee, Action.make("bid", seat=others[1], amount=5)).ok
    before = game.to_json()
    refused = act(low, referee, Action.make("accept", seat=others[1]))
    assert (refused.rule, refused.key, refused.params) == ("T3", "table.not_holder", {"holder": holder})
    assert game.to_json() == before
    stacks = game.stacks
    assert act(hold, referee, Action.make("accept", seat=others[1])).ok
    assert game.holder == others[1] and game.auction is None
    assert game.stacks[holder] == stacks[holder] + 5 and game.stacks[others[1]] == stacks[others[1]] - 5
    moment = hold.latest()
    assert moment is not None and moment.holder == others[1]
    who = {a["index"]: a["who"] for a in referee.export()["actions"]}
    names = ["Fanny", "Edmund", "Mary"]
    assert who == {0: "teacher", 1: names[holder], 2: names[others[0]], 3: names[others[1]], 4: names[holder]}


# --------------------------------------------------------------------------- T3 forged requests
def test_T3_a_forged_request_is_refused_and_changes_nothing():
    store, session, _host, referee = table(3, seed=2)
    a, b, w = seated(store, referee, [("Fanny", 0), ("Edmund", 1), ("Mary", None)])
    game = session.game
    due = game.turn
    before, version = game.to_json(), referee.version

    forged = Member(store, referee.code)
    forged.member, forged._secret = a.member, "not-the-secret"  # someone who knows Fanny's id
    cases = [
        (ask(forged, referee, "act", seat=0, action={"action": "reveal", "seat": 0}), "T3", "table.bad_secret"),
        (
            ask(Member(store, referee.code), referee, "act", seat=0, action={"action": "decline"}),
            "T3",
            "table.not_member",
        ),
        (act(a, referee, Action.make("reveal", seat=1), seat=1), "T3", "table.not_your_seat"),
        (act(a, referee, Action.make("reveal", seat=1)), "T3", "table.not_your_seat"),
        (act(b, referee, Action.make("bid", seat=0, amount=3)), "T3", "table.not_your_seat"),
        (act(w, referee, Action.make("reveal", seat=due), seat=0), "T3", "table.spectator"),
        (act(b if game.holder != 1 else a, referee, Action.make("open_auction")), "T3", "table.not_holder"),
        (act(a, referee, Action.make("blind_trade", buyer=0, seller=1, count=1, price=1)), "T3", "table.teacher_only"),
        (ask(a, referee, "act", seat=0, action={"action": "fly"}), "T3", "table.bad_action"),
        (ask(a, referee, "act", seat=True, action={"action": "decline"}), "T3", "table.not_your_seat"),
        (ask(a, referee, "dance"), "T3", "table.bad_request"),
        (ask(a, referee, "act", rid="no", seat=0, action={"action": "decline"}), "T6", "table.bad_request_id"),
    ]
    for reply, rule, key in cases:
        assert (reply.ok, reply.rule, reply.key) == (False, rule, key), reply
        assert error_text(reply, translator("en")).startswith(f"Rule {rule}: ")
    assert game.to_json() == before and referee.version == version
    # A request without a reply token cannot be answered: it is dropped, and changes nothing.
    store.append(referee.code, "requests", {"kind": "act", "rid": "abcdefgh", "reply": "short", "member": a.member})
    assert referee.handle_pending() == 1
    assert store.get(referee.code, "reply:short") is None and game.to_json() == before


def test_T3_an_engine_refusal_carries_the_engines_rule_key_and_params():
    store, session, _host, referee = table(3, seed=2)
    members = seated(store, referee, [("Fanny", 0), ("Edmund", 1), ("Mary", 2)])
    game = session.game
    not_due = next(s for s in range(3) if s != game.turn and s != game.holder)
    before = game.to_json()
    reply = act(members[not_due], referee, Action.make("reveal", seat=not_due))
    assert not reply.ok and reply.rule == "P3" and reply.params.get("seat") == not_due
    assert error_text(reply, translator("it"), ["Fanny", "Edmund", "Mary"]).startswith("Regola P3: ")
    assert game.to_json() == before


# --------------------------------------------------------------------------- T6, T5
def test_T6_a_retry_with_the_same_id_gets_the_first_reply_and_is_applied_once():
    store, session, _host, referee = table(3, seed=2)
    members = seated(store, referee, [("Fanny", 0), ("Edmund", 1), ("Mary", 2)])
    due = session.game.turn
    m = members[due]
    fields = {"seat": due, "action": Action.make("reveal", seat=due).to_dict()}
    first = m.post("act", rid="retry-0001", **fields)
    again = m.post("act", rid="retry-0001", reply=first, **fields)
    elsewhere = m.post("act", rid="retry-0001", **fields)
    referee.handle_pending()
    assert len(session.game.history) == 1
    assert m.reply(first) == m.reply(again) == m.reply(elsewhere) and m.reply(first).ok
    fresh_kernel = Member(store, referee.code)
    token = fresh_kernel.post("join", rid="join-0001", name="Julia", seat=None)
    fresh_kernel.post("join", rid="join-0001", reply=token, name="Julia", seat=None)
    referee.handle_pending()
    assert [i.name for i in referee.members()].count("Julia") == 1 and fresh_kernel.reply(token).ok


def test_T5_ten_requests_at_once_then_four_a_second():
    clock = Clock()
    store, _session, _host, referee = table(3, seed=2, clock=clock)
    (m,) = seated(store, referee, [("Fanny", None)])
    poll = referee.ask()
    answers = [ask(m, referee, "answer", poll=poll.id, price=k) for k in range(12)]
    assert [a.ok for a in answers] == [True] * 10 + [False] * 2
    assert (answers[-1].rule, answers[-1].key) == ("T5", "table.rate")
    assert poll.answers[m.member] == 9  # the refused ones changed nothing
    clock.now += 0.25
    assert ask(m, referee, "answer", poll=poll.id, price=20).ok
    assert not ask(m, referee, "answer", poll=poll.id, price=21).ok
    clock.now += 10
    assert all(ask(m, referee, "answer", poll=poll.id, price=k).ok for k in range(10))


# --------------------------------------------------------------------------- T2 joining
def test_T2_the_members_at_a_table_are_capped_and_one_who_left_frees_a_place():
    """Issue 27: the cap counts who holds a seat or watches, not every join ever made (a page
    joining and leaving could otherwise lock the class out)."""
    store, _session, _host, referee = table(3, seed=2, max_joins=3)
    members = seated(store, referee, [("A", None), ("B", None), ("C", None)])
    late = Member(store, referee.code)
    reply = ask(late, referee, "join", name="D", seat=None)
    assert (reply.rule, reply.key, reply.params) == ("T2", "table.joins_full", {"limit": 3})
    assert ask(members[0], referee, "leave").ok
    assert ask(Member(store, referee.code), referee, "join", name="D", seat=None).ok


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("", "table.name_empty"),
        ("   ", "table.name_empty"),
        (None, "table.name_empty"),
        (42, "table.name_empty"),
        ("x" * (MAX_MEMBER_NAME + 1), "table.name_long"),
        ("Fan\nny", "table.name_control"),
        ("bell\x07", "table.name_control"),
        ("ab\u202ecd", "table.name_invisible"),
        ("FANNY", "table.name_taken"),
        (" fanny ", "table.name_taken"),
    ],
)
def test_T2_a_name_is_refused_with_the_reason(name, key):
    store, _session, _host, referee = table(3, seed=2)
    seated(store, referee, [("Fanny", 0)])
    joins = len(referee.members())
    reply = raw_join(store, referee, name, None)  # the referee checks again whatever arrives
    assert (reply.ok, reply.rule, reply.key) == (False, "T2", key)
    assert len(referee.members()) == joins


def test_T2_T11_a_name_is_stored_as_given_trimmed_and_length_checked_then_escaped_where_shown():
    store, _session, _host, referee = table(3, seed=2)
    given = "  <b>Tom</b> & co  "
    (m,) = seated(store, referee, [(given, 1)])
    assert referee.members()[0].name == given.strip() and m.name == given.strip()
    assert referee.seats()[1].members == (given.strip(),)
    assert m.latest().names[1] == given.strip()
    assert "&lt;b&gt;Tom&lt;/b&gt; &amp; co" in translator("en").html("log.reveal", name=m.name, card="Q")
    assert seated(store, referee, [("y" * MAX_MEMBER_NAME, None)])


def test_T2_a_seat_must_exist_and_be_free():
    store, _session, _host, referee = table(3, seed=2)
    seated(store, referee, [("Fanny", 0)])
    for seat, key in ((0, "table.seat_taken"), (3, "table.no_seat"), (-1, "table.no_seat"), ("1", "table.no_seat")):
        reply = ask(Member(store, referee.code), referee, "join", name=f"N{seat}", seat=seat)
        assert (reply.rule, reply.key) == ("T2", key)
    referee.seat_computer(2)
    reply = ask(Member(store, referee.code), referee, "join", name="Julia", seat=2)
    assert reply.key == "table.seat_taken"


def test_T1_T9_the_link_names_the_code_only_and_the_meta_tells_the_free_seats():
    store, _, host, referee = table(3, seed=2)
    link = referee.link("https://example.org/app/?lang=it&table=OLD")
    assert link == f"https://example.org/app/?lang=it&table={show_code(referee.code)}"
    assert referee.host_secret not in link and isinstance(host, Host)
    m = Member(store, referee.code)
    assert m.meta["free"] == [0, 1, 2] and m.meta["players"] == 3
    seated(store, referee, [("Fanny", 1)])
    assert m.refresh()["free"] == [0, 2]


def test_T1_a_member_of_no_table_is_refused():
    with pytest.raises(TableRefusal) as info:
        Member(MemoryStore(), "ABCDE-FGHJK")
    assert (info.value.rule, info.value.key) == ("T1", "table.no_table")


# --------------------------------------------------------------------------- T4, T9
def test_T4_while_paused_or_looking_back_actions_are_refused_but_answers_are_not():
    store, session, host, referee = table(3, seed=2)
    members = seated(store, referee, [("Fanny", 0), ("Edmund", 1), ("Mary", 2)])
    game = session.game
    due = game.turn
    poll = referee.ask()
    referee.pause()
    assert members[0].latest().paused
    reply = act(members[due], referee, Action.make("reveal", seat=due))
    assert (reply.rule, reply.key) == ("T4", "table.paused") and not game.history
    assert ask(members[0], referee, "answer", poll=poll.id, price=4).ok
    referee.resume_play()
    assert act(members[due], referee, Action.make("reveal", seat=due)).ok
    host.go(0)
    referee.publish()
    shown = members[0].latest()
    assert not shown.live and shown.step == 0 and shown.last == 1
    due = game.turn
    reply = act(members[due], referee, Action.make("reveal", seat=due))
    assert (reply.rule, reply.key) == ("T4", "table.replay") and len(game.history) == 1
    host.go(None)
    assert act(members[due], referee, Action.make("reveal", seat=due)).ok


def test_T9_the_teacher_takes_over_a_seat_and_gives_it_back():
    store, session, host, referee = table(3, seed=2)
    members = seated(store, referee, [("Fanny", 0), ("Edmund", 1), ("Mary", 2)])
    due = session.game.turn
    referee.take_over(due)
    assert members[0].latest().seats[due].kind == "teacher"
    reply = act(members[due], referee, Action.make("reveal", seat=due))
    assert (reply.rule, reply.key, reply.params) == ("T3", "table.seat_teacher", {"seat": due})
    host.act(due, Action.make("reveal", seat=due))  # the teacher plays it in the app
    referee.publish()
    referee.give_back(due)
    due = session.game.turn
    assert act(members[due], referee, Action.make("reveal", seat=due)).ok
    assert [a["who"] for a in referee.export()["actions"]] == ["teacher", ["Fanny", "Edmund", "Mary"][due]]


def test_T9_a_computer_seat_plays_by_the_play_loop_and_refuses_members():
    store, session, host, referee = table(3, seed=3)
    members = seated(store, referee, [("Fanny", 0), ("Edmund", 1)])
    with pytest.raises(TableRefusal) as info:
        referee.seat_computer(0)
    assert (info.value.rule, info.value.key) == ("T2", "table.seat_has_members")
    referee.seat_computer(2)
    assert members[0].latest().seats[2].kind == "computer"
    game = session.game
    while not game.over:
        due = game.turn
        assert due in (0, 1)  # the computer turns its own cards up at once
        assert act(members[due], referee, Action.make("reveal", seat=due)).ok
    actions = referee.export()["actions"]
    assert any(a["seat"] == 2 for a in actions)  # the computer turned up its cards
    assert all((a["who"] == "computer") == (a["seat"] == 2) for a in actions)
    referee.place(members[0].member, 2)  # the teacher moves Fanny there: the computer stops
    assert referee.seats()[2].kind == "people" and host.computers == frozenset()


class FlakyStore(MemoryStore):
    """A store that fails while ``down`` (a Redis server restarting, say)."""

    down = False

    def put(self, code, key, record):
        if self.down:
            raise StoreError("the store is down")
        super().put(code, key, record)


def test_a_store_failure_never_reaches_the_teachers_page_and_the_next_change_publishes():
    store = FlakyStore()
    session = fresh(3, 2)
    host = SessionHost(session)
    referee = Referee.open(store, host, clock=Clock())
    version = referee.version
    store.down = True
    host.act(None, Action.make("reveal", seat=session.game.turn))
    assert referee.publish() is False and referee.trouble == "the store is down"
    referee.pause()  # the teacher's steps go on
    store.down = False
    referee.resume_play()
    assert referee.trouble is None and referee.version == version + 1
    assert Member(store, referee.code).latest().step == 1


class EagerHost(SessionHost):
    """A host like the app's controller: computer moves wait until a person acts, then go first."""

    def set_computers(self, seats: frozenset[int]) -> None:
        self.later = frozenset(seats)

    def act(self, seat, action) -> None:
        game = self.session.game
        while game.auction is None and not game.over and game.turn in self.later:
            game.reveal()
        super().act(seat, action)


def test_T10_a_members_action_is_credited_even_when_computer_moves_go_first():
    for seed in range(1, 80):
        session = fresh(3, seed)
        game = session.game
        if game.holder != 0 or game.turn != 1:
            continue
        store = MemoryStore()
        referee = Referee.open(store, EagerHost(session), clock=Clock())
        (edmund,) = seated(store, referee, [("Edmund", 1)])
        referee.seat_computer(2)
        assert act(edmund, referee, Action.make("reveal", seat=1)).ok  # index 0
        if game.turn != 2:
            continue
        if not act(edmund, referee, Action.make("reveal", seat=1)).ok:  # seat 2 first (index 1), then 1
            continue
        who = [(a["index"], a["who"], a["seat"]) for a in referee.export()["actions"]]
        assert who == [(0, "Edmund", 1), (1, "computer", 2), (2, "Edmund", 1)]
        return
    pytest.fail("no deal of the kind looked for")


def test_T2_T9_teams_share_a_seat_and_the_first_valid_request_wins():
    store, session, _host, referee = table(3, seed=2, teams=True)
    game = session.game
    due = game.turn
    first, second = seated(store, referee, [("Fanny", due), ("Edmund", due)])
    assert referee.seats()[due].members == ("Fanny", "Edmund")
    action = Action.make("reveal", seat=due).to_dict()
    t1 = first.post("act", seat=due, action=action)
    t2 = second.post("act", seat=due, action=action)
    referee.handle_pending()
    one, two = first.reply(t1), second.reply(t2)
    assert one.ok and not two.ok and two.rule.startswith("P")  # the engine refuses the second
    assert len(game.history) == 1
    assert referee.export()["actions"][0]["who"] == "Fanny"
    store2, _, _, solo = table(3, seed=2)
    seated(store2, solo, [("Fanny", 0)])
    assert ask(Member(store2, solo.code), solo, "join", name="Edmund", seat=0).key == "table.seat_taken"
    (late,) = seated(store2, solo, [("Edmund", None)])
    solo.place(late.member, 0)
    assert solo.seats()[0].members == ("Fanny", "Edmund")
    late.latest()
    assert late.seat == 0


# --------------------------------------------------------------------------- T10, T8, T12
def test_T10_the_export_tells_who_did_what_and_wipe_removes_the_table():
    store, session, host, referee = table(3, seed=2)
    members = seated(store, referee, [("Fanny", 0), ("Edmund", 1), ("Mary", 2)])
    game = session.game
    due = game.turn
    act(members[due], referee, Action.make("reveal", seat=due))
    host.act(None, Action.make("reveal", seat=game.turn))
    referee.publish()
    poll = referee.ask()
    ask(members[1], referee, "answer", poll=poll.id, price=7)
    text = referee.export_json()
    data = json.loads(text)
    assert [a["who"] for a in data["actions"]] == [["Fanny", "Edmund", "Mary"][due], "teacher"]
    assert {m["name"] for m in data["members"]} == {"Fanny", "Edmund", "Mary"}
    assert data["polls"][0]["answers"] == {members[1].member: 7}
    assert Session.from_json(json.dumps(data["session"])).game.to_json() == game.to_json()
    assert "secret" not in text and "hash" not in text and members[0].token not in text
    referee.wipe()
    assert not store.exists(referee.code) and referee.stopped == "closed"

    got: list = []

    async def main() -> None:
        got.extend(await members[0].updates(timeout=0.01))

    run_loop(main)
    assert got == [{"kind": "closed"}]
    with pytest.raises(TableRefusal) as info:
        Member(store, referee.code)
    assert info.value.rule == "T1"
    with pytest.raises(TableRefusal) as info:
        referee.pause()
    assert info.value.rule == "T12"


def test_T8_T9_resume_after_a_referee_restart_members_keep_their_seats_and_rejoin():
    store, session, _host, referee = table(3, seed=2)
    members = seated(store, referee, [("Fanny", 0), ("Edmund", 1), ("Mary", 2)])
    due = session.game.turn
    assert act(members[due], referee, Action.make("reveal", seat=due)).ok
    referee.pause()
    waiting = members[1].post("answer", poll=1, price=3)  # posted while no referee runs
    with pytest.raises(TableRefusal) as info:
        Referee.resume(store, referee.code, "wrong", SessionHost)
    assert (info.value.rule, info.value.key) == ("T9", "table.bad_host_secret")

    again = Referee.resume(store, referee.code, referee.host_secret, SessionHost, clock=Clock())
    assert [(m.name, m.seat) for m in again.members()] == [("Fanny", 0), ("Edmund", 1), ("Mary", 2)]
    assert again.paused and again.host.session.game.to_json() == session.game.to_json()
    again.handle_pending()
    assert members[1].reply(waiting).key == "table.no_poll"
    again.resume_play()

    reloaded = Member(store, referee.code)  # Fanny's page reloaded: a new kernel with the token
    back = run_rejoin(reloaded, members[0].member, members[0].token, again)
    assert back.ok and reloaded.seat == 0 and "secret" not in back.data
    game = again.host.session.game
    due = game.turn
    if due == 0:
        stale = act(members[0], again, Action.make("reveal", seat=0))
        assert (stale.rule, stale.key) == ("T3", "table.bad_secret")
        assert act(reloaded, again, Action.make("reveal", seat=0)).ok
    else:
        assert act(members[due], again, Action.make("reveal", seat=due)).ok
        stale = ask(members[0], again, "answer", poll=1, price=1)
        assert (stale.rule, stale.key) == ("T3", "table.bad_secret")
    bad = ask(Member(store, referee.code), again, "rejoin", member=members[1].member, token="x" * 43)
    assert (bad.rule, bad.key) == ("T8", "table.bad_token")

    # T12: the first referee sees the newer epoch and stops, saying so
    assert referee.handle_pending() == 0 and referee.stopped == "superseded"
    version = again.version
    referee.publish()
    assert Member(store, referee.code).latest().version == version
    with pytest.raises(TableRefusal) as info:
        referee.take_over(0)
    assert (info.value.rule, info.value.key) == ("T12", "table.superseded")


def test_T12_a_serving_referee_stops_when_a_second_referee_resumes_the_table():
    store, _, _, first = table(3, seed=2)
    (fanny,) = seated(store, first, [("Fanny", 0)])
    stopped: list[str | None] = []
    first.observe(lambda: stopped.append(first.stopped))
    out: dict = {}

    async def main() -> None:
        serving = asyncio.create_task(first.serve(0.05))
        await asyncio.sleep(0)
        out["second"] = Referee.resume(store, first.code, first.host_secret, SessionHost)
        await asyncio.wait_for(serving, timeout=60)  # the first sees the newer epoch and returns
        serving = asyncio.create_task(out["second"].serve(0.05))
        out["reply"] = await fanny.answer(3)
        out["second"].close()
        await serving

    run_loop(main)
    assert first.stopped == "superseded" and "superseded" in stopped
    assert (out["reply"].rule, out["reply"].key) == ("T7", "table.no_poll")  # the second referee answered
    assert store.get(first.code, "meta")["referee"] == out["second"].epoch == first.epoch + 1
    # A late write of the first referee's meta (it was saving as the second took over): the newest wins.
    store.put(first.code, "meta", {**store.get(first.code, "meta"), "referee": first.epoch})
    out["second"].handle_pending()
    assert store.get(first.code, "meta")["referee"] == out["second"].epoch and out["second"].stopped is None


def run_rejoin(member: Member, member_id: str, token: str, referee: Referee) -> Reply:
    """A rejoin while the referee serves (the async way)."""
    out: list[Reply] = []

    async def main() -> None:
        serving = asyncio.create_task(referee.serve(0.05))
        out.append(await member.rejoin(member_id, token))
        referee.close()
        await serving

    run_loop(main)
    return out[0]


# --------------------------------------------------------------------------- the property
OWN = st.one_of(st.just("own"), st.integers(0, 3))  # "own": the requester's seat (most requests)
REVEAL = st.builds(lambda s: {"action": "reveal", "seat": s}, OWN)
ACTIONS = st.one_of(
    REVEAL,
    REVEAL,
    REVEAL,
    st.just({"action": "open_auction"}),
    st.builds(lambda s, a: {"action": "bid", "seat": s, "amount": a}, OWN, st.integers(-1, 30)),
    st.builds(lambda s: {"action": "accept", "seat": s}, st.integers(0, 3)),
    st.just({"action": "decline"}),
    st.just({"action": "blind_trade", "buyer": 0, "seller": 1, "count": 1, "price": 1}),
    st.just({"action": "jump"}),
)
WHO = st.one_of(st.just("due"), st.just("holder"), st.integers(0, 3))  # "due": the member due to reveal
REQUEST = st.tuples(st.just("act"), WHO, OWN, ACTIONS, st.sampled_from([True, True, True, False]))
TEACHER = st.tuples(
    st.just("teacher"), st.sampled_from(["pause", "resume", "take", "give", "back", "now"]), st.integers(0, 2)
)
PAUSE = st.tuples(st.just("teacher"), st.sampled_from(["pause", "take", "back"]), st.integers(0, 2))
RESUME = st.tuples(st.just("teacher"), st.sampled_from(["resume", "give", "now", "all"]), st.integers(0, 2))
TIME = st.tuples(st.just("time"), st.floats(0, 3))
STEPS = st.lists(
    st.one_of(REQUEST, REQUEST, REQUEST, REQUEST, REQUEST, PAUSE, RESUME, RESUME, TIME), min_size=30, max_size=100
)


def own(value, seat):
    return seat if value == "own" else value


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 500), STEPS)
def test_T3_T4_any_requests_leave_the_game_equal_to_replaying_the_accepted_actions(seed, steps):
    check_requests(seed, steps)


def random_steps(rng: random.Random, count: int) -> list:
    """Steps of the same shapes as STEPS, drawn by a seeded rng: long runs that get far into deals."""
    out: list = []
    for _ in range(count):
        roll = rng.random()
        if roll < 0.06:
            out.append(("teacher", rng.choice(["pause", "take", "back"]), rng.randrange(3)))
        elif roll < 0.16:
            out.append(("teacher", rng.choice(["resume", "give", "now", "all"]), rng.randrange(3)))
        elif roll < 0.22:
            out.append(("time", rng.uniform(0, 3)))
        else:
            who = rng.choice(["due", "due", "holder", 0, 1, 2, 3])
            seat = rng.choice(["own", "own", "own", 0, 1, 2, 3])
            kind = rng.choice(["reveal"] * 5 + ["open_auction", "bid", "bid", "bid", "accept", "decline", "trade"])
            action = {
                "reveal": {"action": "reveal", "seat": rng.choice(["own", "own", 0, 1, 2])},
                "open_auction": {"action": "open_auction"},
                "bid": {"action": "bid", "seat": rng.choice(["own", "own", 0, 1, 2]), "amount": rng.randrange(-1, 25)},
                "accept": {"action": "accept", "seat": rng.randrange(3)},
                "decline": {"action": "decline"},
                "trade": {"action": "blind_trade", "buyer": 0, "seller": 1, "count": 1, "price": 1},
            }[kind]
            out.append(("act", who, seat, action, rng.random() < 0.85))
    return out


@pytest.mark.parametrize("seed", range(12))
def test_T3_T4_long_seeded_runs_of_requests_also_replay_exactly(seed):
    rng = random.Random(seed)
    check_requests(rng.randrange(500), random_steps(rng, 250))


def check_requests(seed, steps) -> None:
    """Apply ``steps`` (requests of members, honest or forged, and the teacher's steps) and check
    that every accepted action was its requester's to take, and that the game is the replay of
    exactly the accepted actions."""
    clock = Clock()
    _, session, host, referee = table(3, seed=seed, clock=clock)
    store = referee.store
    members = seated(store, referee, [("Fanny", 0), ("Edmund", 1), ("Mary", 2), ("Tom", None)])
    start = Game.from_json(session.game.to_json()).at(0)
    accepted: list[Action] = []
    taken: set[int] = set()
    for step in steps:
        if step[0] == "time":
            clock.now += step[1]
            continue
        if step[0] == "teacher":
            what, seat = step[1], step[2]
            {
                "pause": referee.pause,
                "resume": referee.resume_play,
                "take": lambda seat=seat: (referee.take_over(seat), taken.add(seat)),
                "give": lambda seat=seat: (referee.give_back(seat), taken.discard(seat)),
                "back": lambda: host.go(max(0, len(session.game.history) - 1)),
                "now": lambda: host.go(None),
                "all": lambda: (
                    referee.resume_play(),
                    [referee.give_back(x) for x in range(3)],
                    taken.clear(),
                    host.go(None),
                ),
            }[what]()
            continue
        _, who, seat, action, honest = step
        game = session.game
        if who == "due":
            who = 3 if game.turn is None else game.turn
        elif who == "holder":
            who = game.holder
        member = members[who]
        seat = own(seat, member.seat if member.seat is not None else 0)
        action = {k: own(v, seat) for k, v in action.items()}
        entitled = (
            honest
            and not referee.paused
            and host.live
            and member.seat is not None
            and seat == member.seat
            and seat not in taken
            and action["action"] not in ("blind_trade", "jump")
            and (action.get("seat", seat) == seat or action["action"] == "accept")
            and (action["action"] not in ("open_auction", "accept", "decline") or game.holder == seat)
        )
        secret = member._secret
        if not honest:
            member._secret = "forged-secret"
        reply = ask(member, referee, "act", seat=seat, action=action)
        member._secret = secret
        if reply.ok:
            assert entitled, (who, seat, action)
            accepted.append(Action.from_dict(action))
        elif entitled:
            assert reply.rule in ("T5",) or not reply.rule.startswith("T"), reply  # only T5 or the engine
        if session.game.over:
            break
    replay = start
    for action in accepted:
        replay.apply(action)
    assert replay.to_json() == session.game.to_json()
    assert session.game.history == accepted
