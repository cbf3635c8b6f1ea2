"""Games to publish with `pbem site` (tests/test_site*.py) and the leak check of a published
site: what a page of a running game must never hold."""
from __future__ import annotations

import json
import random
from pathlib import Path

from judge_support import Judge
from pbem.judge import engine
from test_leaks import random_document

PRIVATE_WORDS = "Xylophone plot against carol"    # alice's private message to bob (F)


def fief_game_with_fog(judge: Judge, name: str = "loire", moves: int = 6) -> None:
    """A running Fief game under fog of war (I.2) where alice told bob a secret (F) and the
    families bought unit pawns whose types the others may not know."""
    judge.new_game(name=name, players=("alice", "bob", "carol"), game_type="fief_france",
                   options={"fog_of_war": True}, seed="site-test-seed-loire")
    judge.tick()
    for p, towns in (("alice", "Tours, Poitiers"), ("bob", "Bordeaux, Pau"), ("carol", "Lyon, Dijon")):
        extra = f'diplomacy:\n  - message: "{PRIVATE_WORDS}"\n    to: bob\n' if p == "alice" else ""
        judge.orders(name, p, "setup/starting-towns", f"orders:\n  - start: [{towns}]\n{extra}")
    judge.tick()
    rnd = random.Random(11)
    for _ in range(moves):
        game = game_of(judge, name)
        if game.row["status"] != "running":
            break
        phase = game.rules.phase(game.state)
        for p in phase.deciders:
            judge.orders(name, p, phase.id, random_document(game.rules.view(game.state, p), p, rnd))
        judge.tick()


def tiny_game_over(judge: Judge, name: str = "bids") -> None:
    """A finished game of the tiny test game: a public shout (a player's words), a private
    event each round ("Your hand is still ..."), secret bids revealed only with --reveal."""
    judge.new_game(name=name, players=("alice", "bob"), options={"target": 1}, seed="site-test-seed-bids")
    judge.tick()
    judge.orders(name, "alice", "round-1/bid", 'shout: "Fortune favours the bold"\n')
    judge.tick()
    for round_no in range(1, 20):
        if game_of(judge, name).row["status"] == "over":
            return
        judge.orders(name, "alice", f"round-{round_no}/bid", "bid: 6")
        judge.orders(name, "bob", f"round-{round_no}/bid", "bid: 2")
        judge.tick()
    raise AssertionError("the tiny game did not end in 19 rounds")


def game_of(judge: Judge, name: str) -> engine.Game:
    store = judge.store()
    try:
        return engine.load_game(store, name)
    finally:
        store.close()


def resolved_phases(judge: Judge) -> list:
    """The resolved phases of the judge home (its one game), in order: their seq and phase id."""
    store = judge.store()
    try:
        return store.all("SELECT seq, phase_id FROM phases WHERE resolved_at IS NOT NULL ORDER BY seq")
    finally:
        store.close()


def secrets_of(judge: Judge, name: str) -> dict[str, str]:
    """What no page of game ``name`` may hold while it runs, by what it is: the seed, each
    player's secret, and every event (and what a player wrote in it) not told to everyone."""
    store = judge.store()
    try:
        game = engine.load_game(store, name)
        out = {"the seed": game.row["seed"]}
        out.update({f"{p}'s secret": s for p, s in judge.secrets[name].items()})
        public = set()
        private = {}
        for row in store.all("SELECT text, audience, said FROM events WHERE game_id=?", game.id):
            if json.loads(row["audience"]) == "all":
                public.add(row["text"])
                continue
            private[f"a private event: {row['text']!r}"] = row["text"]
            if row["said"]:
                private[f"private words: {json.loads(row['said'])['text']!r}"] = json.loads(row["said"])["text"]
        out.update({k: v for k, v in private.items() if v not in public})
        return out
    finally:
        store.close()


def leaks(text: str, secrets: dict[str, str]) -> list[str]:
    """The secrets ``text`` holds, by what they are (the text as a browser or a file shows it)."""
    return [what for what, secret in secrets.items() if secret in text]


def site_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())
