"""Perft and divide against published figures; the endgame tables; long calls run without
the GIL and stop on a signal."""

from __future__ import annotations

import _thread
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

import arbiter_draughts as ad
from conftest import arbiter_binary

# Published perft figures from the start position: International (dctl's perft tests, Aart
# Bik's BikDam) and English draughts (Aart Bik, OEIS A133046), as rules/tests/data/perft.txt
# cites them.
PUBLISHED = {
    "international": [9, 81, 658, 4265, 27117, 167140],
    "english": [7, 49, 302, 1469, 7361, 36768],
}


@pytest.mark.parametrize("variant", sorted(PUBLISHED))
def test_perft_gives_the_published_counts(variant: str) -> None:
    pos = ad.Position(variant)
    assert pos.perft(0) == 1
    for depth, expected in enumerate(PUBLISHED[variant], start=1):
        assert pos.perft(depth) == expected
        assert pos.perft(depth, threads=1) == expected
        assert pos.perft(depth, threads=3) == expected
    result = ad.perft(variant, len(PUBLISHED[variant]))
    assert result.nodes_by_depth == PUBLISHED[variant]
    assert result.nodes == PUBLISHED[variant][-1] and result.divide is None


def test_divide_adds_up() -> None:
    pos = ad.Position("international", "W:WK47:B14,19,29,31,42")
    split = pos.divide(3)
    assert list(split) == pos.legal_moves.notations()
    assert sum(split.values()) == pos.perft(3)
    assert ad.Position().divide(3)["31-26"] == 80
    assert ad.Position().divide(0) == {}


def test_bounds_of_perft() -> None:
    with pytest.raises(ValueError):
        ad.Position().perft(31)
    with pytest.raises(ValueError):
        ad.Position().perft(5, threads=0)
    with pytest.raises(OverflowError):
        ad.Position().perft(-1)
    with pytest.raises(ad.BudgetExceededError) as caught:
        ad.perft("international", 6, budget=10_000)
    assert caught.value.reachable_depth is not None and caught.value.reachable_depth >= 2


def test_perft_releases_the_gil() -> None:
    ticks = 0
    done = threading.Event()

    def count() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    try:
        before = ticks
        ad.Position().perft(9, threads=1)
        during = ticks - before
    finally:
        done.set()
        t.join()
    # Another Python thread ran while the count went on.
    assert during > 5


def test_a_signal_stops_a_long_count() -> None:
    # Python's Ctrl-C handler, also where the suite was started with SIGINT ignored (a shell's
    # background job), in which case interrupt_main would do nothing.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        _interrupted_counts()
    finally:
        signal.signal(signal.SIGINT, previous)


def _interrupted_counts() -> None:
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            # Minutes of work: only the signal ends it.
            ad.Position().perft(14)
    finally:
        timer.cancel()
    with_budget = threading.Timer(0.3, _thread.interrupt_main)
    with_budget.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            ad.perft("international", 14)
    finally:
        with_budget.cancel()


def test_endgame_values_from_the_builtin_tables() -> None:
    e = ad.endgame("english", "B:WK14,K18:BK5")
    assert isinstance(e, ad.EndgameResult)
    assert e.category == "loss" and e.plies == 16 and e.material == "KKvK"
    assert e.side_to_move == "black" and not e.no_legal_moves
    assert [m.move for m in e.moves] == ["5-1", "5-9"]
    assert e.moves[0].category == "win" and e.moves[0].plies == 15
    assert ad.Position("english", "B:WK14,K18:BK5").endgame() == e


def test_endgame_values_under_the_counting_rules() -> None:
    # Two kings against one in Frisian: the lone king must capture at its seventh move, so
    # from the start of the count the win comes in time; one ply of the count spent, the
    # seven-move rule draws it first (a cursed win).
    fresh = ad.endgame("frisian", "W:WK42,K4:BK5")
    assert fresh.category == "win" and fresh.rules is not None
    assert fresh.rules.category == "win" and fresh.rules.differs is None
    assert [c.rule for c in fresh.counts] == ["FRISIAN_2V1_7"]
    assert fresh.counts[0].count == 0 and fresh.counts[0].limit == 14
    late = ad.endgame("frisian", "W:WK42,K4:BK5", counts="FRISIAN_2V1_7:1")
    assert late.category == "win" and late.plies == fresh.plies
    assert late.rules is not None and late.rules.category == "draw"
    assert late.rules.differs == "cursed-win" and late.rules.drawn_by == "FRISIAN_2V1_7"
    assert all(m.rules is not None and m.rules.category != "loss" for m in late.moves)
    tables = ad.EndgameTables()
    assert tables.probe("frisian", "W:WK42,K4:BK5", counts="FRISIAN_2V1_7:1") == late
    with pytest.raises(ad.ArbiterError) as caught:
        ad.endgame("frisian", "W:WK42,K4:BK5", counts="NO_SUCH_RULE:1")
    assert caught.value.code == "invalid-query"


def test_positions_the_tables_cannot_answer() -> None:
    with pytest.raises(ad.EndgameNotInTablesError) as caught:
        ad.endgame("english", "B:W21-32:B1-12")
    assert caught.value.code == "endgame-not-in-tables" and caught.value.material
    assert caught.value.tables is not None and caught.value.tables["builtin_pieces"] == 4
    # A drop game is solved whole: any of its positions is in the tables.
    lahti = ad.endgame("lahti", "B:Wc2,e2:Ba1:S2,3")
    assert lahti.material == "MMMMvMMMM" and lahti.category in ("win", "draw", "loss")
    with pytest.raises(ad.InvalidPositionError):
        ad.endgame("english", "W:W99")


def test_tables_from_a_directory(tmp_path: Path) -> None:
    subprocess.run(
        [str(arbiter_binary()), "tables", "build", "--variant", "english", "--pieces", "3",
         "--out", str(tmp_path)],
        check=True, capture_output=True,
    )
    assert list(tmp_path.glob("english-*.arbtb"))
    tables = ad.EndgameTables(tmp_path, builtin_pieces=0)
    assert tables.prebuilt_count >= 3
    assert "KKvK" in tables.available("english")["prebuilt"]
    from_files = tables.probe("english", "B:WK14,K18:BK5")
    assert from_files == ad.endgame("english", "B:WK14,K18:BK5")
    assert ad.endgame("english", "B:WK14,K18:BK5", tables=tables) == from_files
    # Nothing is computed with builtin_pieces=0: four pieces are outside these tables.
    with pytest.raises(ad.EndgameNotInTablesError):
        tables.probe("english", "B:WK14,K18:BK5,K9")
    judged = ad.judge("english", ["22-17", "3-7", "17-13", "7-3", "18-15"],
                      start="W:WK18,K22:BK3", adjudicate="tables", tables=tables)
    assert judged.reason is not None and judged.reason.code == "ENDGAME_TABLES"
    assert "EndgameTables(" in repr(tables)
    with pytest.raises(OSError):
        ad.EndgameTables(tmp_path / "missing")
