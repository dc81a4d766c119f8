"""Judging games, PDN texts and PDN files streamed game by game."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Iterator, List

import pytest

import arbiter_draughts as ad

SHUFFLE = ["50-44", "1-7", "44-50", "7-1", "50-44", "1-7", "44-50", "7-1"]


def test_a_game_judged_with_its_verdict_reason_and_counters() -> None:
    j = ad.judge("international", SHUFFLE, start="W:WK50:BK1", declared_result="1-1")
    assert isinstance(j, ad.Judgement)
    assert j.verdict == "draw" and j.result == "1-1"
    assert j.reason is not None and j.reason.code == "REPETITION"
    assert j.plies == 8 and j.decided_at_ply == 8 and j.moves_after_end == 0
    assert j.final_position == "W:WK50:BK1" and j.side_to_move == "white"
    assert j.agreement is not None and j.agreement.agrees is True
    assert [c.code for c in j.draw_counters] == [r.code for r in ad.variant("international").draw_rules]
    repetition = j.draw_counters[0]
    assert repetition.count == 3 and repetition.limit == 3 and repetition.limit_unit == "occurrences"
    assert j.to_dict()["verdict"] == "draw"


def test_moves_as_objects_and_texts() -> None:
    board = ad.Board()
    moves = [board.push(t) for t in ["32-28", "19-23", "28x19", "14x23"]]
    by_objects = ad.judge("international", moves)
    by_text = ad.judge(ad.variant("international"), ["32-28", "19-23", "28x19", "14x23"])
    assert by_objects == by_text
    assert by_text.verdict == "undecided" and by_text.result == "*"
    assert by_text.moves == ["32-28", "19-23", "28x19", "14x23"]


def test_an_illegal_move_is_the_verdict_invalid() -> None:
    j = ad.judge("international", ["32-28", "19-23", "33-29"])
    assert j.verdict == "invalid"
    assert j.invalid_move is not None
    assert j.invalid_move.ply == 3 and j.invalid_move.code == "illegal-move"
    assert j.invalid_move.violation == "capture-compulsory"
    assert j.invalid_move.legal_moves == ["28x19"]


def test_claimable_draws_and_conventions() -> None:
    shuffle = ["32-28", "1-5", "28-32", "5-1", "32-28", "1-5", "28-32", "5-1"]
    j = ad.judge("english", shuffle, start="W:WK32:BK1", declared_result="1/2-1/2")
    assert j.verdict == "undecided"
    assert [c.code for c in j.claimable_draws] == ["REPETITION"]
    assert j.agreement is not None and j.agreement.agrees is True
    white_first = ad.judge("english", ["11-15"], start="B:W21-32:B1-12",
                           declared_result="1-0", result_convention="white-first")
    assert white_first.declared_result == "1-0"


def test_adjudication_by_tables_and_a_move_limit() -> None:
    j = ad.judge("english", ["22-17", "3-7", "17-13", "7-3", "18-15"], start="W:WK18,K22:BK3",
                 adjudicate="tables")
    assert j.verdict == "white_wins"
    assert j.reason is not None and j.reason.code == "ENDGAME_TABLES" and j.reason.material == "KKvK"
    limited = ad.judge("english", ["11-15", "23-19", "8-11", "22-17"], max_plies=3)
    assert limited.verdict == "draw" and limited.reason is not None
    assert limited.reason.code == "MOVE_LIMIT" and limited.reason.move_limit == 3
    assert limited.moves_after_end == 1
    with_pdn = ad.judge("international", ["32-28", "19-23"], include_pdn=True)
    assert with_pdn.pdn is not None and "32-28 19-23" in with_pdn.pdn


def test_bad_options_raise() -> None:
    with pytest.raises(ValueError):
        ad.judge("international", [], declared_result="white")
    with pytest.raises(ValueError):
        ad.judge("international", [], result_convention="black-first")
    with pytest.raises(ValueError):
        ad.judge("international", [], adjudicate="engine")
    for limit in (0, 1001):
        with pytest.raises(ValueError):
            ad.judge("international", [], max_plies=limit)
    with pytest.raises(TypeError):
        ad.judge("international", "32-28 19-23")
    with pytest.raises(TypeError):
        ad.judge("international", [32])
    with pytest.raises(ad.InvalidPositionError) as caught:
        ad.judge("international", [], start="W:W99")
    assert caught.value.field == "start_position"


def test_too_many_moves_and_the_budget() -> None:
    with pytest.raises(ad.TooManyMovesError) as caught:
        ad.judge("international", ["32-28"] * 1001)
    assert caught.value.limit == 1000
    # An iterator is counted as it is read.
    with pytest.raises(ad.TooManyMovesError):
        ad.judge("international", (t for t in ["32-28"] * 5000))
    with pytest.raises(ad.BudgetExceededError) as caught:
        ad.judge("international", ["32-28", "19-23", "28x19"], budget=5)
    assert caught.value.code == "budget-exceeded" and caught.value.limit == 5
    assert ad.judge("international", ["32-28"], budget=None).plies == 1


def test_pdn_text_judged_game_by_game(pdn_dir: Path) -> None:
    text = (pdn_dir / "mixed.pdn").read_text(encoding="utf-8", errors="replace")
    answer = ad.judge_pdn(text)
    assert isinstance(answer, ad.PdnJudgement)
    assert answer.summary.games == len(answer.games) > 0
    assert answer.summary.judged + answer.summary.errors == answer.summary.games
    for i, g in enumerate(answer.games):
        assert g.index == i and g.line >= 1
        assert (g.outcome == "judged") == (g.error is None)
    assert ad.judge_pdn(text.encode()) == answer
    russian = ad.judge_pdn(text, variant="russian")
    assert all(g.variant in (None, "russian") for g in russian.games)


def test_strict_reading() -> None:
    bad = '[GameType 20]\n1. 32-28 *\n'
    with pytest.raises(ad.PdnSyntaxError) as caught:
        ad.judge_pdn(bad, strict=True)
    assert caught.value.line is not None and caught.value.rule
    streamed = list(ad.read_pdn(io.BytesIO(bad.encode()), strict=True))
    assert streamed[0].error is not None and streamed[0].error.code == "pdn-syntax"
    assert ad.judge_pdn(bad).games[0].outcome == "judged"


def test_a_file_read_from_a_path_or_a_file_object(games_dir: Path) -> None:
    path = sorted((games_dir / "english").glob("*.pdn"))[0]
    from_path = [g.to_dict() for g in ad.read_pdn(path)]
    from_str = [g.to_dict() for g in ad.read_pdn(str(path))]
    with open(path, "rb") as f:
        from_binary = [g.to_dict() for g in ad.read_pdn(f)]
    with open(path, encoding="latin-1") as f:
        text = f.read()
    from_text = [g.to_dict() for g in ad.read_pdn(io.StringIO(text))]
    assert from_path == from_str == from_binary
    assert len(from_text) == len(from_path)
    assert [g.get("verdict") for g in from_text] == [g.get("verdict") for g in from_path]
    games = ad.read_pdn(path)
    first = next(games)
    assert first.index == 0 and games.summary.games == 1
    rest = list(games)
    assert games.summary.games == 1 + len(rest) == len(from_path)
    with ad.read_pdn(path) as games:
        next(games)
    assert list(games) == []
    with pytest.raises(FileNotFoundError):
        ad.read_pdn(games_dir / "no-such-file.pdn")
    with pytest.raises(TypeError):
        ad.read_pdn(42)


class Endless(io.RawIOBase):
    """A file of `count` copies of one game, made as it is read."""

    def __init__(self, game: bytes, count: int) -> None:
        self.game, self.left, self.reads = game, count, 0

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:
        self.reads += 1
        out = bytearray()
        while self.left and len(out) < max(n, 1):
            out += self.game
            self.left -= 1
        return bytes(out)


def test_an_archive_is_judged_as_it_is_read() -> None:
    game = b'[GameType "20"]\n[Result "2-0"]\n\n1. 32-28 19-23 2. 28x19 14x23 2-0\n\n'
    source = Endless(game, 20_000)
    games = ad.read_pdn(source)
    first = next(games)
    assert first.verdict == "undecided"
    # One game judged: only the first chunk has been read.
    assert source.reads == 1 and source.left > 15_000
    count = 1 + sum(1 for _ in games)
    assert count == 20_000
    assert games.summary.games == 20_000 and games.summary.judged == 20_000


def test_a_game_too_large_is_an_entry_and_reading_goes_on() -> None:
    big = b'[GameType "20"]\n\n1. ' + b"32-28 28-32 " * 100_000 + b"*\n\n"
    small = b'[GameType "20"]\n\n1. 32-28 *\n'
    entries = list(ad.read_pdn(io.BytesIO(big + small)))
    assert entries[0].error is not None and entries[0].error.code == "payload-too-large"
    assert entries[-1].outcome == "judged"


def test_a_game_over_its_budget_is_an_entry() -> None:
    short = '[GameType "20"]\n\n1. 32-28 19-23 *\n\n'
    board = ad.Board()
    for _ in range(80):
        if not board.legal_moves:
            break
        board.push(board.legal_moves[len(board.move_stack) % len(board.legal_moves)])
    long = '[GameType "20"]\n\n' + " ".join(m.notation for m in board.move_stack) + " *\n\n"
    entries = list(ad.read_pdn(io.StringIO(short + long + short), budget=1_000))
    assert [e.outcome for e in entries] == ["judged", "error", "judged"]
    assert entries[1].error is not None and entries[1].error.code == "budget-exceeded"
    # A game's budget is its own: with enough, every game is judged.
    assert [e.outcome for e in ad.read_pdn(io.StringIO(short + long + short))] == ["judged"] * 3
