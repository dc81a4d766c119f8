"""The catalogue, positions, moves, play and the board, and the exceptions of bad input."""

from __future__ import annotations

import copy
import pickle

import pytest

import arbiter_draughts as ad


def test_version_is_the_workspaces() -> None:
    assert ad.__version__ == "0.1.0"


def test_the_catalogue_has_38_variants_with_their_rules() -> None:
    vs = ad.variants()
    assert len(vs) == 38
    assert vs[0].id == "international"
    ids = [v.id for v in vs]
    assert len(set(ids)) == 38
    intl = ad.variant("international")
    assert intl.name.startswith("International draughts")
    assert intl.first_mover == "white"
    assert intl.start_fen.startswith("W:W31,32")
    assert intl.pdn_game_type and intl.pdn_game_type.startswith("20")
    assert intl.board.width == 10 and intl.board.cells == 50
    assert intl.board.squares == "numeric" and intl.board.layout == "checkered"
    assert [r.code for r in intl.draw_rules][:2] == ["REPETITION", "KINGS_25"]
    assert intl.draw_rules[1].limit == 50 and intl.draw_rules[1].limit_unit == "plies"
    assert intl.end_rules == []
    assert isinstance(intl.rules, dict) and intl.rules
    assert "Standard" in intl.aliases
    assert ad.variant("english").first_mover == "black"
    assert ad.variant("breakthrough").end_rules[0].code == "KING_CROWNED"
    seth = ad.variant("seth").board
    assert seth.layout == "graph" and seth.points and seth.lines
    assert seth.lines[0].from_ and seth.lines[0].to
    assert ad.variant("camelot").board.castles is not None
    assert ad.variant("lahti").info.stones_in_hand == 4


def test_variants_are_found_by_id_and_alias() -> None:
    assert ad.variant("INTERNATIONAL") == ad.variant("international")
    assert ad.variant("standard").id == "international"
    assert ad.variant("Frysk!").id == "frysk"
    assert ad.variant("American/English").id == "english"
    assert ad.Variant("russian") == ad.variant("russian")
    assert hash(ad.variant("russian")) == hash(ad.Variant("Russian"))
    assert ad.variant("russian") != ad.variant("brazilian")
    assert repr(ad.variant("russian")) == "Variant('russian')"
    assert pickle.loads(pickle.dumps(ad.variant("dameo"))) == ad.variant("dameo")


def test_an_unknown_variant_raises_with_the_known_ids() -> None:
    with pytest.raises(ad.UnknownVariantError) as caught:
        ad.variant("chess")
    e = caught.value
    assert e.code == "unknown-variant"
    assert e.status == 404
    assert "international" in e.known_variants and len(e.known_variants) == 38
    assert isinstance(e, LookupError)
    for make in (lambda: ad.Position("chess"), lambda: ad.Board("chess"),
                 lambda: ad.judge("chess", []), lambda: ad.perft("chess", 1)):
        with pytest.raises(ad.UnknownVariantError):
            make()


def test_a_position_from_the_start_or_a_fen() -> None:
    start = ad.Position()
    assert start.variant == ad.variant("international")
    assert start == ad.Position("international")
    assert start.turn == "white"
    assert start.fen == ad.variant("international").start_fen
    assert start == ad.variant("international").start()
    pos = ad.Position("international", "W:W31-50:B1-20")
    assert pos == start and hash(pos) == hash(start)
    assert str(pos) == pos.fen
    assert repr(pos) == f"Position('international', '{pos.fen}')"
    assert pos.counters is None
    with_counters = ad.Position("international", "W:W31-50:B1-20:H2:F5")
    assert with_counters.counters == (2, 5)
    assert with_counters != pos and with_counters.fen.endswith(":H2:F5")
    assert pickle.loads(pickle.dumps(with_counters)) == with_counters
    english = ad.Position(ad.variant("english"))
    assert english.turn == "black"
    assert {english, ad.Position("english")} == {english}


def test_pieces_of_a_position() -> None:
    pos = ad.Position("international", "W:WK47,31:B14,19")
    assert pos.piece_at("47") == ("white", "king")
    assert pos.piece_at("31") == ("white", "man")
    assert pos.piece_at("14") == ("black", "man")
    assert pos.piece_at("1") is None
    assert pos.pieces() == {
        "14": ("black", "man"), "19": ("black", "man"),
        "31": ("white", "man"), "47": ("white", "king"),
    }
    assert ad.Position("russian").piece_at("c3") == ("white", "man")
    assert ad.Position("lahti").hand == (4, 4)
    with pytest.raises(ValueError):
        pos.piece_at("99")


