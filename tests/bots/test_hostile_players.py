"""Player files are trusted code, but the table still judges every action they return by
its exact type and value, and a player that fails is one clear line, never a traceback."""

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from prefa_sim.bots.base import PlayerError, RandomPlayer
from prefa_sim.bots.registry import make_player
from prefa_sim.bots.table import play_deal
from prefa_sim.cli import main
from prefa_sim.core.cards import Strain
from prefa_sim.core.contracts import Contract
from prefa_sim.rules.auction import Auction, AuctionError, Call
from prefa_sim.rules.deal import Deal, IllegalActionError, Play
from prefa_sim.rules.exact import exact_match, same_value

from ..helpers import random_deal

HOSTILE = '''
import dataclasses
import sys

from prefa_sim.rules.auction import Call
from prefa_sim.core.contracts import Contract
from prefa_sim.core.cards import Strain
from prefa_sim.rules.deal import Play


class EqualsAll:
    def __eq__(self, other):
        return True
    __hash__ = object.__hash__
    def __str__(self):
        return "6S"


class Liar:
    """Answers with an object equal to everything: a contract below the auction."""
    def act(self, observation, rng):
        return EqualsAll()


class CallEqualsAll(Call):
    def __eq__(self, other):
        return True
    __hash__ = object.__hash__


class SubclassedCall:
    def act(self, observation, rng):
        return CallEqualsAll("raise", Contract(6, Strain.S))


class TupleContract:
    """The raise the auction allows, but its contract a plain tuple."""
    def act(self, observation, rng):
        legal = observation.legal[-1]
        if legal.kind == "raise":
            return Call("raise", (legal.contract.level, int(legal.contract.strain)))
        return legal


class Raiser:
    """Fails on the deals where it holds the seven of spades."""
    def act(self, observation, rng):
        if observation.hand & 1:
            raise RuntimeError("my strategy broke")
        return observation.legal[0]


class Exiter:
    def act(self, observation, rng):
        if observation.hand & 1:
            sys.exit(3)
        return observation.legal[0]


class Boom:
    def __eq__(self, other):
        raise RuntimeError("boom in eq")
    __hash__ = object.__hash__


class FieldRaise:
    """In the play, a legal type whose field's own == raises."""
    def act(self, observation, rng):
        if observation.phase == "play":
            return Play(Boom())
        return observation.legal[-1 if observation.phase == "auction" else 0]


class Base(BaseException):
    pass


class RaisesBase:
    def act(self, observation, rng):
        raise Base("not an Exception")


class NameProp:
    @property
    def name(self):
        raise RuntimeError("no name")
    def act(self, observation, rng):
        raise RuntimeError("fails")


class SometimesLiar:
    def act(self, observation, rng):
        return EqualsAll() if observation.hand & 1 else observation.legal[0]


class MutatesLegal:
    """Turns the pass it was offered into a raise to 10NT, in place, and returns it."""
    def act(self, observation, rng):
        action = observation.legal[-1]
        object.__setattr__(action, "kind", "raise")
        object.__setattr__(action, "contract", Contract(10, Strain.NT))
        return action


class MutatesHistory:
    """Rewrites every call of the auction so far, in place, then passes."""
    def act(self, observation, rng):
        for _, call in observation.calls:
            object.__setattr__(call, "kind", "pass")
            object.__setattr__(call, "contract", None)
        return observation.legal[-1]
'''


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    path = tmp_path_factory.mktemp("players") / "hostile.py"
    path.write_text(HOSTILE)
    return path


def test_exact_match_is_by_type_and_value_not_eq():
    legal = [Call("pass"), Call("raise", Contract(7, Strain.H)), Play(5)]

    class EqualsAll:
        def __eq__(self, other):
            return True

    assert exact_match(EqualsAll(), legal) is None
    assert exact_match(Call("raise", (7, 3)), legal) is None  # a tuple is no Contract
    assert exact_match(Call("raise", Contract(7, 3)), legal) is None  # 3 is no Strain
    assert exact_match(Play(True), [Play(1)]) is None  # a bool is no card
    found = exact_match(Call("raise", Contract(7, Strain.H)), legal)
    assert found is legal[1]  # the engine's own object is handed back
    assert same_value(Play(5), Play(5)) and not same_value(Play(5), Play(6))


