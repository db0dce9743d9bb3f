"""What a run folder holds, for its readers: what made the dataset, whether the run is
finished, and what every summary of it must say."""

from __future__ import annotations

from pathlib import Path

from ..core.cards import format_hand
from ..dealing.scenario import Scenario, parse_scenario
from ..util.words import counted
from .chunks import written_chunks
from .config import RunConfig, RunError, read_manifest
from .run_folder import MANIFEST


def describe_run(out_dir: str | Path) -> list[tuple[str, str]]:
    """What made the dataset in ``out_dir``, as (label, text) pairs for a reader: the
    scenario, the seed, the deals and what was studied; empty when it has no run record."""
    try:
        config = read_manifest(out_dir) if Path(out_dir).is_dir() else None
    except RunError:
        return [("run record", f"{Path(out_dir) / MANIFEST} cannot be read: the figures "
                               "below come from the part files alone")]
    if config is None:
        return []
    about = [("deals", f"{config.deals:,}")]
    unfinished = _unfinished(Path(out_dir), config)
    if unfinished:
        about.append(("unfinished", unfinished))
    if config.replay:
        about.append(("deals from", "a replayed file (their own dealers)"))
    else:
        scenario = parse_scenario(config.scenario) if config.scenario else Scenario()
        about += [("seed", str(config.seed)), ("scenario", scenario.name),
                  ("description", scenario.description), ("dealer", f"seat {scenario.dealer}")]
        about += [(f"fixed ({role})", format_hand(mask)) for role, mask in
                  scenario.fixed.items() if mask]
        about += [("constraint", c.text) for c in scenario.constraints]
    about += [("declaring seats", ", ".join(map(str, config.declarers))),
              ("strains", ", ".join(config.strains)), ("defence modes", ", ".join(config.modes))]
    if config.rules != "default":
        about.append(("rules", config.rules))
    return about


def _unfinished(out_dir: Path, config: RunConfig) -> str | None:
    """How much of an unfinished run is written, and how to finish it (None: finished)."""
    written = len(written_chunks(out_dir, config))
    if written == config.chunks:
        return None
    command = "games" if config.players else "simulate"
    return (f"{written} of {counted(config.chunks, 'chunk')} written; finish with prefa "
            f"{command} -o {out_dir} --resume")


def dataset_notes(out_dir: str | Path, split_by_declarer: bool = False) -> list[str]:
    """What every summary of the dataset in ``out_dir`` must say of it: that the run is
    unfinished (its figures cover the chunks written), and that rows of more than one
    declaring seat are pooled (unless the summary is ``split_by_declarer``).  Empty for
    a file, or a folder without a readable run record."""
    try:
        config = read_manifest(out_dir) if Path(out_dir).is_dir() else None
    except RunError:
        return []
    if config is None:
        return []
    notes = []
    unfinished = _unfinished(Path(out_dir), config)
    if unfinished:
        notes.append(f"an unfinished run: {unfinished}")
    if config.rules != "default":
        notes.append(f"played under the rules {config.rules} (docs/rules.md §7.6)")
    if not config.players and len(config.declarers) > 1 and not split_by_declarer:
        seats = ", ".join(map(str, config.declarers))
        notes.append(f"rows pooled over the declaring seats {seats}: declarer or position "
                     "in --by or --where tells them apart")
    return notes


def dataset_caption(out_dir: str | Path) -> str:
    """The scenario behind a dataset and its ``dataset_notes``, for a figure's footnote."""
    return "; ".join([scenario_name(out_dir), *dataset_notes(out_dir)])


def scenario_name(out_dir: str | Path) -> str:
    """The name of the scenario behind a dataset, for captions."""
    about = dict(describe_run(out_dir))
    if "deals" not in about:
        return "as in the dataset"
    return about.get("scenario", "replayed deals")


def is_finished(out_dir: str | Path, config: RunConfig) -> bool:
    """Does ``out_dir`` hold this run, every chunk written?"""
    out_dir = Path(out_dir)
    try:
        recorded = read_manifest(out_dir)
    except (RunError, OSError):
        return False
    return recorded == config and len(written_chunks(out_dir, config)) == config.chunks