def test_invalid_fens_raise_invalid_position() -> None:
    for fen in ["", "X:W1", "W:W99:B1", "W:W1-20:B11", "W:WK0", "W:W1,1", "B:W" + ",".join(["31"] * 9)]:
        with pytest.raises(ad.InvalidPositionError) as caught:
            ad.Position("international", fen)
        assert caught.value.code == "invalid-position"
        assert caught.value.field == "position"
        assert isinstance(caught.value, ValueError)


def test_legal_moves_with_notation_route_and_captures() -> None:
    pos = ad.Position("international", "W:WK47:B14,19,29,31,42")
    moves = pos.legal_moves
    # Two captures from 47 to 36 that take different pieces: each written in long form.
    assert len(moves) == 2 and bool(moves)
    m = moves[0]
    assert m.notation == "47x38x20x9x36" == m.long
    assert m.from_square == "47" and m.to_square == "36"
    assert m.route == ["47", "38", "20", "9", "36"]
    assert m.captured == ["42", "29", "14", "31"]
    assert m.captures == 4 and not m.promotion and m.kind == "capture"
    assert m.position == pos
    assert m.after.fen == "B:WK36:B19"
    assert moves[1].after.fen == "B:WK36:B14"
    assert m.variant.id == "international"
    assert str(m) == m.notation and repr(m) == "<Move 47x38x20x9x36 (international)>"
    assert m in moves and "47x38x20x9x36" in moves and "47-41" not in moves and 3 not in moves
    assert "47x36" not in moves  # ambiguous: it names both
    assert moves[-1] == moves[1] != m
    with pytest.raises(IndexError):
        moves[2]
    one = ad.Position("international", "W:W28:B23").legal_moves
    assert one.notations() == ["28x19"] and one[0].captured == ["23"] and one[0].long == "28x19"
    start = ad.Position()
    assert start.legal_moves.notations() == [
        "31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"]
    assert [m.notation for m in start.legal_moves] == start.legal_moves.notations()
    assert "31-26" in repr(start.legal_moves)


def test_moves_are_equal_and_hashable() -> None:
    a = ad.Position().legal_moves[3]
    b = ad.Position().parse_move("32-28")
    assert a == b and hash(a) == hash(b)
    assert len({a, b}) == 1
    assert a != ad.Position().legal_moves[0]
    assert a != ad.Position("killer").parse_move("32-28")
    assert pickle.loads(pickle.dumps(a)) == a


def test_other_kinds_of_moves() -> None:
    lahti = ad.Position("lahti")
    drop = lahti.legal_moves[0]
    assert drop.kind == "drop" and drop.notation.startswith("*")
    assert drop.from_square == drop.to_square
    hawaiian = ad.Position("hawaiian")
    removal = hawaiian.legal_moves[0]
    assert removal.kind == "removal" and removal.captures == 0
    dameo = ad.Position("dameo").parse_move("c1-c4")
    assert dameo.kind == "step"
    camelot = ad.Position("camelot")
    assert all(m.kind == "step" for m in camelot.legal_moves)
    # Hageby: a pass when nothing else is legal.
    board = ad.Board("hageby")
    while board.legal_moves and board.legal_moves[-1].kind != "pass":
        board.push(board.legal_moves[0])
        if len(board.move_stack) > 200:
            break
    promoted = ad.Position("international", "W:W6:B40").parse_move("6-1")
    assert promoted.promotion


def test_play_a_move_or_text() -> None:
    start = ad.Position()
    after = start.play("32-28")
    assert after.turn == "black"
    assert after == start.play(start.legal_moves[3]) == start.play("c5-d6".replace("c5-d6", "32-28"))
    assert start.play("32-28") == start.parse_move("32-28").after
    # The long form, algebraic squares.
    assert ad.Position("russian").play("c3-d4") == ad.Position("russian").play("c3d4")
    assert ad.Position("international", "W:WK47:B14,19,29,31,42").play("47x38x20x9x36").fen == "B:WK36:B19"
    # A move of another position of the same variant that is legal here too.
    other = ad.Position("international", "W:W32,45:B1").legal_moves[0]
    assert other.notation == "32-27"
    assert ad.Position().play(other) == ad.Position().play("32-27")


