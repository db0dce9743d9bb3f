"""Players: only legal moves, only what their seat may know, money that sums to zero,
games that end, the same games from the same seed, and the oracle's double-dummy play."""

import json
import re
from fractions import Fraction

import pytest
from click.testing import CliRunner

from prefa_sim.bots.base import Player, PlayerError, RandomPlayer
from prefa_sim.bots.heuristic import HeuristicPlayer
from prefa_sim.bots.oracle import OraclePlayer
from prefa_sim.bots.registry import make_player, make_players
from prefa_sim.bots.table import play_deal, play_game
from prefa_sim.cli import main
from prefa_sim.core.cards import format_deal
from prefa_sim.core.position import Position
from prefa_sim.core.seats import opening_leader
from prefa_sim.rules.deal import Play
from prefa_sim.rules.game import deal_record
from prefa_sim.rules.settlement import DEFENCES


class Watcher(Player):
    """Wraps a player and checks every observation it is given against the deal."""

    def __init__(self, inner: Player, deals: dict) -> None:
        self.inner, self.deals, self.name = inner, deals, inner.name
        self.decisions = 0

    def act(self, obs, rng):
        deal = self.deals["current"]
        self.decisions += 1
        assert obs.all_cards is None
        hidden = 0  # cards in the other seats' hands that nobody has played or shown
        for seat in range(3):
            if seat != obs.seat:
                held = deal.position.hands[seat] if deal.position else deal.hands[seat]
                hidden |= held
        hidden &= ~obs.shown  # the declarer's cards, once shown with a claim
        assert obs.seen & hidden == 0, "an observation shows cards its seat cannot see"
        assert obs.widow is None or obs.seat == deal.declarer
        return self.inner.act(obs, rng)


@pytest.fixture
def deals(monkeypatch) -> dict:
    """``deals["current"]``: the deal the table is playing, for ``Watcher``."""
    import prefa_sim.bots.table as table

    current = {}
    original = table.play_out

    def remember(deal, players, rng, *where):
        current["current"] = deal
        return original(deal, players, rng, *where)

    monkeypatch.setattr(table, "play_out", remember)
    return current


@pytest.mark.parametrize("mix", ["random", "heuristic,random,random",
                                 "random,heuristic,random", "random,random,heuristic",
                                 "heuristic"])
def test_only_legal_moves_and_only_what_the_seat_sees(mix, deals):
    """10,000 deals over the mixes: every decision legal (the table checks), every
    observation free of hidden cards, the money of each deal summing to zero."""
    players = [Watcher(p, deals) for p in make_players(mix)]
    phases = set()
    for i in range(2000):
        deal = play_deal(players, 77, i, dealer=i % 3)
        phases.add(deal.phase)
        for _, action in deal.history:
            phases.add(type(action).__name__)
        if deal.settlement is not None:
            assert sum(deal.settlement.transfers.values()) == 0
            assert sum(deal.settlement.net.values()) == -deal.settlement.pot_delta
    assert {"settled", "void", "Call", "Discard", "Name", "Declare", "Play"} <= phases
    assert all(p.decisions for p in players)


@pytest.mark.parametrize("seats", [(0,), (1,), (2,), (0, 1, 2)])
def test_the_sampling_player_makes_only_legal_moves_and_sees_only_its_seat(seats, deals):
    """The sampling player (few samples: the same code paths, faster) in each seat against
    random players, and three of them; claims, refusals and two-handed play included."""
    from prefa_sim.bots.sampling import SamplingParams, SamplingPlayer

    sampler = SamplingPlayer(SamplingParams(bidding=1, widow=1, defence=2, play=1))
    players = [Watcher(sampler if s in seats else RandomPlayer(), deals) for s in range(3)]
    kinds = set()
    for i in range(100 if len(seats) == 1 else 40):
        deal = play_deal(players, 78, i, dealer=i % 3)
        kinds |= {type(a).__name__ for _, a in deal.history}
        if deal.settlement is not None:
            assert sum(deal.settlement.result.values()) == 0
    assert {"Call", "Declare", "Play", "Claim", "Answer"} <= kinds
    assert all(players[s].decisions for s in seats)


