"""The vocabulary of solve requests, one for every reader of them.

A request line is read by one of three paths: straight from its bytes (``fast``, the
commonest lines of a file), from its decoded object without checks the solver does not
need (``bulk.quick_request``), or by the one checker, ``solve.parse_request``.  The first
two only ever accept a line: one they do not take, for whatever reason, goes on to the
checker, so that every error a user sees is said in one place and in one way.  All three
read the fields and spellings below.
"""

from __future__ import annotations

from ..core.cards import Strain

REQUEST_FIELDS = frozenset({"hands", "trump", "declarer", "leader", "active", "dealer", "widow",
                            "trick", "cards", "line", "rules"})
"""The fields a solve request may set; other fields are the request's own, echoed back."""


PLAIN_FIELDS = ("hands", "trump", "declarer", "leader", "active", "dealer", "widow")
"""The fields of a plain request (one the fast paths may take): a deal or position, with no
trick on the table, card values or play line asked."""

ANSWER_FIELDS = ("declarer_tricks", "to_move", "card_values", "play_line", "best_tricks",
                 "best_discards", "strains", "contract", "contract_discard")
"""Fields an answer adds: dropped from a request that carries them, so that an old
answer fed back as a request is answered afresh."""

STRAIN_SPELLINGS = {"S": Strain.S, "s": Strain.S, "C": Strain.C, "c": Strain.C,
                    "D": Strain.D, "d": Strain.D, "H": Strain.H, "h": Strain.H,
                    "NT": Strain.NT, "nt": Strain.NT, "Nt": Strain.NT, "N": Strain.NT,
                    "n": Strain.NT}
"""Every spelling of a strain that a batch request may use (two letters at most)."""