def test_illegal_moves_raise_with_the_rule_they_break() -> None:
    start = ad.Position()
    with pytest.raises(ad.IllegalMoveError) as caught:
        start.play("32-23")
    e = caught.value
    assert e.code == "illegal-move" and e.violation == "too-far"
    assert e.move == "32-23" and e.ply == 1 and e.status == 422
    assert e.legal_moves == start.legal_moves.notations()
    assert isinstance(e, ad.MoveError) and isinstance(e, ValueError)
    with pytest.raises(ad.IllegalMoveError) as caught:
        ad.Position("international", "W:W28:B23,24").play("28-22")
    assert caught.value.violation == "capture-compulsory"
    with pytest.raises(ad.IllegalMoveError) as caught:
        start.play("31-36")
    assert caught.value.violation
    with pytest.raises(ad.UnparsableMoveError) as caught:
        start.play("hello")
    assert caught.value.code == "unparsable-move"
    with pytest.raises(ad.UnparsableMoveError) as caught:
        start.play("32-99")
    assert caught.value.violation == "no-such-square"
    with pytest.raises(ad.AmbiguousMoveError) as caught:
        ad.Position("international", "W:WK47:B14,19,29,31,42").play("47x36")
    assert caught.value.code == "ambiguous-move"
    assert caught.value.candidates == ["47x38x20x9x36", "47x38x24x13x36"]
    # A move of another position, not legal here: the problem of its text.
    elsewhere = ad.Position("international", "W:W28:B23").legal_moves[0]
    with pytest.raises(ad.IllegalMoveError):
        start.play(elsewhere)
    # A move of another variant.
    with pytest.raises(ValueError):
        ad.Position("killer").play(start.legal_moves[0])
    with pytest.raises(TypeError):
        start.play(32)


def test_status_of_a_position() -> None:
    assert ad.Position().status == ad.Status(state="ongoing", reason=None)
    assert not ad.Position().is_game_over()
    over = ad.Position("international", "B:W19:B")
    assert over.is_game_over()
    assert over.status.state == "white_wins" and over.status.reason in ("NO_LEGAL_MOVES", "NO_PIECES")
    crowned = ad.Position("breakthrough", "B:WK1:B20")
    assert crowned.status.reason == "KING_CROWNED"


def test_a_board_pushes_and_pops() -> None:
    board = ad.Board("english")
    assert board.turn == "black" and board.move_stack == []
    m = board.push("11-15")
    assert m.notation == "11-15" and board.peek() == m
    n = board.push(board.legal_moves[0])
    assert board.move_stack == [m, n]
    assert board.position == ad.Position("english").play("11-15").play(n.notation)
    assert board.pop() == n and board.pop() == m
    assert board.position == board.root() == ad.Position("english")
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(IndexError):
        board.peek()
    board.push("11-15")
    copied = board.copy()
    copied.push(copied.legal_moves[0])
    assert len(board.move_stack) == 1 and len(copied.move_stack) == 2
    assert copy.copy(board) == board
    board.reset()
    assert board.move_stack == [] and board.position == board.root()
    with pytest.raises(TypeError):
        hash(board)
    assert repr(board).startswith("Board('english', ")


def test_an_illegal_push_leaves_the_board_as_it_was() -> None:
    board = ad.Board()
    board.push("32-28")
    before = board.fen
    with pytest.raises(ad.IllegalMoveError):
        board.push("32-28")
    # A move listed for an equal position made elsewhere is legal here too.
    same = ad.Position().play("32-28").legal_moves[0]
    assert board.push(same) == same
    board.pop()
    with pytest.raises(ad.MoveError):
        board.push(ad.Position("international", "W:W28:B23").legal_moves[0])
    assert board.fen == before and len(board.move_stack) == 1


def test_a_board_from_a_fen_and_its_game_over() -> None:
    board = ad.Board("international", "W:W28:B23")
    board.push("28x19")
    assert board.is_game_over()
    assert board.status.state == "white_wins"
    j = board.judge("2-0")
    assert j.verdict == "white_wins" and j.agreement is not None and j.agreement.agrees is True
    assert ad.variant("international").board_at("W:W28:B23").fen == ad.Board("international", "W:W28:B23").fen


def test_svg_diagrams() -> None:
    svg = ad.Position().svg()
    assert svg.startswith("<svg") and 'data-square="32"' in svg
    marked = ad.Position("international", "W:WK47:B14,19,29,31,42").svg("47x38x20x9x36", coordinates=True)
    assert marked != ad.Position("international", "W:WK47:B14,19,29,31,42").svg()
    assert ad.diagram("seth").startswith("<svg")
    with pytest.raises(ad.IllegalMoveError):
        ad.Position().svg("32-23")