def test_the_rules_engine_refuses_an_object_equal_to_everything():
    class EqualsAll:
        def __eq__(self, other):
            return True

    auction = Auction()
    with pytest.raises(AuctionError):
        auction.apply(EqualsAll())
    assert auction.calls == []
    import random

    hands, widow = random_deal(random.Random(1))
    deal = Deal(hands, widow, 2)
    with pytest.raises(IllegalActionError, match="not legal in the auction phase"):
        deal.apply(EqualsAll())
    assert deal.history == []


@pytest.mark.parametrize("name, message", [
    ("Liar", "chose 6S (EqualsAll), which is not legal in the auction phase"),
    ("SubclassedCall", "chose 6S (CallEqualsAll), which is not legal"),
    ("TupleContract", "which is not legal in the auction phase"),
    ("Raiser", "failed in the auction phase: RuntimeError: my strategy broke"),
    ("Exiter", "failed in the auction phase: it called sys.exit(3)"),
    ("FieldRaise", "failed in the play phase: RuntimeError: boom in eq"),
    ("RaisesBase", "failed in the auction phase: Base: not an Exception"),
    ("NameProp", "player NameProp in seat 0, deal 0 of seed 11, failed in the auction phase"),
    ("MutatesLegal", "chose 10NT, which is not legal in the auction phase"),
])
def test_a_hostile_player_is_stopped_with_its_seat_and_deal(hostile, name, message):
    player = make_player(f"{hostile}:{name}")
    mover = 0
    players = [RandomPlayer(), RandomPlayer(), RandomPlayer()]
    players[mover] = player
    with pytest.raises(PlayerError) as caught:
        for index in range(40):  # until the player has to act in the phase that trips it
            play_deal(players, 11, index)
    assert message in str(caught.value)
    assert f"player {name} in seat {mover}, deal " in str(caught.value)
    assert " of seed 11," in str(caught.value)


def test_a_player_changing_what_it_was_shown_changes_nothing_of_the_deal(hostile):
    rewriter = make_player(f"{hostile}:MutatesHistory")
    raised = 0
    for index in range(6):
        deal = play_deal([RandomPlayer(), rewriter, RandomPlayer()], 11, index)
        again = Deal(list(deal.hands_dealt), deal.widow, deal.dealer)
        for _, action in deal.history:  # every recorded action is still the one applied
            again.apply(action)
        assert again.settlement == deal.settlement and again.history == deal.history
        raised += any(call.kind == "raise" for _, call in deal.auction.calls)
    assert raised  # a raise was shown to the player, and it stayed a raise


@pytest.mark.parametrize("name, error", [("Raiser", "RuntimeError: my strategy broke"),
                                         ("Exiter", "it called sys.exit(3)"),
                                         ("SometimesLiar", "which is not legal")])
@pytest.mark.parametrize("workers", ["1", "2"])
def test_games_with_a_failing_player_is_one_line_and_keeps_what_was_finished(
        hostile, name, error, workers, tmp_path):
    spec = f"{hostile}:{name}"
    players = [make_player(spec), RandomPlayer(), RandomPlayer()]
    first_bad = 0
    while True:  # the first deal of seed 1 on which the player misbehaves
        try:
            play_deal(players, 1, first_bad, dealer=first_bad % 3)
        except PlayerError:
            break
        first_bad += 1
    assert first_bad >= 1
    out = tmp_path / "run"
    result = CliRunner().invoke(main, ["games", "--players", f"{spec},random,random",
                                       "-n", str(2 * first_bad), "--chunk-size", str(first_bad),
                                       "-o", str(out), "-w", workers])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, result.stderr
    assert error in errors[0] and f"player {name} in seat 0, deal {first_bad} " in errors[0]
    assert f"prefa games -o {out} --resume" in result.stderr
    assert (out / "part-00000.parquet").exists() and not (out / "part-00001.parquet").exists()
    # --debug adds the traceback of the player's own code.
    debug = CliRunner().invoke(main, ["--debug", "games", "-o", str(out), "--resume",
                                      "-w", workers])
    assert debug.exit_code == 1
    assert "Traceback" in debug.stderr and "hostile.py" in debug.stderr


