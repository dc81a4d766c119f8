"""The package answers as the HTTP API does on the same inputs: a running `arbiter serve` is
asked the same questions (see conftest.py).

- the legal moves of positions of seeded random games in every family (diagonal boards,
  orthogonal boards, graph boards, drop games, opening removals, the Camelot family), read
  from the Python objects (notation, route, captured squares, the position after each move);
- play, judge, perft, diagram, endgame tables, the catalogue;
- the verdicts of every real game of ``tests/data/games/``;
- the problem documents of bad input.
"""

from __future__ import annotations

import random
import urllib.parse
import zlib
from pathlib import Path
from typing import Any, Dict, List

import pytest

import arbiter_draughts as ad

# Several variants of every family: diagonal (men and flying kings, Frisian's king runs,
# Breakthrough's end rule), orthogonal (Turkish, Dameo's line moves), graph boards
# (Alquerque's no-return rule, Seth's goals), drops (Hageby's passes, Lahti, Vilbergen),
# opening removals (Hawaiian), the Camelot family (canters, charges, castles).
FAMILIES = [
    "international",
    "english",
    "russian",
    "brazilian",
    "frisian",
    "czech",
    "italian",
    "pool",
    "thai",
    "breakthrough",
    "frysk",
    "turkish",
    "dameo",
    "gothic",
    "alquerque-brainking",
    "seth",
    "hageby",
    "lahti",
    "vilbergen",
    "hawaiian",
    "camelot",
    "cam",
]


def random_positions(variant: str, games: int, plies: int, seed: int) -> List[ad.Position]:
    """Positions of seeded random games, each move chosen among the legal ones."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        pos = ad.Position(variant)
        for _ in range(plies):
            out.append(pos)
            moves = list(pos.legal_moves)
            if not moves:
                break
            pos = rng.choice(moves).after
    return out


def move_fields(m: ad.Move) -> Dict[str, Any]:
    """A move as the /moves answer lists it, read from the Move object's attributes."""
    return {
        "notation": m.notation,
        "long": m.long,
        "from": m.from_square,
        "to": m.to_square,
        "route": m.route,
        "captured": m.captured,
        "captures": m.captures,
        "promotion": m.promotion,
        "resulting_position": m.after.fen,
    }


@pytest.mark.parametrize("variant", FAMILIES)
def test_moves_of_random_positions_are_the_apis(api, variant: str) -> None:
    positions = random_positions(variant, games=3, plies=40, seed=zlib.crc32(variant.encode()))
    assert len(positions) >= 20
    for pos in positions:
        body = api.ok(api.get(f"/v1/variants/{variant}/moves", position=pos.fen))
        assert body["position"] == pos.fen
        assert body["side_to_move"] == pos.turn
        assert body["status"] == pos.status.to_dict()
        assert [move_fields(m) for m in pos.legal_moves] == body["moves"], pos.fen
        assert len(pos.legal_moves) == len(body["moves"])
        assert [m.to_dict() for m in pos.legal_moves] == body["moves"]
        assert pos.to_dict() == body


@pytest.mark.parametrize("variant", ["international", "english", "frisian", "lahti", "camelot"])
def test_play_is_the_apis(api, variant: str) -> None:
    rng = random.Random(7)
    board = ad.Board(variant)
    texts = []
    for _ in range(30):
        moves = list(board.legal_moves)
        if not moves:
            break
        move = rng.choice(moves)
        # Play by text, as a client sends it: the long form.
        board.push(move.long)
        texts.append(move.long)
    body = api.ok(api.post(f"/v1/variants/{variant}/play", {"moves": texts}))
    assert body["position"] == board.fen
    assert body["moves"] == [m.notation for m in board.move_stack]
    assert body["side_to_move"] == board.turn
    assert body["status"] == board.status.to_dict()


