"""Parse and check throughput on the real corpus, every site mixed.

    .venv/bin/python benchmarks/bench_mixed.py [--corpus ../shared/corpus] [--hands 20000]
        [--balanced] [--runs 3] [--sim-hands 4000]

Reads every file of the real hand-history corpus once (``studbook.read``:
bytes, decoding, site detection; the corpus is never copied into the
repository), keeps the files holding stud, stud8 or razz hands, and repeats
their decoded texts in memory into a workload of about ``--hands`` hands.

By default every file is repeated the same number of times, so each site
keeps its real share of the corpus (iPoker's 117-hand tournament and the
PokerStars 8-Game file weigh most) and files keep their real sizes, per-file
costs (detection, splitting) included: the mix a user of this corpus parses.
``--balanced`` repeats each site's files instead until every site holds about
the same number of hands, so slow and fast sites weigh alike.

Then it times, in this single process, CPU time (``time.process_time``: the
machine may be shared), best of ``--runs``:

* parse only: ``studbook.parse_text`` on every text (detection, splitting,
  events), the cyclic GC paused per file as ``studbook.parse.read_file`` does;
* parse + check: the same, then ``check_file_result`` with one table memory
  for the whole run, as ``studbook check`` does.

It prints a table, one row a site (its best run) and one for the whole mix
(the best run in all): files, hands, share of the mix, events per hand (hand
sizes differ: hands/s compares sites only roughly), hands/s of both phases
and each site's share of the CPU time; then the peak resident memory and
the same loop over ``--sim-hands`` simulated PokerStars hands (the tables of
``bench_check.py``, in memory; ``--sim-hands 0`` skips them), and how the
mixed parse + check figure compares with the PokerStars part of the mix and
with the simulated logs.
"""


from __future__ import annotations

import argparse
import gc
import math
import resource
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from studbook.check import TableMemory, check_file_result
from studbook.events import Hand
from studbook.parse import FileResult, parse_text
from studbook.read import decode, detect_format, read_bytes
from studbook.sites import all_sites

DEFAULT_CORPUS = Path("../shared/corpus")
SIMULATED = "PokerStars (simulated)"


@dataclass(frozen=True, slots=True)
class Source:
    """One decoded hand-history file: its site, text and what it holds."""

    site: str
    name: str
    text: str
    hands: int  # stud, stud8 and razz hands parsed
    events: int  # in those hands


@dataclass(slots=True)
class Timing:
    """CPU seconds and hands of one site in one run."""

    hands: int = 0
    seconds: float = 0.0


def load_corpus(root: Path) -> list[Source]:
    """Every corpus file that holds stud hands, decoded and detected once."""
    sources = []
    formats = all_sites()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and not p.name.startswith(".")):
        decoded = decode(read_bytes(path))
        fmt = None if decoded.binary else detect_format(decoded.text, formats)
        if fmt is None:
            continue  # INDEX.tsv, expected outputs, tournament summaries
        name = str(path.relative_to(root))
        parsed = [r for r in parse_text(decoded.text, file=name) if isinstance(r, Hand)]
        if parsed:
            events = sum(len(hand.events) for hand in parsed)
            sources.append(Source(fmt.name, name, decoded.text, len(parsed), events))
    return sources


def build_workload(sources: list[Source], hands: int, balanced: bool = False) -> list[Source]:
    """About ``hands`` hands: the files repeated in corpus order, as a folder walk meets them."""
    if balanced:
        per_site = Counter[str]()
        for source in sources:
            per_site[source.site] += source.hands
        target = hands / len(per_site)
        repeats = {site: max(1, round(target / count)) for site, count in per_site.items()}
        return [s for r in range(max(repeats.values())) for s in sources if r < repeats[s.site]]
    total = sum(s.hands for s in sources)
    return sources * max(1, math.ceil(hands / total))


def simulated_workload(hands: int) -> list[Source]:
    """``hands`` simulated PokerStars hands in files of 500, the tables of bench_check.py."""
    from bench_check import TABLES

    from studbook.simulate import simulate_hands, write_hands

    sources = []
    for number in range(math.ceil(hands / 500)):
        variant, players, tournament, stakes = TABLES[number % len(TABLES)]
        count = min(500, hands - 500 * number)
        batch = list(simulate_hands(variant, count, players, seed=number, tournament=tournament, stakes=stakes))
        events = sum(len(hand.events) for hand in batch)
        sources.append(Source(SIMULATED, f"sim-{number:03d}.txt", write_hands(batch), count, events))
    return sources


def parse_source(source: Source) -> FileResult:
    """``parse_text`` with the cyclic GC paused for the whole file, as ``studbook.parse.read_file`` does."""
    gc.disable()
    try:
        return FileResult(source.name, site=source.site, results=list(parse_text(source.text, file=source.name)))
    finally:
        gc.enable()


def one_run(workload: Iterable[Source], check: bool) -> dict[str, Timing]:
    """Parse (and check) every text once; CPU time and hands per site."""
    timings: dict[str, Timing] = defaultdict(Timing)
    memory = TableMemory()
    clock = time.process_time
    for source in workload:
        start = clock()
        parsed = parse_source(source)
        if check:
            check_file_result(parsed, memory)
        hands = sum(isinstance(r, Hand) for r in parsed.results)  # timed: the GC pass it may start counts
        seconds = clock() - start
        timing = timings[source.site]
        timing.seconds += seconds
        timing.hands += hands
    return timings


