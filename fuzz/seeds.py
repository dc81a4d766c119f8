#!/usr/bin/env python3
"""Writes the seed inputs of the fuzz corpora (fuzz/corpus/<target>/seed-*).

Seeds come from the project's own data: the rule cases (rules/tests/data/cases/*.txt), the FENs
of the tests, the PDN files of tests/data/pdn and a few small games of each real game record in
tests/data/games, and the request bodies of the README. The committed corpora are these seeds plus what fuzzing found,
minimised with `cargo fuzz cmin`; run this again (then cmin) to re-seed after adding data.

Usage: python3 fuzz/seeds.py [PATH_TO_GAMES]   (default: tests/data/games)
"""

import glob
import hashlib
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")

# The order of arbiter_rules::variants() (a seed's first byte picks a variant by index).
VARIANTS = ("international english russian brazilian canadian czech italian portuguese thai "
            "checkers paraszt anti-checkers corner one-way parachute frisian pool "
            "antidraughts").split()


def write(target, data):
    if isinstance(data, str):
        data = data.encode()
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    name = "seed-" + hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def positions():
    """arbiter_fuzz::POSITIONS, read from fuzz/src/lib.rs."""
    text = open(os.path.join(ROOT, "fuzz", "src", "lib.rs")).read()
    table = text.split("pub const POSITIONS")[1].split("];")[0]
    return re.findall(r'\("([a-z-]+)", "([^"]*)"\)', table)


def cases():
    """(variant, fen or None for the start position, [move texts]) of every rule case."""
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "rules/tests/data/cases/*.txt"))):
        v, cur = None, None
        for line in open(path):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("["):
                cur = None
                continue
            key, _, rest = line.partition(" ")
            if key == "variant":
                v = rest.strip()
            elif key == "start":
                cur = (v, None, [])
                out.append(cur)
            elif key == "fen":
                cur = (v, rest.strip(), [])
                out.append(cur)
            elif cur is not None and key in ("moves", "captures", "play", "notation",
                                             "ambiguous", "distinct", "illegal", "promotes",
                                             "sequence"):
                words = rest.replace("=>", " ").split()
                cur[2].extend(w for w in words if re.search(r"\d", w) and not
                              re.fullmatch(r"[WB]:.*", w))
    return out


def fen_and_move_seeds():
    table = positions()
    index = {p: i for i, p in enumerate(table)}
    for i, (v, fen) in enumerate(table):
        if fen:
            write("fen", bytes([VARIANTS.index(v)]) + fen.encode())
    for v, fen, texts in cases():
        i = index.get((v, fen or ""))
        if i is None:
            continue
        for t in dict.fromkeys(texts):
            write("move_text", bytes([i]) + t.encode())
    # FENs written in the tests and the README, in the forms people use.
    for path in glob.glob(os.path.join(ROOT, "rules/tests/*.rs")) + \
            glob.glob(os.path.join(ROOT, "tests/api/*.rs")) + [os.path.join(ROOT, "README.md")]:
        for fen in set(re.findall(r'"([WB]:[WB][^"\\ ]*)"', open(path).read())):
            algebraic = re.search(r"[a-h][1-8]", fen)
            for v in (["russian", "czech"] if algebraic else ["international", "english"]):
                write("fen", bytes([VARIANTS.index(v)]) + fen.encode())
    for extra in ("W:W31-50:B1-20.", '"B:WK10,K15-17,28:BK1"', "W:B1-20:W31-50:H0:F1",
                  " w : w 31 , 32 : b k1 ", "W:WPb8:BPa1"):
        write("fen", bytes([VARIANTS.index("international")]) + extra.encode())
        write("fen", bytes([VARIANTS.index("parachute")]) + extra.encode())