def test_counters_are_carried_as_the_api_carries_them(api) -> None:
    fen = "W:W31-50:B1-20:H3:F7"
    pos = ad.Position("international", fen)
    assert pos.counters == (3, 7)
    body = api.ok(api.get("/v1/variants/international/moves", position=fen))
    assert [move_fields(m) for m in pos.legal_moves] == body["moves"]
    played = pos.play("32-28").play("19-23")
    body = api.ok(
        api.post("/v1/variants/international/play", {"position": fen, "moves": ["32-28", "19-23"]})
    )
    assert body["position"] == played.fen


JUDGE_CASES = [
    ("international", {"start_position": "W:W28:B23", "moves": ["28x19"], "declared_result": "2-0"}),
    (
        "english",
        {
            "start_position": "W:WK32:BK1",
            "moves": ["32-28", "1-5", "28-32", "5-1", "32-28", "1-5", "28-32", "5-1"],
            "declared_result": "draw",
        },
    ),
    (
        "international",
        {
            "start_position": "W:WK50:BK1",
            "moves": ["50-44", "1-7", "44-50", "7-1", "50-44", "1-7", "44-50", "7-1", "50-44"],
            "declared_result": "1-1",
        },
    ),
    (
        "english",
        {
            "start_position": "W:WK18,K22:BK3",
            "moves": ["22-17", "3-7", "17-13", "7-3", "18-15"],
            "adjudicate": "tables",
        },
    ),
    ("international", {"moves": ["32-28", "19-23", "28x19", "14x23"], "include_pdn": True}),
    ("international", {"moves": ["32-28", "19-23", "28-22"]}),
    ("international", {"moves": ["32-28", "19-23", "33-29"]}),
    ("english", {"moves": ["11-15", "23-19", "8-11", "22-17"], "max_plies": 3}),
    ("english", {"moves": ["11-15", "23-19"], "declared_result": "1-0", "result_convention": "white-first"}),
    ("frisian", {"moves": ["32-28", "19-23", "28x19", "14x23", "31-26"]}),
    ("lahti", {"moves": ["*c2", "*a1", "*e2"]}),
    ("russian", {"moves": ["c3-d4", "f6-g5", "zz"]}),
]


@pytest.mark.parametrize("variant,body", JUDGE_CASES)
def test_judge_is_the_apis(api, variant: str, body: Dict[str, Any]) -> None:
    expected = api.ok(api.post(f"/v1/variants/{variant}/judge", body))
    j = ad.judge(
        variant,
        body["moves"],
        start=body.get("start_position"),
        declared_result=body.get("declared_result"),
        result_convention=body.get("result_convention", "first-mover"),
        adjudicate=body.get("adjudicate"),
        max_plies=body.get("max_plies"),
        include_pdn=body.get("include_pdn", False),
    )
    assert j.to_dict() == expected
    assert j.verdict == expected["verdict"]
    assert (j.reason.code if j.reason else None) == (
        expected["reason"]["code"] if expected["reason"] else None
    )
    assert [c.to_dict() for c in j.draw_counters] == expected["draw_counters"]


def test_board_judge_is_the_apis(api) -> None:
    board = ad.Board("international", "W:WK50:BK1")
    for text in ["50-44", "1-7", "44-50", "7-1", "50-44", "1-7", "44-50", "7-1"]:
        board.push(text)
    j = board.judge("1-1")
    expected = api.ok(
        api.post(
            "/v1/variants/international/judge",
            {
                "start_position": "W:WK50:BK1",
                "moves": [m.notation for m in board.move_stack],
                "declared_result": "1-1",
            },
        )
    )
    assert j.to_dict() == expected
    assert j.verdict == "draw" and j.reason is not None and j.reason.code == "REPETITION"


def game_files(games_dir: Path) -> List[Path]:
    files = sorted(games_dir.rglob("*.pdn"))
    assert len(files) >= 50, files
    return files


