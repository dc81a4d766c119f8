"""Nothing a caller passes crashes the interpreter: bad input is an exception of its kind,
never a panic (pyo3's PanicException) or an abort."""

from __future__ import annotations

import random
import string

import pytest

import arbiter_draughts as ad

ALPHABET = string.ascii_letters + string.digits + ":,-xX*KkWBSHFLCRN!?/ \t\n\x00é"


def noise(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(n)))


def fen_like(rng: random.Random, variant: ad.Variant) -> str:
    """A FEN of the variant with a few characters changed."""
    fen = list(variant.start_fen + rng.choice(["", ":H3:F2", ":S1,2", ":C1,0", ":R46/2,-"]))
    for _ in range(rng.randrange(4)):
        fen[rng.randrange(len(fen))] = rng.choice(ALPHABET)
    return "".join(fen)


def test_random_fens_are_positions_or_invalid_position() -> None:
    rng = random.Random(1)
    made = refused = 0
    for v in ad.variants():
        for _ in range(150):
            text = fen_like(rng, v) if rng.random() < 0.7 else noise(rng, 60)
            try:
                pos = ad.Position(v, text)
            except ad.InvalidPositionError:
                refused += 1
                continue
            made += 1
            # A position made is usable throughout.
            assert ad.Position(v, pos.fen) == pos
            list(pos.legal_moves)
            pos.status
            pos.svg()
    assert made > 100 and refused > 1000


def test_random_move_texts_are_moves_or_move_errors() -> None:
    rng = random.Random(2)
    for v in ad.variants():
        pos = v.start()
        legal = pos.legal_moves.notations()
        for _ in range(100):
            text = rng.choice(legal) + noise(rng, 3) if rng.random() < 0.5 else noise(rng, 12)
            try:
                pos.play(text)
            except ad.MoveError as e:
                assert e.code in ("illegal-move", "unparsable-move", "ambiguous-move")


def test_hostile_sizes_are_bounded() -> None:
    huge = "W:W" + ",".join(["31"] * 200_000)
    with pytest.raises(ad.InvalidPositionError):
        ad.Position("international", huge)
    with pytest.raises(ad.MoveError):
        ad.Position().play("32-28" * 100_000)
    with pytest.raises(ad.UnknownVariantError) as caught:
        ad.variant("x" * 1_000_000)
    assert len(str(caught.value)) < 2000
    with pytest.raises(ValueError):
        ad.Position().perft(2**31)
    with pytest.raises(OverflowError):
        ad.Position().perft(2**70)
    with pytest.raises(ad.TooManyMovesError):
        ad.judge("international", ["32-28"] * 10**6)
    garbage = ad.judge_pdn("[" * 100_000 + "]" * 100_000)
    assert garbage.summary.games >= 0


def test_wrong_types_are_type_errors() -> None:
    for call in (
        lambda: ad.Position(42),
        lambda: ad.Position("international", 42),
        lambda: ad.Position().play(None),
        lambda: ad.Position().parse_move(b"32-28"),
        lambda: ad.judge("international", None),
        lambda: ad.judge_pdn(None),
        lambda: ad.Position().perft("3"),
        lambda: ad.Position().piece_at(31),
        lambda: ad.EndgameTables(42),
    ):
        with pytest.raises(TypeError):
            call()


def test_random_games_play_to_their_end_in_every_variant() -> None:
    rng = random.Random(3)
    for v in ad.variants():
        board = ad.Board(v)
        for _ in range(120):
            moves = board.legal_moves
            if not moves:
                assert board.is_game_over()
                break
            board.push(rng.choice(list(moves)))
        j = board.judge(budget=None)
        assert j.verdict != "invalid"
        assert j.plies == len(board.move_stack) or j.moves_after_end > 0
        while board.move_stack:
            board.pop()
        assert board.position == v.start()