def test_every_action_the_table_accepts_replays_through_prefa_game(hostile, tmp_path):
    """For each kind of player, the recording of a game they played replays exactly."""
    mine = tmp_path / "mine.py"
    mine.write_text("class Last:\n    def act(self, observation, rng):\n"
                    "        return observation.legal[-1]\n")
    kinds = ["random", "heuristic", "sampling(bidding=2,widow=2,defence=2,play=2)",
             "oracle", f"{mine}:Last"]
    for kind in kinds:
        played = CliRunner().invoke(main, ["game", "--players", f"{kind},random,heuristic",
                                           "--seed", "3", "--json", "--max-deals", "4"])
        assert played.exit_code == 0, played.output
        script = tmp_path / "game.jsonl"
        script.write_text(played.stdout)
        replay = CliRunner().invoke(main, ["game", str(script), "--json", "--max-deals", "4"])
        assert replay.exit_code == 0, (kind, replay.output)
        assert replay.stdout == played.stdout
        assert len([json.loads(x) for x in played.stdout.splitlines()]) == 5


def test_two_seats_with_one_spec_hold_two_players(tmp_path):
    """A player keeping state of its own (here: its seat) is never shared between seats,
    in one seating or in the three seatings of a duplicate run."""
    path = tmp_path / "keeper.py"
    path.write_text("class SeatKeeper:\n"
                    "    seat = None\n"
                    "    def act(self, observation, rng):\n"
                    "        if self.seat is None:\n"
                    "            self.seat = observation.seat\n"
                    "        if observation.seat != self.seat:\n"
                    "            raise RuntimeError('shared between seats')\n"
                    "        return observation.legal[0]\n")
    spec = f"{path}:SeatKeeper"
    result = CliRunner().invoke(main, ["games", "--players", f"{spec},{spec},random", "-n", "6",
                                       "--duplicate", "-o", str(tmp_path / "run"), "-w", "1"])
    assert result.exit_code == 0, result.output
    played = CliRunner().invoke(main, ["game", "--players", spec, "--seed", "2",
                                       "--max-deals", "3"])
    assert played.exit_code == 0, played.output


SEEING = '''
class ClaimsToSee:
    """Says it sees every card: a class attribute is not enough."""
    sees_all_cards = True
    name = "oracle"
    def act(self, observation, rng):
        if observation.all_cards is not None:
            raise RuntimeError("was shown every card")
        return observation.legal[0]


class Granted:
    def act(self, observation, rng):
        if observation.all_cards is None:
            raise RuntimeError("was not shown every card")
        return observation.legal[0]
'''


def test_seeing_every_card_is_granted_by_the_command_line_only(tmp_path):
    path = tmp_path / "seeing.py"
    path.write_text(SEEING)
    claims, granted = f"{path}:ClaimsToSee", f"sees-all:{path}:Granted"
    assert not make_player(claims).sees_all_cards
    assert make_player(granted).sees_all_cards and make_player("oracle").sees_all_cards
    out = tmp_path / "run"
    result = CliRunner().invoke(main, ["games", "--players", f"{claims},{granted},random",
                                       "-n", "6", "-o", str(out), "-w", "1"])
    assert result.exit_code == 0, result.output
    # Every output names the granted player as seeing all cards, and only it.
    assert f"{granted} (sees all cards)" in result.stderr
    assert f"{claims} (sees all cards)" not in result.output
    table = [line for line in result.stdout.splitlines() if granted in line]
    assert table and all(f"{granted} (sees all cards)" in line for line in table)
    stats = CliRunner().invoke(main, ["stats", "bidding", str(out), "--json"])
    players = [p["player"] for p in json.loads(stats.stdout)["players"]]
    assert players == [claims, f"{granted} (sees all cards)", "random"]
    match = CliRunner().invoke(main, ["match", "oracle", claims, "random", "-n", "2", "-w", "1"])
    assert match.exit_code == 0, match.output
    assert "oracle (sees all cards)" in match.stdout
    assert f"{claims} (sees all cards)" not in match.stdout
    game = CliRunner().invoke(main, ["game", "--players", f"oracle,{claims},random",
                                     "--max-deals", "1"])
    assert "seat 0 oracle (sees all cards), seat 1" in game.stderr


def test_a_player_path_with_commas_and_parentheses(tmp_path):
    folder = tmp_path / "my (best), bots"
    folder.mkdir()
    path = folder / "p.py"
    path.write_text("class Last:\n    def act(self, observation, rng):\n"
                    "        return observation.legal[-1]\n")
    spec = f"{path}:Last"
    result = CliRunner().invoke(main, ["games", "--players",
                                       f"{spec},sampling(play=2,defence=2),random", "-n", "2",
                                       "-o", str(tmp_path / "run"), "-w", "1"])
    assert result.exit_code == 0, result.output
    assert f"by {spec}, sampling(play=2,defence=2), random in" in result.stderr
    bad = CliRunner().invoke(main, ["games", "--players", f"{folder}/none.py:X,random,random",
                                    "-o", str(tmp_path / "other")])
    assert bad.exit_code == 2 and "none.py does not exist" in bad.output