def best_of(workload: list[Source], check: bool, runs: int) -> tuple[dict[str, Timing], Timing]:
    """Per site, the run with the least CPU time; and the run with the least in all."""
    best: dict[str, Timing] = {}
    overall = Timing(0, float("inf"))
    for _ in range(runs):
        gc.collect()
        timings = one_run(workload, check)
        for site, timing in timings.items():
            if site not in best or timing.seconds < best[site].seconds:
                best[site] = timing
        overall = min(overall, total(timings), key=lambda t: t.seconds)
    return best, overall


def rate(timing: Timing) -> float:
    return timing.hands / timing.seconds if timing.seconds else 0.0


def total(timings: dict[str, Timing]) -> Timing:
    return Timing(sum(t.hands for t in timings.values()), sum(t.seconds for t in timings.values()))


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: kB


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the table: a site, the whole mix or the simulated logs."""

    label: str
    files: int
    events: int
    parse: Timing
    both: Timing  # parse + check
    hand_share: float | None = None  # of the mix
    cpu_share: float | None = None  # of the mix's parse + check time


HEADER = (f"{'site':24s} {'files':>5s} {'hands':>6s} {'share':>6s} {'ev/hand':>7s} "
          f"{'parse h/s':>9s} {'parse+check h/s':>15s} {'CPU share':>9s}")


def line(row: Row) -> str:
    def share(value: float | None) -> str:
        return f"{value:.1%}" if value is not None else "-"

    hands = row.parse.hands
    return (f"{row.label:24s} {row.files:5d} {hands:6d} {share(row.hand_share):>6s} {row.events / max(hands, 1):7.1f} "
            f"{rate(row.parse):9,.0f} {rate(row.both):15,.0f} {share(row.cpu_share):>9s}")


def site_rows(workload: list[Source], parse: dict[str, Timing], both: dict[str, Timing]) -> list[Row]:
    """One row a site, slowest parse + check first."""
    mix, mix_both = total(parse), total(both)
    rows = []
    for site in sorted(both, key=lambda s: rate(both[s])):
        mine = [s for s in workload if s.site == site]
        rows.append(Row(site, len(mine), sum(s.events for s in mine), parse[site], both[site],
                        parse[site].hands / mix.hands, both[site].seconds / mix_both.seconds))
    return rows


def compare(label: str, mixed: float, reference: float) -> str:
    return f"mixed parse + check {mixed:,.0f} hands/s = {mixed / reference:.0%} of {label} ({reference:,.0f} hands/s)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="the real corpus (default %(default)s)")
    parser.add_argument("--hands", type=int, default=20000, help="about this many hands in the workload")
    parser.add_argument("--balanced", action="store_true", help="the same number of hands for every site")
    parser.add_argument("--runs", type=int, default=3, help="runs of each phase (best CPU time is kept)")
    parser.add_argument("--sim-hands", type=int, default=4000, help="simulated PokerStars hands to compare with (0: none)")
    args = parser.parse_args(argv)
    if not args.corpus.is_dir():
        print(f"corpus not found: {args.corpus} (give --corpus DIR)", file=sys.stderr)
        return 2
    start = time.perf_counter()
    sources = load_corpus(args.corpus)
    workload = build_workload(sources, args.hands, args.balanced)
    print(f"{len(sources)} corpus files with stud hands ({sum(s.hands for s in sources)} hands, "
          f"{len({s.site for s in sources})} sites); workload: {sum(s.hands for s in workload)} hands in "
          f"{len(workload)} texts, {'balanced' if args.balanced else 'corpus proportions'}; "
          f"built in {time.perf_counter() - start:.1f} s")
    base = _rss_mb()
    one_run(sources, check=True)  # warm-up: grammars, rule profiles and caches loaded outside the timing
    (parse, parse_all), (both, both_all) = best_of(workload, False, args.runs), best_of(workload, True, args.runs)
    peak = _rss_mb()
    rows = site_rows(workload, parse, both)
    mix = Row("all sites", len(workload), sum(s.events for s in workload), parse_all, both_all, 1.0, 1.0)
    print(f"CPU time (time.process_time), best of {args.runs} runs, single process\n")
    print("\n".join([HEADER, "-" * len(HEADER), *map(line, rows), "-" * len(HEADER), line(mix)]))
    if args.sim_hands > 0:
        simulated = simulated_workload(args.sim_hands)
        one_run(simulated[:1], check=True)
        (sim_parse, _), (sim_both, _) = best_of(simulated, False, args.runs), best_of(simulated, True, args.runs)
        sim = Row(SIMULATED, len(simulated), sum(s.events for s in simulated), sim_parse[SIMULATED], sim_both[SIMULATED])
        print(line(sim))
    print(f"\npeak memory {peak:.0f} MB resident, +{peak - base:.0f} MB over the loaded workload "
          "(grammars, caches and one file's results)")
    if "pokerstars" in both:
        print(compare("its PokerStars part", rate(both_all), rate(both["pokerstars"])))
    if args.sim_hands > 0:
        print(compare("simulated PokerStars", rate(both_all), rate(sim.both)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
