"""Hand-evaluation benchmark: seven-card evaluations per second, scalar and batch.

    .venv/bin/python benchmarks/bench_evaluate.py [--batch 1000000] [--scalar 200000]
                                                  [--repeat 3] [--cards 7] [--compare]

Scalar: ``high_value`` / ``low_a5_value`` / ``low8_value`` called once per hand
on lists of :class:`Card` (what the engine does at a showdown). Batch:
``high_values`` / ``low_a5_values`` / ``low8_values`` on an ``(n, 7)`` int8 array
of card indices. The best of ``--repeat`` runs is reported; the one-off table
build (on first use) is timed separately. ``--compare`` also times the
libraries that were considered (eval7, phevaluator, pokerkit) when importable:
high hands only, since eval7 and phevaluator have no A-5 or 8-or-better low.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any, Callable, Sequence

import numpy as np

from studbook.cards import DECK, Card

TARGET = 1_000_000  # seven-card high evaluations per second, the floor


def best_of(repeat: int, run: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def report(name: str, count: int, seconds: float) -> float:
    rate = count / seconds
    print(f"  {name:<28} {rate:>14,.0f} /s   {seconds / count * 1e6:8.3f} µs each")
    return rate


def scalar_loop(
    evaluate: Callable[[Sequence[Any]], object], hands: Sequence[Any]
) -> Callable[[], None]:
    def run() -> None:
        for hand in hands:
            evaluate(hand)

    return run


def compare(hands: list[list[Card]], repeat: int) -> None:
    print("other libraries, scalar high (for the record):")
    text = [[str(card) for card in hand] for hand in hands]
    try:
        import eval7

        converted = [[eval7.Card(c) for c in hand] for hand in text]
        run = scalar_loop(eval7.evaluate, converted)
        report("eval7.evaluate", len(hands), best_of(repeat, run))
    except ImportError:
        print("  eval7: not installed")
    try:
        from phevaluator import evaluate_cards

        def ph(hand: Sequence[str]) -> int:
            return int(evaluate_cards(*hand))

        report("phevaluator.evaluate_cards", len(hands), best_of(repeat, scalar_loop(ph, text)))
    except ImportError:
        print("  phevaluator: not installed")
    try:
        from pokerkit import StandardHighHand

        joined = ["".join(hand) for hand in text[:2000]]
        run = scalar_loop(StandardHighHand.from_game, joined)
        report("pokerkit StandardHighHand", len(joined), best_of(1, run))
    except ImportError:
        print("  pokerkit: not installed")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--batch", type=int, default=1_000_000, help="hands in the batch run")
    parser.add_argument("--scalar", type=int, default=200_000, help="hands in the scalar run")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cards", type=int, default=7, choices=(5, 6, 7))
    parser.add_argument(
        "--compare", action="store_true", help="also time eval7, phevaluator, pokerkit"
    )
    args = parser.parse_args()

    start = time.perf_counter()
    from studbook import evaluate
    from studbook.evaluate import batch as batch_module
    from studbook.evaluate.scalar import tables

    imported = time.perf_counter()
    tables()
    built = time.perf_counter()
    batch_module.high_values(np.arange(7, dtype=np.int8).reshape(1, 7))  # builds the batch index
    indexed = time.perf_counter()
    print(
        f"import {imported - start:.3f} s; tables {built - imported:.3f} s; "
        f"batch index {indexed - built:.3f} s"
    )

    rng = random.Random(7)
    hands = [rng.sample(DECK, args.cards) for _ in range(args.scalar)]
    print(f"scalar, {args.scalar:,} random {args.cards}-card hands of Card:")
    rates = {
        f.__name__: report(f.__name__, len(hands), best_of(args.repeat, scalar_loop(f, hands)))
        for f in (evaluate.high_value, evaluate.low_a5_value, evaluate.low8_value)
    }

    generator = np.random.default_rng(7)
    idx = np.argsort(generator.random((args.batch, 52)), axis=1)[:, : args.cards].astype(np.int8)
    print(f"batch, ({args.batch:,}, {args.cards}) int8 card indices:")
    for f in (evaluate.high_values, evaluate.low_a5_values, evaluate.low8_values):
        rates[f.__name__] = report(
            f.__name__, args.batch, best_of(args.repeat, lambda f=f: f(idx))  # type: ignore[misc]
        )
    convert = best_of(1, lambda: evaluate.hand_indices(hands))
    report("hand_indices (Card -> array)", len(hands), convert)

    if args.compare:
        compare(hands[:50_000], args.repeat)
    batch_rate = rates["high_values"]
    verdict = "meets" if batch_rate >= TARGET else "MISSES"
    print(
        f"batch high {batch_rate:,.0f}/s {verdict} the {TARGET:,}/s target; "
        f"scalar high {rates['high_value']:,.0f}/s"
    )
    return 0 if batch_rate >= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
