"""Speed of the engine's own work: a long saved session loaded, and the computer players' loop.

    python benchmarks/bench_engine.py

Each figure comes with a baseline measured in the same run, and their ratio:

* loading a 1,000-deal session (``Session.from_json``: every field checked, every deal's
  layout compared with the one its seed deals, every action replayed through the rules)
  against the bare minimum of the same work (parse the JSON, deal each deal from its seed,
  apply its actions with no check of the saved text);
* a deal played by computer players through ``players.next_move`` (one action at a time,
  with its reason) against the same deal's actions applied directly.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from speculation_nb import Game, Rules, Session, players
from speculation_nb.engine.actions import Action


def best_of(fn, repeats: int = 3) -> float:
    """Seconds of the fastest of ``repeats`` runs (process time: other work on the machine counts less)."""
    best = float("inf")
    for _ in range(repeats):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def long_session(deals: int) -> Session:
    rules = Rules(players=5, start_chips=100_000)
    session = Session(rules, [f"Player {i}" for i in range(5)], deals=deals, seed=1)
    table = players.table_strategies(5, "mixed")
    while True:
        players.play_deal(session.game, table)
        if session.next_deal() is None:
            return session


def bare_load(text: str) -> None:
    data = json.loads(text)
    rules = Rules.from_dict(data["rules"])
    for saved in data["games"]:
        deal = saved["deal"]
        game = Game.deal(rules, seed=saved["seed"], dealer=deal["dealer"], stacks=deal["stacks"], pot=deal["pot"])
        for raw in saved["actions"]:
            game.apply(Action.from_dict(raw))


def main() -> None:
    print("Loading a long session")
    session = long_session(1000)
    text = session.to_json()
    actions = sum(len(g.history) for g in session.games)
    full = best_of(lambda: Session.from_json(text))
    bare = best_of(lambda: bare_load(text))
    print(f"  {session.deal_number} deals, {actions:,} actions, {len(text):,} characters")
    print(f"  Session.from_json   {full:6.2f} s")
    print(f"  bare replay         {bare:6.2f} s   (baseline)")
    print(f"  ratio               {full / bare:6.2f}")

    print("\nComputer players, one action at a time (next_move), 200 deals of 6 players")
    rules = Rules(players=6)
    cast = players.mansfield_park(6).table()
    deals = [Game.deal(rules, seed=seed) for seed in range(200)]

    def by_the_loop() -> list[Game]:
        out = []
        for start in deals:
            game = start.copy()
            players.play(game, cast, rounds=10)
            out.append(game)
        return out

    played = by_the_loop()

    def replayed() -> None:
        for start, game in zip(deals, played):
            copy = start.copy()
            for action in game.history:
                copy.apply(action)

    loop = best_of(by_the_loop)
    base = best_of(replayed)
    moves = sum(len(g.history) for g in played)
    print(f"  {moves:,} actions")
    print(f"  next_move loop      {1000 * loop / len(deals):6.2f} ms a deal")
    print(f"  same actions        {1000 * base / len(deals):6.2f} ms a deal   (baseline: no decisions)")
    print(f"  ratio               {loop / base:6.1f}")


if __name__ == "__main__":
    main()