def test_verdicts_of_the_real_games_are_the_apis(api, games_dir: Path) -> None:
    """Every game of tests/data/games/ (a folder per variant), judged from the file
    (read_pdn, streamed) and from its text (judge_pdn), against the NDJSON stream of POST
    /v1/judge/pdn."""
    games = 0
    verdicts: Dict[str, int] = {}
    for path in game_files(games_dir):
        variant = path.parent.name
        lines = api.ndjson(path.read_bytes(), variant=variant)
        summary = lines.pop()["summary"]
        streamed = [g.to_dict() for g in ad.read_pdn(path, variant=variant)]
        assert streamed == lines, path.name
        whole = ad.judge_pdn(path.read_bytes(), variant=variant)
        assert [g.to_dict() for g in whole.games] == lines, path.name
        assert whole.summary.to_dict() == summary
        games += len(lines)
        for g in whole.games:
            key = g.verdict or f"error {g.error.code if g.error else ''}"
            verdicts[key] = verdicts.get(key, 0) + 1
    # The archive as the README of tests/data/games counts it: 4249 games, every verdict.
    assert games == 4249, games
    for verdict in ("white_wins", "black_wins", "draw", "undecided", "invalid"):
        assert verdicts.get(verdict, 0) > 0, verdicts


def test_file_judging_with_options_is_the_apis(api, pdn_dir: Path) -> None:
    text = (pdn_dir / "mixed.pdn").read_bytes()
    params = {"result_convention": "white-first", "include_pdn": True, "adjudicate": "tables"}
    expected = api.ok(
        api.request("POST", "/v1/judge/pdn", params=params, data=text,
                    headers={"content-type": "text/plain"})[:2]
    )
    got = ad.judge_pdn(text, result_convention="white-first", include_pdn=True, adjudicate="tables")
    assert got.to_dict() == expected
    expected = api.ok(
        api.request("POST", "/v1/judge/pdn", params={"variant": "russian"}, data=text,
                    headers={"content-type": "text/plain"})[:2]
    )
    assert ad.judge_pdn(text, variant="russian").to_dict() == expected


@pytest.mark.parametrize(
    "variant,fen,depth",
    [
        ("international", None, 3),
        ("english", "B:W21-32:B1-12", 4),
        ("frisian", None, 3),
        ("hageby", None, 4),
        ("camelot", None, 2),
        ("international", "W:WK47:B14,19,29,31,42", 2),
    ],
)
def test_perft_is_the_apis(api, variant: str, fen: Any, depth: int) -> None:
    params: Dict[str, Any] = {"depth": depth, "divide": True}
    if fen:
        params["position"] = fen
    expected = api.ok(api.get(f"/v1/variants/{variant}/perft", **params))
    assert ad.perft(variant, depth, fen=fen, divide=True).to_dict() == expected
    pos = ad.Position(variant, fen)
    assert pos.perft(depth) == expected["nodes"]
    assert pos.perft(depth, threads=1) == expected["nodes"]
    assert pos.divide(depth) == {m["move"]: m["nodes"] for m in expected["divide"]}
    keep = api.ok(api.get(f"/v1/variants/{variant}/perft", depth=depth, keep=True,
                          **({"position": fen} if fen else {})))
    assert pos.perft(depth, keep=True) == keep["nodes"]


@pytest.mark.parametrize(
    "variant,fen,move,flip,coordinates",
    [
        ("international", "W:WK47:B14,19,29,31,42", "47x38x20x9x36", False, True),
        ("english", None, None, True, False),
        ("seth", None, None, False, True),
        ("camelot", None, None, False, False),
        ("lahti", "B:Wc2,e2:Ba1:S2,3", None, False, True),
    ],
)
def test_diagram_is_the_apis(api, variant, fen, move, flip, coordinates) -> None:
    params: Dict[str, Any] = {"flip": flip, "coordinates": coordinates}
    if fen:
        params["position"] = fen
    if move:
        params["move"] = move
    status, _, raw = api.request("GET", f"/v1/variants/{variant}/diagram", params=params)
    assert status == 200
    svg = ad.diagram(variant, fen, move=move, flip=flip, coordinates=coordinates)
    assert svg == raw.decode()
    pos = ad.Position(variant, fen)
    assert pos.svg(move, flip=flip, coordinates=coordinates) == svg