def test_heuristic_games_end_by_the_pot_and_results_sum_to_zero():
    players = make_players("heuristic")
    for seed in (1, 2):
        *_, (game, _) = play_game(players, seed, max_deals=400)
        assert game.over and game.pot < 10
        assert sum(game.results(), Fraction(0)) == 0


def test_the_same_seed_gives_the_same_games():
    def records(seed):
        players = make_players("heuristic,random,heuristic")
        return [json.dumps(deal_record(g, d)) for g, d in play_game(players, seed, 30)]

    assert records(5) == records(5)
    assert records(5) != records(6)
    # Deal j of a game has its own stream of cards, apart from the game's history.
    from prefa_sim.bots.table import game_streams

    (hands, widow), _ = game_streams(5, 0, 7)
    assert format_deal(hands, widow) == json.loads(records(5)[7])["deal"]


def test_the_oracle_plays_double_dummy(solver):
    oracle = OraclePlayer(solver)
    players = [oracle] * 3
    played = 0
    for i in range(12):
        deal = play_deal(players, 3, i)
        if deal.settlement is None or deal.solo:
            continue
        defence = DEFENCES[tuple(deal.declarations)]
        if not defence.players:
            continue
        active = tuple(sorted({deal.declarer, *(deal.seat_of_role(r) for r in defence.players)}))
        start = Position(tuple(deal.hands), deal.contract.strain,
                         opening_leader(deal.dealer, active), deal.declarer, active)
        assert deal.tricks[deal.declarer] == solver.solve(start)
        played += 1
    assert played >= 3


def test_a_players_own_file(tmp_path):
    file = tmp_path / "mine.py"
    file.write_text("class Lowest:\n"
                    "    def act(self, observation, rng):\n"
                    "        return observation.legal[-1]\n"
                    "class Cheat:\n"
                    "    def act(self, observation, rng):\n"
                    "        from prefa_sim.rules.deal import Play\n"
                    "        return Play(0)\n")
    mine = make_player(f"{file}:Lowest")
    assert mine.name == "Lowest" and mine.sees_all_cards is False
    deal = play_deal([mine, RandomPlayer(), HeuristicPlayer()], 1, 0)
    assert deal.is_terminal()
    with pytest.raises(PlayerError, match=r"player Cheat in seat 0, deal \d+ of seed 1, chose"):
        for i in range(20):
            play_deal([make_player(f"{file}:Cheat"), mine, mine], 1, i)
    for spec, message in ((f"{file}:Nope", "no player class 'Nope'"),
                          (f"{tmp_path}/none.py:X", "does not exist"),
                          ("grandmaster", "unknown player 'grandmaster'")):
        with pytest.raises(PlayerError, match=message):
            make_player(spec)
    broken = tmp_path / "broken.py"
    broken.write_text("this is not python\n")
    with pytest.raises(PlayerError, match="cannot load"):
        make_player(f"{broken}:X")
    assert Play(0) != Play(1)


