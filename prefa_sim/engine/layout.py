"""The layout of the search's arrays: the context, the per-ply work rows, the move groups,
the transposition table's buckets and data word, and the statistics counters."""




CTX_TRUMP, CTX_DECLARER, CTX_ACTIVE, CTX_N_ACTIVE, CTX_GENERATION, CTX_FLAGS = range(6)
CTX_SIZE = 6
FLAG_OVERTRUMP = 1
"""``ctx[CTX_FLAGS]``: no under-trumping (docs/rules.md §7.6): a player void in the suit
led must beat a trump already on the trick when they can (``moves.follow_moves``)."""

MAX_PLY = 34
"""Rows of the work arrays: up to 30 plies below a root with 0-2 trick cards."""

# Columns of the per-ply work array.
(W_PLAYER, W_POS, W_CARD, W_NMOVES, W_IDX, W_TARGET, W_SLOT, W_KEY1, W_KEY2, W_FIRST,
 W_BEST, W_BEST_SEAT, W_TABLE, W_LAZY, W_KILLER, W_REL, W_TRICK_REL, W_SAME) = range(18)
WORK_COLUMNS = 18
# W_SLOT, W_KEY1, W_KEY2: the table bucket, length key and rank key of a searched trick start.
# W_REL: the cards whose ranks the results of the moves tried so far depended on.
# W_TRICK_REL: the same for the trick that the move at that row completed (0 if none).
# W_SAME: cards that give the same result as a card already tried at that row
# (``same_result_cards``).
# W_LAZY: 1 while only the stored lead (W_FIRST) has been listed; the other leads are
# generated only if it fails to decide the node.
# W_BEST, W_BEST_SEAT, W_TABLE: the winning card so far, its seat, and the mask of the
# cards on the table, before the play at that row (meaningful when W_POS > 0).
MAX_MOVES = 10
"""Columns of the move array: a node's moves are up to ``MAX_MOVES`` groups, each a mask of
cards (``CARDS``) and the order to try them in (from bit ``ORDER_SHIFT``), picked one card
at a time (``next_in_group``), so that a node cut off early never orders the rest."""
CARDS = (1 << 32) - 1
ORDER_SHIFT = 32
ORDER_LOW, ORDER_HIGH, ORDER_RANK, ORDER_LONGEST, ORDER_SHORTEST = range(5)
"""Orders within a group: lowest card first; highest first; lowest rank first, any suit;
suit by suit, from the mover's longest (or shortest) suit, lowest card first."""

HASH_MULT = -7046029254386353131  # 0x9E3779B97F4A7C15 as int64

# Columns of the transposition table: the length key, the data word, the rank key
# restricted to the relevant cards, and that restriction's mask.
WAYS = 8
"""Entries per bucket: a row of the table is a bucket."""
T_LENGTHS, T_DATA, T_KEY, T_MASK = 0, WAYS, WAYS + 1, WAYS + 2
"""Columns of each field of way 0 in a bucket: the length key of way ``w`` is at
``T_LENGTHS + w``, so that a probe reads the length keys of all ways from one cache line
(fetched while the trick start's bounds are counted), and its other fields at
``T_* + 3 * w``, side by side, so that a matching way's fields are in one line."""
TABLE_COLUMNS = 4 * WAYS
LENGTH_BITS = (1 << 60) - 1
FIFO_SHIFT = 60  # the next way to replace, kept in the top bits of way 0's length key

# Fields of the data word.
GENERATION_MASK = (1 << 22) - 1
LOWER_SHIFT = 22
UPPER_SHIFT = 26
MOVE_SHIFT = 30  # 1 valid bit, 2 suit bits, 3 relative-rank bits of the lead that cut

STAT_NODES = 0
STAT_TT_HITS = 1
STAT_SEARCHES = 2
STAT_ENDGAME_HITS = 3
STATS_SIZE = 4