@pytest.mark.parametrize(
    "variant,fen",
    [("english", "B:WK14,K18:BK5"), ("english", "W:WK18,K22:BK3"), ("international", "W:WK46:B5")],
)
def test_endgame_is_the_apis(api, variant: str, fen: str) -> None:
    expected = api.ok(api.get(f"/v1/variants/{variant}/endgame", position=fen))
    assert ad.endgame(variant, fen).to_dict() == expected
    assert ad.Position(variant, fen).endgame().to_dict() == expected


def test_catalogue_is_the_apis(api) -> None:
    listed = api.ok(api.get("/v1/variants"))["variants"]
    assert [v.to_dict() for v in ad.variants()] == listed
    assert [v.id for v in ad.variants()] == [v["id"] for v in listed]
    for v in ad.variants():
        assert v.info.to_dict() == api.ok(api.get(f"/v1/variants/{v.id}"))
        for alias in v.aliases:
            named = urllib.parse.quote(alias, safe="")
            assert api.ok(api.get(f"/v1/variants/{named}"))["id"] == v.id
            assert ad.variant(alias) == v


PROBLEMS = [
    (lambda: ad.Position("international", "W:W99:B1"), "GET", "/v1/variants/international/moves",
     {"position": "W:W99:B1"}, None),
    (lambda: ad.Position("chess"), "GET", "/v1/variants/chess/moves", {}, None),
    (lambda: ad.Position("international").play("32-23"), "POST", "/v1/variants/international/play",
     {}, {"move": "32-23"}),
    (lambda: ad.Position("international").play("31-22"), "POST", "/v1/variants/international/play",
     {}, {"move": "31-22"}),
    (lambda: ad.Position("international", "W:W28:B23,24").play("28-22"), "POST",
     "/v1/variants/international/play", {}, {"position": "W:W28:B23,24", "move": "28-22"}),
    (lambda: ad.Position("international", "W:WK47:B14,19,29,31,42").play("hello"), "POST",
     "/v1/variants/international/play", {}, {"position": "W:WK47:B14,19,29,31,42", "move": "hello"}),
    (lambda: ad.Position("international").play("32-99"), "POST",
     "/v1/variants/international/play", {}, {"move": "32-99"}),
    (lambda: ad.endgame("english", "W:W21-32:B1-12"), "GET", "/v1/variants/english/endgame",
     {"position": "W:W21-32:B1-12"}, None),
    (lambda: ad.endgame("frisian", "W:WK42,K4:BK5", counts="KINGS_25:3"), "GET",
     "/v1/variants/frisian/endgame", {"position": "W:WK42,K4:BK5", "counts": "KINGS_25:3"}, None),
    (lambda: ad.judge("international", ["32-28"] * 1001), "POST", "/v1/variants/international/judge",
     {}, {"moves": ["32-28"] * 1001}),
    (lambda: ad.judge_pdn("[GameType 20]\n1. 32-28 *\n", strict=True), "POST", "/v1/judge/pdn",
     {"strict": True}, b"[GameType 20]\n1. 32-28 *\n"),
]


@pytest.mark.parametrize("call,method,path,params,body", PROBLEMS)
def test_problems_are_the_apis(api, call, method, path, params, body) -> None:
    if isinstance(body, bytes):
        status, problem, _ = api.request(method, path, params=params, data=body,
                                         headers={"content-type": "text/plain"})
    else:
        status, problem, _ = api.request(method, path, params=params, body=body)
    assert status >= 400, problem
    with pytest.raises(ad.ArbiterError) as caught:
        call()
    e = caught.value
    assert e.code == problem["code"]
    assert e.status == status
    assert e.problem == problem