def test_game_command_with_players(tmp_path):
    result = CliRunner().invoke(main, ["game", "--players", "heuristic", "--seed", "2",
                                       "--json", "--max-deals", "400"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[-1]["final"] and lines[-1]["over"] and lines[-1]["ended"] == "pot spent"
    assert sum(lines[-1]["results_thirds"]) == 0
    # The recording replays exactly through the script reader.
    script = tmp_path / "game.jsonl"
    script.write_text(result.stdout)
    replay = CliRunner().invoke(main, ["game", str(script), "--json", "--max-deals", "400"])
    assert replay.exit_code == 0, replay.output
    assert replay.stdout == result.stdout
    for args, message in ((["--players", "a,b"], "name three players"),
                          (["--players", "random", str(script)], "no SCRIPT with it")):
        bad = CliRunner().invoke(main, ["game", *args])
        assert bad.exit_code == 2 and message in bad.output


class Counted(Player):
    """Fails a deal that takes more decisions than any deal can."""

    def __init__(self, inner: Player, limit: int = 500) -> None:
        self.inner, self.limit, self.name = inner, limit, inner.name
        self.sees_all_cards = inner.sees_all_cards
        self.calls = 0

    def act(self, obs, rng):
        self.calls += 1
        assert self.calls < self.limit, "a deal that never ends"
        return self.inner.act(obs, rng)


def test_a_refused_claim_is_not_repeated_forever(solver):
    """The oracle claims whenever double-dummy play takes the rest; a heuristic defender
    refuses unless every card shown is a master: the declarer then plays on."""
    oracle, heuristic = OraclePlayer(solver), HeuristicPlayer()
    claims = refusals = 0
    for i in range(8):
        players = [Counted(heuristic), Counted(heuristic), Counted(oracle)]
        deal = play_deal(players, 4, i, dealer=(2 + i) % 3)
        claims += sum(type(a).__name__ == "Claim" for _, a in deal.history)
        refusals += sum(type(a).__name__ == "Answer" and not a.accept for _, a in deal.history)
    assert claims and refusals


# -- the sampling player ------------------------------------------------------------------

def test_samples_respect_sizes_and_voids():
    import numpy as np

    from prefa_sim.bots.sampling import sample_hidden

    rng = np.random.default_rng(3)
    unknown = (1 << 22) - 1  # spades, clubs and six diamonds
    for _ in range(200):
        a, b, c = sample_hidden(unknown, [(10, 0b0001), (10, 0), (2, 0b0010)], rng)
        assert a | b | c == unknown and not (a & b or a & c or b & c)
        assert [bin(x).count("1") for x in (a, b, c)] == [10, 10, 2]
        assert a & 0xFF == 0 and c & 0xFF00 == 0  # a void in spades, c in clubs


def test_shown_voids_from_the_play():
    from prefa_sim.bots.observation import Observation
    from prefa_sim.bots.sampling import shown_voids
    from prefa_sim.core.cards import parse_card
    from prefa_sim.core.contracts import parse_contract

    c = parse_card
    obs = Observation(seat=0, dealer=2, phase="play", hand=0, legal=(), declarer=0,
                      contract=parse_contract("7H"), active=(0, 1, 2), leader=0,
                      played=((0, c("AS")), (1, c("7S")), (2, c("8D")),  # 2: no spade, no trump
                              (0, c("KC")), (1, c("7H")), (2, c("7C"))))  # 1: ruffed clubs
    voids = shown_voids(obs)
    assert voids == {0: 0, 1: 0b0010, 2: 0b1001}


def test_the_sampling_player_plays_legally_and_reproducibly(solver):
    from prefa_sim.bots.sampling import SamplingParams, SamplingPlayer

    def run():
        sampler = SamplingPlayer(SamplingParams(bidding=3, widow=3, defence=4, play=4), solver)
        players = [sampler, HeuristicPlayer(), sampler]
        return [[str(a) for _, a in play_deal(players, 21, i).history] for i in range(6)]

    first = run()
    assert first == run()  # the same seed, the same choices
    assert any("play" in h or "pass" in h for h in first)


# -- duplicate matches ----------------------------------------------------------------------

def test_duplicate_seating_gives_identical_players_identical_scores():
    from prefa_sim.analysis.match import duplicate_deal

    for i in range(30):
        totals = duplicate_deal(["random"] * 3, 8, i)
        assert totals[0] == pytest.approx(totals[1]) == pytest.approx(totals[2])
        assert sum(totals) == pytest.approx(0, abs=1e-9)  # results are zero-sum


def test_match_rows_do_not_depend_on_workers_and_the_command_reports(tmp_path):
    from prefa_sim.analysis.match import play_match

    one = play_match(["heuristic", "random", "random"], 12, 5, workers=1, chunk=5)
    two = play_match(["heuristic", "random", "random"], 12, 5, workers=2, chunk=5)
    assert one.shape == (12, 3) and (one == two).all()
    result = CliRunner().invoke(main, ["match", "heuristic", "random", "random", "-n", "12",
                                       "--seed", "5", "-w", "1", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["players"] == ["A heuristic", "B random", "C random"]
    assert data["kapikia_per_deal"][0]["value"] == pytest.approx(one[:, 0].mean())
    pair = next(d for d in data["differences"] if d["player"] == "A heuristic"
                and d["versus"] == "B random")
    assert pair["value"] == pytest.approx((one[:, 0] - one[:, 1]).mean())
    assert pair["low"] <= pair["value"] <= pair["high"]
    bad = CliRunner().invoke(main, ["match", "heuristic", "nobody", "random"])
    assert bad.exit_code == 2 and "unknown player 'nobody'" in bad.output


def test_the_match_table_heads_its_columns_with_letters():
    """Players with settings have long names: the table of differences labels its rows
    with letter and name and heads its columns with the letters alone, so that no column
    is as wide as a name; each cell is the difference of that row's and column's means."""
    long = "heuristic(widow_bonus=1, name_margin=1)"
    args = ["match", long, "random", "heuristic", "-n", "20", "--seed", "2", "-w", "1",
            "--bootstrap", "100"]
    text = CliRunner().invoke(main, args).output.splitlines()
    data = json.loads(CliRunner().invoke(main, [*args, "--json"]).stdout)
    start = text.index("row minus column, paired deal by deal (* the interval excludes zero):")
    header, *rows = text[start + 1:start + 5]
    assert header.split() == ["A", "B", "C"]
    labels = [f"A {long}", "B random", "C heuristic"]
    widest_cell = max(len(f"{d['value']:+.1f} ({d['low']:+.1f}..{d['high']:+.1f}) *")
                      for d in data["differences"])
    for label, row in zip(labels, rows, strict=True):
        assert row.startswith(label + "  ")
        assert len(row) <= len(labels[0]) + 3 * (widest_cell + 2)
    means = [m["value"] for m in data["kapikia_per_deal"]]
    first = rows[0][len(labels[0]):].split()
    assert first[0] == "-" and float(first[1]) == pytest.approx(means[0] - means[1], abs=0.051)
    assert any(line.startswith(f"A {long}  ") for line in text[:start])


def test_tight_voids_are_always_met_and_impossible_ones_said():
    import numpy as np

    from prefa_sim.bots.sampling import SampleError, sample_hidden

    rng = np.random.default_rng(5)
    hearts = 0xFF << 24
    unknown = hearts | 0b111  # eight hearts and three low spades
    for _ in range(100):
        # Only the first place may take spades, only the second hearts... and a third
        # place of two that may hold anything.
        a, b, c = sample_hidden(unknown, [(3, 0b1000), (6, 0b0001), (2, 0)], rng, tries=50)
        assert a == 0b111 and b & ~hearts == 0 and c & ~hearts == 0
    with pytest.raises(SampleError):
        sample_hidden(unknown, [(4, 0b1000), (5, 0b0001), (2, 0b1001)], rng, tries=20)


def _count(hand, strain):
    from prefa_sim.bots.evaluate import declarer_tricks

    return declarer_tricks(hand, strain)


def test_a_defenders_samples_give_the_declarer_a_hand_that_fits_the_contract():
    """Before the play a defender deals the declarer twelve cards, lays away the two the
    declarer would, and keeps layouts whose ten count up to the contract: every layout
    is a partition of the unseen cards, nearly all fit, and the declarer counts more than
    at random."""
    import numpy as np

    from prefa_sim.bots.observation import Observation
    from prefa_sim.bots.sampling import SamplingParams, SamplingPlayer
    from prefa_sim.core.cards import parse_hand
    from prefa_sim.core.contracts import parse_contract

    mine = parse_hand("AH KH 9H 8D 7D QC JC 9S 8S 7S")
    contract = parse_contract("7C")
    obs = Observation(seat=1, dealer=2, phase="defence", hand=mine, legal=(), declarer=0,
                      contract=contract)
    counts = {}
    for slack in (0.0, 99.0):
        player = SamplingPlayer(SamplingParams(declarer_slack=slack))
        rng = np.random.default_rng(4)
        counts[slack] = []
        for _ in range(60):
            hands = player._sample_hands(obs, rng)
            assert hands[1] == mine
            assert [bin(h).count("1") for h in hands] == [10, 10, 10]
            assert not (hands[0] & hands[2] or (hands[0] | hands[2]) & mine)
            counts[slack].append(_count(hands[0], contract.strain))
    fits = sum(c >= contract.level - 1e-9 for c in counts[0.0])
    assert fits >= 55  # a fitting layout is found within fit_tries draws nearly every time,
    assert min(counts[0.0]) >= contract.level - 1  # and else the best of them is taken
    assert np.mean(counts[0.0]) > np.mean(counts[99.0]) + 1


def test_in_the_play_a_defenders_samples_keep_the_declarers_voids_and_played_cards():
    import numpy as np

    from prefa_sim.bots.observation import Observation
    from prefa_sim.bots.sampling import SamplingPlayer
    from prefa_sim.core.cards import SUIT_MASKS, parse_card, parse_hand
    from prefa_sim.core.contracts import parse_contract

    c = parse_card
    played = ((1, c("AD")), (2, c("7D")), (0, c("7H")),  # the declarer (0) out of diamonds
              (1, c("KD")), (2, c("8D")), (0, c("8H")))
    mine = parse_hand("AH KH 9H QD 9D QC JC 9S")  # seat 1 after two tricks
    obs = Observation(seat=1, dealer=2, phase="play", hand=mine, legal=(), declarer=0,
                      contract=parse_contract("6H"), active=(0, 1, 2), leader=1,
                      played=played, tricks=(2, 0, 0), declarations=("play", "play"))
    player, rng = SamplingPlayer(), np.random.default_rng(2)
    gone = sum(1 << card for _, card in played)
    for _ in range(40):
        hands = player._sample_hands(obs, rng)
        assert [bin(h).count("1") for h in hands] == [8, 8, 8]
        assert hands[0] & SUIT_MASKS[2] == 0  # diamonds: the declarer showed out
        assert not (hands[0] | hands[2]) & (gone | mine)
        assert not hands[0] & hands[2]


def test_defence_words_are_valued_through_the_partners_model(monkeypatch):
    """The value of each word: the sequences it leads to, the partner's words taken from
    its model in each sample, this seat's later word the best over the samples that lead
    to it, all in this seat's own money."""
    import prefa_sim.bots.sampling as sampling
    from prefa_sim.bots.observation import Observation
    from prefa_sim.core.contracts import parse_contract

    # The partner's model: hand 1 plays (or invites), hand 2 passes.
    def partner_word(contract, declarer, seat, hand, said, margin, rules):
        if said == ("play",):
            return "play" if hand == 1 else "pass"
        return "together" if hand == 1 else "pass"

    monkeypatch.setattr(sampling, "defence_word", partner_word)
    sequences = list(DEFENCES)
    money = [dict(zip(sequences, [10, 20, -5, 7, 0, 0, -30], strict=True)),
             dict(zip(sequences, [-40, 3, 8, 1, 0, 0, -30], strict=True))]
    samples = [(money[0], 1), (money[1], 2)]
    obs = Observation(seat=1, dealer=2, phase="defence", hand=0, legal=(), declarer=0,
                      contract=parse_contract("7S"))
    words = sampling.SamplingPlayer()._defence_values(obs, (), samples, partner=2)
    # play: sample 0 -> play,play (10); sample 1 -> play,pass, then this seat's best word
    # over sample 1 alone: together 3 or alone 8 -> 8.
    assert words["play"] == pytest.approx((10 + 8) / 2)
    # pass: sample 0 -> pass,together (7); sample 1 -> pass,pass (-30).
    assert words["pass"] == pytest.approx((7 - 30) / 2)


def test_players_with_settings_and_clear_errors_for_wrong_ones(tmp_path):
    from prefa_sim.bots.registry import player_specs
    from prefa_sim.bots.sampling import SamplingParams

    player = make_player("sampling(play=4, defence=3,declarer_slack=0.5)")
    assert player.params == SamplingParams(play=4, defence=3, declarer_slack=0.5)
    assert make_player("heuristic(widow_bonus=0.5)").params.widow_bonus == 0.5
    assert not make_player("sampling(read_declarations=false)").params.read_declarations
    assert make_player("sampling(read_declarations=True)").params.read_declarations
    assert player_specs("sampling(play=4,defence=3),heuristic,random") == [
        "sampling(play=4,defence=3)", "heuristic", "random"]
    for spec, message in [("random(play=1)", "takes no settings"),
                          ("sampling(sample=3)", "unknown setting 'sample=3'"),
                          ("sampling(play=x)", "play must be a whole number"),
                          ("sampling(play=0)", "play must be a whole number from 1 to 100,000"),
                          ("heuristic(widow_bonus=nan)",
                           "widow_bonus must be a number from -100,000 to 100,000"),
                          ("sampling(play=123456789012345678901234567890)", "from 1 to 100,000"),
                          ("sampling(read_declarations=2)",
                           "read_declarations must be true or false")]:
        with pytest.raises(PlayerError, match=re.escape(message)):
            make_player(spec)
    result = CliRunner().invoke(main, ["games", "--players", "sampling(play=1,bidding=1,"
                                       "widow=1,defence=1),random,random", "-n", "3", "-w",
                                       "1", "-o", str(tmp_path / "g")])
    assert result.exit_code == 0, result.output
    assert "A sampling(play=1,bidding=1,widow=1,defence=1)" in result.output
    bad = CliRunner().invoke(main, ["match", "sampling(play=0)", "random", "random"])
    assert bad.exit_code == 2 and "from 1 to 100,000" in bad.output


def test_after_the_aces_a_defender_gives_the_declarer_every_ace_it_cannot_see():
    """'And the aces' needs all four aces among the declarer's twelve cards (docs/rules.md
    §3.3): a defender's samples put every ace it does not hold with the declarer."""
    import numpy as np

    from prefa_sim.bots.observation import Observation
    from prefa_sim.bots.sampling import SamplingPlayer
    from prefa_sim.core.cards import ACES_MASK, parse_hand
    from prefa_sim.core.contracts import parse_contract

    mine = parse_hand("AH KH 9H 8D 7D QC JC 9S 8S 7S")  # one ace here, three unseen
    obs = Observation(seat=1, dealer=2, phase="defence", hand=mine, legal=(), declarer=0,
                      contract=parse_contract("7S"), aces=True)
    player, rng = SamplingPlayer(), np.random.default_rng(6)
    for _ in range(60):
        hands = player._sample_hands(obs, rng)
        assert hands[0] & ACES_MASK == ACES_MASK & ~mine
        assert [bin(h).count("1") for h in hands] == [10, 10, 10]


def test_the_declarers_samples_fit_the_defenders_declarations():
    """Once the defenders have declared, the declarer keeps layouts in which each
    defender's hand would have said its words by the heuristic's rule: nearly all do,
    against about half when the words are not read."""
    import numpy as np

    from prefa_sim.bots.heuristic import defence_word
    from prefa_sim.bots.observation import Observation
    from prefa_sim.bots.sampling import SamplingParams, SamplingPlayer
    from prefa_sim.core.cards import parse_hand
    from prefa_sim.core.contracts import parse_contract

    mine = parse_hand("AS KS QS 8S 7S AC 9C 8D 7D 9H")
    widow = discard = parse_hand("8C 7H")  # the declarer laid the widow away again
    contract, said = parse_contract("6S"), ("pass", "play", "pass")  # seat 2 plays alone
    obs = Observation(seat=0, dealer=2, phase="play", hand=mine, legal=(), declarer=0,
                      widow=widow, discard=discard, contract=contract, declarations=said,
                      active=(0, 2), leader=0)
    fitting = {}
    for read in (True, False):
        player = SamplingPlayer(SamplingParams(read_declarations=read))
        rng = np.random.default_rng(6)
        fitting[read] = 0
        for _ in range(60):
            hands = player._sample_hands(obs, rng)
            assert hands[0] == mine and [bin(h).count("1") for h in hands] == [10, 10, 10]
            assert not (hands[1] & hands[2] or (hands[1] | hands[2]) & (mine | discard))
            fitting[read] += all(
                word == defence_word(contract, 0, speaker, hands[speaker], said[:k])
                for k, (word, speaker) in enumerate(zip(said, (1, 2, 1), strict=True)))
    assert fitting[True] >= 57 and fitting[False] <= 40