@pytest.mark.parametrize("command", ["games", "match"])
def test_a_player_that_ends_its_process_is_an_error_even_with_one_worker(command, tmp_path):
    path = tmp_path / "ender.py"
    path.write_text("import os\nclass Ender:\n    def act(self, observation, rng):\n"
                    "        os._exit(0)\n")
    spec = f"{path}:Ender"
    args = (["games", "--players", f"{spec},random,random", "-n", "4", "-o", str(tmp_path / "r")]
            if command == "games" else ["match", spec, "random", "random", "-n", "2"])
    done = subprocess.run([sys.executable, "-c", "from prefa_sim.cli import main; main()",
                           *args, "-w", "1"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "a worker process ended (exit status 0) while player Ender in seat 0, " \
           in done.stderr, done.stderr
    assert "seed" in done.stderr and "was deciding in the" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_player_raising_keyboard_interrupt_is_its_error_not_a_ctrl_c(workers, tmp_path):
    path = tmp_path / "quitter.py"
    path.write_text("class Quitter:\n    def act(self, observation, rng):\n"
                    "        raise KeyboardInterrupt\n")
    out = tmp_path / "r"
    done = subprocess.run([sys.executable, "-c", "from prefa_sim.cli import main; main()",
                           "games", "--players", f"random,{path}:Quitter,random", "-n", "3",
                           "-o", str(out), "-w", workers],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "player Quitter in seat 1, deal 0 of seed 1, " in done.stderr
    assert "failed in the auction phase: it raised KeyboardInterrupt" in done.stderr
    assert "interrupted" not in done.stderr and "Traceback" not in done.stderr


ENDINGS = {
    "osexit": "import os\nclass P:\n    def act(self, observation, rng):\n        os._exit(0)\n",
    "segfault": "import ctypes\nclass P:\n    def act(self, observation, rng):\n"
                "        ctypes.string_at(0)\n",
    "interrupt": "class P:\n    def act(self, observation, rng):\n"
                 "        raise KeyboardInterrupt\n",
}


@pytest.mark.parametrize("kind, message", [
    ("osexit", "a worker process ended (exit status 0) while player P in seat 0, game 0 "
               "deal 0 of seed 3, was deciding in the auction phase"),
    ("segfault", "a worker process ended (signal 11) while player P in seat 0, game 0 deal 0 "
                 "of seed 3, was deciding in the auction phase"),
    ("interrupt", "player P in seat 0, game 0 deal 0 of seed 3, failed in the auction phase: "
                  "it raised KeyboardInterrupt"),
])
def test_a_player_that_ends_its_process_in_prefa_game_is_named(kind, message, tmp_path):
    path = tmp_path / f"{kind}.py"
    path.write_text(ENDINGS[kind])
    done = subprocess.run([sys.executable, "-c", "from prefa_sim.cli import main; main()",
                           "game", "--players", f"{path}:P,random,random", "--seed", "3"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert f"Error: {message}" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


LOAD_FAILURES = {
    "exit at import": ("import os\nos._exit(0)\nclass P:\n    pass\n",
                       "a worker process ended (exit status 0) while player file {path} "
                       "was loading"),
    "interrupt at import": ("raise KeyboardInterrupt\n",
                            "cannot load {path}: KeyboardInterrupt"),
    "base exception at import": ("class W(BaseException):\n    pass\nraise W('x')\n",
                                 "cannot load {path}: W: x"),
    "exit when made": ("import os\nclass P:\n    def __init__(self):\n        os._exit(4)\n"
                       "    def act(self, observation, rng):\n        return 0\n",
                       "a worker process ended (exit status 4) while player P of {path} "
                       "was being made"),
}


@pytest.mark.parametrize("command", ["match", "games", "game"])
@pytest.mark.parametrize("case", sorted(LOAD_FAILURES))
def test_a_player_file_that_fails_as_it_loads_is_one_clear_line(command, case, tmp_path):
    text, message = LOAD_FAILURES[case]
    path = tmp_path / "bad.py"
    path.write_text(text)
    spec = f"{path}:P"
    args = {"match": ["match", spec, "random", "random", "-n", "3"],
            "games": ["games", "--players", f"{spec},random,random", "-n", "3",
                      "-o", str(tmp_path / "run")],
            "game": ["game", "--players", f"{spec},random,random"]}[command]
    done = subprocess.run([sys.executable, "-c", "from prefa_sim.cli import main; main()",
                           *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert message.format(path=path) in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and "interrupted" not in done.stderr
    assert not (tmp_path / "run").exists()


def test_a_player_file_with_dataclasses_loads_and_its_name_is_checked(tmp_path):
    path = tmp_path / "dc.py"
    path.write_text("from __future__ import annotations\nimport dataclasses\n\n"
                    "@dataclasses.dataclass\nclass Settings:\n    depth: int = 2\n\n"
                    "class P:\n    name = 'x\\nError: everything fine (sees all cards)'\n"
                    "    def __init__(self):\n        self.settings = Settings()\n"
                    "    def act(self, observation, rng):\n        return observation.legal[0]\n"
                    "\nclass Named(P):\n    name = 'careful (v2)'\n")
    assert make_player(f"{path}:P").name == "P"  # a name with a line break: the class's
    assert make_player(f"{path}:Named").name == "careful (v2)"
    assert make_player(f"{path}:P").inner.settings.depth == 2


NAMES = '''
import os


class Shown(str):
    def __format__(self, spec):
        return "EVIL\\nSECOND LINE"
    __str__ = __format__


class StrSubclass:
    name = Shown("okname")
    def act(self, observation, rng):
        raise RuntimeError("x")


class Blank:
    name = "      "
    def act(self, observation, rng):
        raise RuntimeError("x")


class Quits(BaseException):
    pass


class NameQuits:
    @property
    def name(self):
        raise Quits("no")
    def act(self, observation, rng):
        return observation.legal[0]


class NameInterrupts:
    @property
    def name(self):
        raise KeyboardInterrupt
    def act(self, observation, rng):
        return observation.legal[0]


class NameExits:
    @property
    def name(self):
        os._exit(5)
    def act(self, observation, rng):
        return observation.legal[0]


class Unprintable(Exception):
    def __str__(self):
        raise KeyboardInterrupt


class RaisesUnprintable:
    def act(self, observation, rng):
        raise Unprintable()
'''


def _prefa(*args):
    return subprocess.run([sys.executable, "-c", "from prefa_sim.cli import main; main()",
                           *map(str, args)], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("name, status, message", [
    ("StrSubclass", 1, "player StrSubclass in seat 0, game 0 deal 0 of seed 2"),
    ("Blank", 1, "player Blank in seat 0, game 0 deal 0 of seed 2"),
    ("NameQuits", 2, "cannot make NameQuits from {path}: Quits: no"),
    ("NameInterrupts", 2, "cannot make NameInterrupts from {path}: KeyboardInterrupt"),
    ("NameExits", 2, "a worker process ended (exit status 5) while player NameExits of {path} "
                     "was being made"),
    ("RaisesUnprintable", 1, "failed in the auction phase: Unprintable"),
])
def test_a_players_name_and_errors_are_its_own_yet_print_as_one_plain_line(name, status,
                                                                           message, tmp_path):
    path = tmp_path / "names.py"
    path.write_text(NAMES)
    done = _prefa("game", "--players", f"{path}:{name},random,random", "--seed", 2)
    assert done.returncode == status, (done.stdout, done.stderr)
    assert message.format(path=path) in done.stderr, done.stderr
    assert "EVIL" not in done.stderr and "interrupted" not in done.stderr
    assert "Traceback" not in done.stderr


def test_one_file_in_two_seats_shares_its_classes(tmp_path):
    path = tmp_path / "dc.py"
    path.write_text("import dataclasses\n\n@dataclasses.dataclass\nclass Params:\n"
                    "    depth: int = 2\n\nclass DC:\n    def __init__(self):\n"
                    "        self.params = Params()\n"
                    "    def act(self, observation, rng):\n        return observation.legal[0]\n"
                    "\nclass Pick(DC):\n    pass\n")
    for players in (f"{path}:DC", f"{path}:DC,{path}:Pick,random"):
        done = _prefa("game", "--players", players, "--seed", 1, "--max-deals", 2)
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines()[-1].startswith("final after 2 deals")
    first, second = make_player(f"{path}:DC"), make_player(f"{path}:DC")
    assert first.inner is not second.inner and type(first.inner) is type(second.inner)