def piece_seeds():
    """Seeds of the fen target's second mode (first byte 0x80 + variant): random pieces, many
    of them kings, two bytes a piece (see pieces_fen in fuzz_targets/fen.rs)."""
    import random
    rng = random.Random(2026)
    for i, _ in enumerate(VARIANTS):
        for _ in range(4):
            data = bytearray([0x80 | i, rng.randrange(2)])
            for _ in range(rng.randrange(4, 18)):
                data += bytes([rng.choice([0, 1, 2, 3, 2, 3]), rng.randrange(256)])
            write("fen", bytes(data))


def games(data):
    """Splits PDN bytes into games: a game starts at a tag line after a line that is no tag."""
    out, cur, prev_tag = [], [], False
    for line in data.split(b"\n"):
        tag = line.lstrip().startswith(b"[")
        if tag and not prev_tag and any(l.strip() and not l.lstrip().startswith(b"[")
                                        for l in cur):
            out.append(b"\n".join(cur) + b"\n")
            cur = []
        if line.strip():
            prev_tag = tag
        cur.append(line)
    if cur:
        out.append(b"\n".join(cur) + b"\n")
    return out


def pdn_seeds(real_games):
    for path in glob.glob(os.path.join(ROOT, "tests/data/pdn/*.pdn")):
        write("pdn", open(path, "rb").read())
    paths = sorted(glob.glob(os.path.join(real_games, "*/*.pdn")))
    if not paths:
        sys.exit(f"no PDN files under {real_games}")
    for path in paths:
        kept = 0
        for g in games(open(path, "rb").read()):
            if kept == 2:
                break
            if 100 < len(g) <= 3000:
                write("pdn", g)
                kept += 1


def json_seeds():
    bodies = [
        ("international", {}),
        ("international", {"position": "W:W31-50:B1-20"}),
        ("international", {"position": "W:WK47:B14,19,29,31,42"}),
        ("english", {"position": "B:W21-32:B1-12"}),
        ("russian", {"position": "W:Wc3,e3:Bd4,f6,Kh8"}),
        ("international", {"position": "W:W31-50:B1-20", "move": "32-28"}),
        ("english", {"moves": ["11-15", "23-19", "8-11", "22-17"]}),
        ("international", {"position": "W:WK47:B14,19,29,31,42", "move": "47x38x24x13x36"}),
        ("russian", {"moves": ["c3-d4", "f6-g5", "g3-f4", "g5-h4", "ed4"]}),
        ("international", {"start_position": "W:W28:B23", "moves": ["28x19"],
                           "claimed_result": "2-0"}),
        ("english", {"start_position": "W:WK32:BK1",
                     "moves": ["32-28", "1-5", "28-32", "5-1", "32-28", "1-5", "28-32", "5-1"],
                     "claimed_result": "draw"}),
        ("international", {"moves": ["32-28", "19-23", "28x19", "14x23"],
                           "claimed_result": "1-1"}),
        ("frisian", {"start_position": "B:W11,14,16,21,22,23,24,25,28,31,36,39,41,47:BK17",
                     "moves": ["17x6x26x8x30x48x18x45x15x12x32x46x26x48x46"],
                     "claimed_result": "0-1"}),
        ("international", {"pdn": "[Event \"Club\"]\n[GameType \"20\"]\n[Result \"*\"]\n"
                                  "1. 32-28 19-23 2. 28x19 14x23 *\n"}),
        ("russian", {"pdn": "[Event \"Club\"]\n[GameType \"25\"]\n[Result \"*\"]\n"
                            "1. c3-d4 f6-g5 2. g3-f4 g5-h4 *\n", "variant": "russian"}),
        ("international", {"pdn": "[GameType \"20\"]\n1. 32-28 19-23 2. 28-22 *\n"}),
    ]
    for v, body in bodies:
        write("json_bodies", bytes([VARIANTS.index(v)]) + json.dumps(body).encode())


if __name__ == "__main__":
    real_games = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "tests", "data", "games")
    fen_and_move_seeds()
    piece_seeds()
    pdn_seeds(real_games)
    json_seeds()
