"""Perft of international draughts from the start position, side by side: arbiter_draughts
driven from Python (legal moves and push/pop in a Python loop), arbiter_draughts' native perft,
and py-draughts' board (the same Python loop on its ``legal_moves``, ``push`` and ``pop``).

Run it in a virtual environment that has both packages:

    python -m venv /tmp/bench && . /tmp/bench/bin/activate
    pip install ./python py-draughts==1.10.1
    python python/bench/perft.py            # --rounds N (5), --depth D (7), --native-depth D (9)

Each figure is the fastest of ``--rounds`` runs, the libraries taking turns, so that both see
the same load on a busy machine. Leaves per second are the perft count over the time.
"""

from __future__ import annotations

import argparse
import platform
import time
from typing import Any, Callable, Dict, List, Tuple


def perft_bulk(board: Any, depth: int) -> int:
    """Perft with the last ply counted: ``len(legal_moves)``, as perft programs count."""
    moves = board.legal_moves
    if depth == 1:
        return len(moves)
    nodes = 0
    for move in moves:
        board.push(move)
        nodes += perft_bulk(board, depth - 1)
        board.pop()
    return nodes


def perft_full(board: Any, depth: int) -> int:
    """Perft with every leaf reached by a push and taken back by a pop."""
    if depth == 0:
        return 1
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += perft_full(board, depth - 1)
        board.pop()
    return nodes


def fastest(run: Callable[[], int], rounds: int) -> Tuple[int, float]:
    best = float("inf")
    nodes = 0
    for _ in range(rounds):
        start = time.perf_counter()
        nodes = run()
        best = min(best, time.perf_counter() - start)
    return nodes, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=7, help="depth of the Python-loop perfts")
    parser.add_argument("--native-depth", type=int, default=9, help="depth of native perft")
    parser.add_argument("--rounds", type=int, default=5, help="runs of each; the fastest counts")
    args = parser.parse_args()

    import arbiter_draughts as ad
    import draughts

    ours = ad.Board("international")
    theirs = draughts.StandardBoard()
    depth = args.depth

    # The libraries take turns within each round.
    cases: List[Tuple[str, Callable[[], int]]] = [
        ("py-draughts, Python loop, last ply counted", lambda: perft_bulk(theirs, depth)),
        ("arbiter_draughts, Python loop, last ply counted", lambda: perft_bulk(ours, depth)),
        ("py-draughts, Python loop, every leaf pushed", lambda: perft_full(theirs, depth)),
        ("arbiter_draughts, Python loop, every leaf pushed", lambda: perft_full(ours, depth)),
    ]
    best: Dict[str, Tuple[int, float]] = {}
    for _ in range(args.rounds):
        for name, run in cases:
            nodes, seconds = fastest(run, 1)
            if name not in best or seconds < best[name][1]:
                best[name] = (nodes, seconds)
    start = ad.Position("international")
    native_one = fastest(lambda: start.perft(args.native_depth, threads=1), args.rounds)
    native_all = fastest(lambda: start.perft(args.native_depth), args.rounds)

    print(f"Python {platform.python_version()}, {platform.machine()}, "
          f"arbiter_draughts {ad.__version__}, py-draughts {draughts.__version__}")
    print(f"international, start position; fastest of {args.rounds} runs\n")
    print("| perft | depth | leaves | seconds | leaves/s |")
    print("|---|---:|---:|---:|---:|")
    rows = [(name, depth, *best[name]) for name, _ in cases]
    rows.append(("arbiter_draughts, native `Position.perft`, 1 thread", args.native_depth,
                 *native_one))
    rows.append(("arbiter_draughts, native `Position.perft`, every core", args.native_depth,
                 *native_all))
    for name, d, nodes, seconds in rows:
        print(f"| {name} | {d} | {nodes:,} | {seconds:.3f} | {nodes / seconds:,.0f} |")

    def rate(name: str) -> float:
        nodes, seconds = best[name]
        return nodes / seconds

    bulk = rate("arbiter_draughts, Python loop, last ply counted") / rate(
        "py-draughts, Python loop, last ply counted")
    full = rate("arbiter_draughts, Python loop, every leaf pushed") / rate(
        "py-draughts, Python loop, every leaf pushed")
    pushed = rate("py-draughts, Python loop, every leaf pushed")
    counted = rate("py-draughts, Python loop, last ply counted")
    one = native_one[0] / native_one[1]
    every = native_all[0] / native_all[1]
    print()
    print(f"Python loop against py-draughts' own loop: {bulk:.1f}x (last ply counted), "
          f"{full:.1f}x (every leaf pushed)")
    print(f"native perft against py-draughts' push/pop perft (every leaf pushed): "
          f"{one / pushed:,.0f}x (1 thread), {every / pushed:,.0f}x (every core)")
    print(f"native perft against py-draughts' loop with the last ply counted: "
          f"{one / counted:,.0f}x (1 thread), {every / counted:,.0f}x (every core)")


if __name__ == "__main__":
    main()
