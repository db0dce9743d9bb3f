"""``prefa odds``: exact suit-split probabilities for the cards a player cannot see."""

from __future__ import annotations

import click

from prefa_sim.core.cards import SUIT_LETTERS, CardError, format_discard, parse_hand, popcount
from prefa_sim.stats.odds import (
    DEFENDERS_VIEW,
    LONE_DEFENDER_VIEW,
    grouped,
    suit_splits,
    unseen_by_suit,
)
from prefa_sim.util.jsonl import dumps

from .common import PrefaCommand


@click.command(cls=PrefaCommand)
@click.argument("hand", required=False)
@click.option("--widow", default=None, metavar="CARDS",
              help="The widow's two cards as one word, with HAND (e.g. --widow 7S,8D).")
@click.option("--out", "out", type=click.IntRange(0, 8), default=None,
              help="Cards of one suit the player cannot see.")
@click.option("--lone", is_flag=True,
              help="A lone defender's view: ten cards with the declarer, twelve out of play.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (probabilities as exact "
                                                      "fractions and as numbers).")
def odds(hand, widow, out, lone, as_json):
    """Exact suit splits (hypergeometric) of the cards a player cannot see.

    \b
      prefa odds --out 4                     every split of a suit with 4 cards out
      prefa odds AKQJ9.A.-.KQ87 --widow 7S,8D   the splits of each suit after the widow
      prefa odds T87.AK.KQ.QJ7 --lone        a lone defender's view of the declarer

    The declarer sees twelve cards after the widow; the other twenty lie ten and
    ten with the defenders. A lone defender sees ten; the other twenty-two lie ten
    with the declarer and twelve out of play.
    """
    sizes = LONE_DEFENDER_VIEW if lone else DEFENDERS_VIEW
    names = ("declarer", "out of play") if lone else ("first defender", "second defender")
    if hand is not None and out is not None:
        raise click.UsageError("give a HAND or --out N, not both")
    if hand is None and out is None:
        raise click.UsageError("give a HAND (and --widow), or --out N for one suit")
    if widow and lone:
        raise click.UsageError("--lone is a defender's view: a defender never sees the widow")
    if out is not None:
        if widow:
            raise click.UsageError("--widow goes with a HAND")
        suits = {f"{out} out": out}
    else:
        try:
            own, extra = parse_hand(hand), (parse_hand(widow) if widow else 0)
        except CardError as exc:
            raise click.ClickException(str(exc)) from None
        if own & extra:
            raise click.ClickException(f"{format_discard(own & extra)} in both HAND and "
                                       "--widow")
        known = own | extra
        want = 10 if lone else 12
        if popcount(known) != want:
            seen = ("a lone defender sees ten cards (HAND)" if lone
                    else "the declarer sees twelve cards (HAND and --widow)")
            raise click.ClickException(f"{seen}, got {popcount(known)}")
        suits = {letter: n for letter, n in zip(SUIT_LETTERS, unseen_by_suit(known),
                                                strict=True)}
    if as_json:
        click.echo(dumps({"sizes": list(sizes), "hands": list(names), "suits": {
            name: [{"split": [s.first, s.second], "probability": str(s.probability),
                    "value": float(s.probability)} for s in suit_splits(n, sizes)]
            for name, n in suits.items()}}))
        return
    click.echo(f"unseen cards: {sizes[0]} with the declarer, {sizes[1]} out of play (the "
               "passed defender's and the discards)" if lone else
               f"unseen cards: {sizes[0]} with each defender")
    for name, n in suits.items():
        splits = suit_splits(n, sizes)
        click.echo(f"\n{name if out is not None else f'{name}: {n} out'}")
        click.echo(f"  split  probability  ({names[0]}-{names[1]})")
        for s in splits:
            click.echo(f"  {f'{s.first}-{s.second}':<5}  {100 * float(s.probability):6.2f}%"
                       f"      {s.probability}")
        if not lone and n:
            either = ", ".join(f"{label} {100 * float(p):.1f}%" for label, p in grouped(splits))
            click.echo(f"  either way: {either}")
