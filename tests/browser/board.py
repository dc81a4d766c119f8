"""The board page in a real browser (headless Chromium, driven by Playwright).

Usage: python3 tests/browser/board.py BASE_URL [CHROMIUM] [ARTIFACTS_DIR] [AXE_JS]

Opens BASE_URL/board and plays as a person does, by clicking squares and buttons, then checks
each position the page shows against the API's own answer for the same moves (`/play`,
`/judge`, `/endgame`, asked here directly):

- an international capture with a choice of routes (the landing square decides);
- a Turkish king capture;
- a Hageby drop, then a pass;
- a Camelot charge (canter, then jump);
- a Frisian game reaching a draw by rule (status, reason, ply and counters);
- an English position in the endgame tables, with each move's value;
- an illegal click, answered with the violation's code and sentence;
- every variant of the catalogue in the picker, each drawn with a cell per playable square;
- two moves played with the keyboard alone;
- a PDN game pasted and replayed, and the game exported as PDN.

Every request the page makes must be a file of the page or an operation of the API document;
nothing may come from another host, and no JavaScript error may be logged. Screenshots at
desktop and phone width go to ARTIFACTS_DIR (default target/browser-artifacts). With AXE_JS
(the path of axe-core's axe.min.js) the page is scanned with axe-core at both widths, and a
serious or critical violation fails the test.
"""

import json
import os
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

from playwright.sync_api import sync_playwright

BASE = sys.argv[1].rstrip("/")
CHROMIUM = sys.argv[2] if len(sys.argv) > 2 else "/usr/bin/chromium"
ARTIFACTS = sys.argv[3] if len(sys.argv) > 3 else "target/browser-artifacts"
AXE = sys.argv[4] if len(sys.argv) > 4 else None
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 1000}
PHONE = {"width": 390, "height": 844}

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)
    return cond


# ---- the API, asked directly --------------------------------------------------------------


def api(method, path, body=None):
    """Calls the API; returns (status, parsed JSON body)."""
    data = None
    headers = {"accept": "application/json"}
    if body is not None:
        data = json.dumps(body).encode()
        headers["content-type"] = "application/json"
    req = urllib.request.Request(BASE + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def get(path, **query):
    q = urllib.parse.urlencode(query)
    return api("GET", path + ("?" + q if q else ""))


def api_play(variant, position, moves):
    status, body = api(
        "POST", f"/v1/variants/{variant}/play", {"position": position, "moves": moves}
    )
    assert status == 200, (status, body)
    return body["position"]


def api_moves(variant, position):
    status, body = get(f"/v1/variants/{variant}/moves", position=position)
    assert status == 200, (status, body)
    return body


def api_judge(variant, start, moves):
    status, body = api(
        "POST", f"/v1/variants/{variant}/judge", {"start_position": start, "moves": moves}
    )
    assert status == 200, (status, body)
    return body


# ---- driving the page ----------------------------------------------------------------------


def shown(page):
    return page.get_attribute("body", "data-shown")


def wait_ready(page, before=None):
    """Waits until the page has shown a new position (after `before`) and is ready."""
    if before is None:
        page.wait_for_function("document.body.dataset.state === 'ready'", timeout=30000)
    else:
        page.wait_for_function(
            "document.body.dataset.state === 'ready'"
            f" && document.body.dataset.shown !== '{before}'",
            timeout=30000,
        )


def open_page(page, fragment=""):
    """Loads the page afresh (a new document, not a change of the fragment alone)."""
    page.goto("about:blank")
    page.goto(BASE + "/board" + fragment)
    wait_ready(page)


def fen(page):
    return page.input_value("#fen")


def choose_variant(page, variant):
    before = shown(page)
    page.select_option("#variant", variant)
    wait_ready(page, before)


def set_fen(page, variant, position):
    if page.input_value("#variant") != variant:
        choose_variant(page, variant)
    if not page.eval_on_selector("#load", "d => d.open"):
        page.click("#load summary")
    page.fill("#fen-input", position)
    before = shown(page)
    page.click("#fen-form button[type=submit]")
    wait_ready(page, before)


def square(page, name):
    return page.locator(f'#board [data-hit="{name}"]')


def click(page, name):
    square(page, name).click()


def play_clicks(page, names):
    """Clicks squares in turn; the last click must play a move."""
    before = shown(page)
    for n in names:
        click(page, n)
    wait_ready(page, before)


def marks(page, name):
    return (square(page, name).get_attribute("class") or "").split()


def message(page):
    return page.inner_text("#message")


def moves_listed(page):
    return [b.inner_text() for b in page.locator("#move-list button").all()]


def expect_fen(page, variant, start, moves, what):
    """The page's FEN is the API's after `moves` from `start`."""
    want = api_play(variant, start, moves)
    got = fen(page)
    check(got == want, f"{what}: the page shows the API's position ({got} vs {want})")
    return want


# ---- the scenarios -------------------------------------------------------------------------


def international_capture_with_a_choice_of_routes(page):
    # The white king on 47 takes four pieces either way round to 36: over 14 (landing on 20)
    # or over 19 (landing on 24). Clicking 47 then 36 leaves both; the landing square 24
    # decides.
    start = "W:WK47:B14,19,29,31,42"
    set_fen(page, "international", start)
    click(page, "47")
    check("selected" in marks(page, "47"), "international: the king is selected")
    check("dest" in marks(page, "36"), "international: 36 is lit as a destination")
    click(page, "36")
    lit = {s: marks(page, s) for s in ["20", "24", "14", "19"]}
    check(
        "via" in lit["20"] and "via" in lit["24"],
        f"international: the landing squares that differ are lit ({lit})",
    )
    check(
        "take" in lit["14"] and "take" in lit["19"],
        f"international: the pieces taken that differ are lit ({lit})",
    )
    check(fen(page) == api_moves("international", start)["position"], "international: no move yet")
    play_clicks(page, ["24"])
    expect_fen(page, "international", start, ["47x38x24x13x36"], "international capture by 24")
    check(
        moves_listed(page) == ["47x38x24x13x36"],
        f"international: the move list ({moves_listed(page)})",
    )
    # Back, then the other route by its captured piece.
    before = shown(page)
    page.click("#back")
    wait_ready(page, before)
    check(
        fen(page) == api_moves("international", start)["position"],
        "international: back to the start",
    )
    click(page, "47")
    click(page, "36")
    play_clicks(page, ["14"])
    expect_fen(page, "international", start, ["47x38x20x9x36"], "international capture over 14")


def flip_and_removal(page):
    # Flip: 46 (White's bottom-left corner) goes to the top right.
    set_fen(page, "international", "W:W46:B5")
    a = square(page, "46").bounding_box()
    before = shown(page)
    page.click("#flip")
    wait_ready(page, before)
    b = square(page, "46").bounding_box()
    check(
        b["x"] > a["x"] and b["y"] < a["y"], f"flip: 46 moves from the bottom left to the top right"
    )
    before = shown(page)
    page.click("#flip")
    wait_ready(page, before)
    # Konane opens with removals: a button each (a click on the square plays it too).
    v = get("/v1/variants/hawaiian")[1]
    choose_variant(page, "hawaiian")
    start = v["start_position"]
    buttons = page.eval_on_selector_all("#special button", "bs => bs.map(b => b.dataset.move)")
    legal = [m["notation"] for m in api_moves("hawaiian", start)["moves"]]
    check(buttons == legal, f"konane: a button per opening removal ({buttons})")
    before = shown(page)
    page.click('#special button[data-move="xd5"]')
    wait_ready(page, before)
    expect_fen(page, "hawaiian", start, ["xd5"], "konane removal")


def turkish_king_capture(page):
    # The king on a1 takes a4, turns on a6 and takes d6: four landing squares beyond.
    start = "W:WKa1,h1:Ba4,d6,h8"
    set_fen(page, "turkish", start)
    click(page, "a1")
    dests = sorted(s for s in ["e6", "f6", "g6", "h6"] if "dest" in marks(page, s))
    check(dests == ["e6", "f6", "g6", "h6"], f"turkish: the king's four landings are lit ({dests})")
    from_a1 = [m for m in api_moves("turkish", start)["moves"] if m["from"] == "a1"]
    check(
        sorted(m["to"] for m in from_a1) == dests,
        f"turkish: the lit squares are the API's landings ({[m['to'] for m in from_a1]})",
    )
    to_g6 = [m for m in from_a1 if m["to"] == "g6"]
    check(
        len(to_g6) == 1 and sorted(to_g6[0]["captured"]) == ["a4", "d6"],
        f"turkish: the API has one king capture a1 to g6, taking a4 and d6 ({to_g6})",
    )
    play_clicks(page, ["g6"])
    expect_fen(page, "turkish", start, ["a1xa6xg6"], "turkish king capture")
    want = [m["notation"] for m in to_g6]
    check(moves_listed(page) == want, f"turkish: the move list ({moves_listed(page)} vs {want})")


def hageby_drop_then_pass(page):
    # White drops its last stone on b3; Black's only stone, on b1, is then blocked: a pass.
    start = "W:Wa2,b2,c1,d1:Bb1:S1,0"
    set_fen(page, "hageby", start)
    hand = page.locator('#hands button[data-hand="white"]')
    check(hand.count() == 1, "hageby: White's stone in hand is a button")
    hand.click()
    check("dest" in marks(page, "b3"), "hageby: the empty points are lit for the drop")
    check("dest" not in marks(page, "b1"), "hageby: an occupied point is not")
    play_clicks(page, ["b3"])
    expect_fen(page, "hageby", start, ["*b3"], "hageby drop")
    pass_button = page.locator('#special button[data-move="pass"]')
    check(pass_button.count() == 1, "hageby: a Pass button when the pass is the legal move")
    before = shown(page)
    pass_button.click()
    wait_ready(page, before)
    expect_fen(page, "hageby", start, ["*b3", "pass"], "hageby pass")
    check(moves_listed(page) == ["*b3", "pass"], f"hageby: the move list ({moves_listed(page)})")


def camelot_charge(page):
    # The knight on f5 canters over its own man on f6 to f7, then jumps the man on f8 to f9:
    # the API's legal moves must hold that charge, once, and the page must play it by clicks
    # on its landings.
    start = "W:WNf5,f6:Bf8,a10"
    legal = api_moves("camelot", start)["moves"]
    charge = [m for m in legal if m["route"] == ["f5", "f7", "f9"]]
    check(
        len(charge) == 1 and charge[0]["captured"] == ["f8"],
        f"camelot: the API lists the charge f5, f7, f9 taking f8 ({charge})",
    )
    if len(charge) != 1:
        return
    charge = charge[0]
    set_fen(page, "camelot", start)
    click(page, "f5")
    before = shown(page)
    click(page, "f7")
    # Either the click on the canter's landing leaves one move, which is played, or another
    # move lands on f7 as well: f7 is then kept as a chosen landing, and the last landing, f9,
    # decides.
    page.wait_for_function(
        f"document.body.dataset.shown !== '{before}'"
        " || document.querySelector('#board [data-hit=\"f7\"]').classList.contains('selected')",
        timeout=30000,
    )
    if shown(page) == before:
        check("dest" in marks(page, "f9"), "camelot: f9 is lit after f7")
        click(page, "f9")
    wait_ready(page, before)
    got, want = fen(page), charge["resulting_position"]
    check(got == want, f"camelot charge: the page shows the API's position ({got} vs {want})")
    expect_fen(page, "camelot", start, [charge["notation"]], "camelot charge, replayed by /play")
    check(
        moves_listed(page) == [charge["notation"]],
        f"camelot: the move list ({moves_listed(page)})",
    )


def frisian_draw_by_rule(page):
    # King against king: drawn 2 moves each after it arises (FRISIAN_1V1).
    start = "W:WK46:BK1"
    moves = ["46-41", "1-6", "41-46", "6-1"]
    set_fen(page, "frisian", start)
    for i, m in enumerate(moves):
        a, b = m.split("-")
        play_clicks(page, [a, b])
        expect_fen(page, "frisian", start, moves[: i + 1], f"frisian ply {i + 1}")
        if i == 2:
            row = page.locator('#counters tr[data-code="FRISIAN_1V1"] .count').inner_text()
            check(row == "3 / 4 plies", f"frisian: the counter after ply 3 ({row})")
    judged = api_judge("frisian", start, moves)
    check(judged["verdict"] == "draw", "frisian: the API judges a draw")
    verdict = page.inner_text("#verdict")
    reason = page.inner_text("#reason")
    check(verdict.startswith("Draw"), f"frisian: the page says draw ({verdict})")
    check(
        reason.startswith(f"{judged['reason']['code']} (after ply {judged['decided_at_ply']})"),
        f"frisian: the page gives the judge's reason and ply ({reason})",
    )
    row = page.locator('#counters tr[data-code="FRISIAN_1V1"] .count').inner_text()
    check(row == "4 / 4 plies", f"frisian: the counter at the limit ({row})")
    # The game is over: a click on the board says so and plays nothing.
    before = fen(page)
    click(page, "1")
    page.wait_for_timeout(200)
    check("over" in message(page) and fen(page) == before, "frisian: no move after the end")


def frisian_cursed_win(page):
    """Two kings against one: a game-theoretic win that the game's seven-move count draws.
    The page shows both values, names the rule, and marks the moves by their value under the
    rules."""
    start = "W:WK42,K4:BK5"
    # A White move that keeps the game-theoretic win, then Black's best reply under the
    # rules, until the count has left no time for the win (found through the API).
    status, first = endgame_tables(start, "frisian")
    check(status == 200, f"frisian: the API has {start} in its tables ({status})")
    line = None
    for m in first["moves"]:
        if m["category"] != "loss":
            continue
        after = m["resulting_position"]
        status, reply = endgame_tables(after, "frisian", counts="FRISIAN_2V1_7:1")
        black = reply["moves"][0]
        status, last = endgame_tables(
            black["resulting_position"], "frisian", counts="FRISIAN_2V1_7:2"
        )
        if last["rules"]["differs"] == "cursed-win":
            line = [m["move"], black["move"]], last
            break
    if not check(line is not None, "frisian: a line where the count draws a table win"):
        return
    moves, last = line
    fragment = urllib.parse.urlencode({"variant": "frisian", "start": start, "moves": " ".join(moves)})
    open_page(page, "#" + fragment)
    page.wait_for_function("document.getElementById('endgame').dataset.category", timeout=60000)
    text = page.inner_text("#endgame")
    check(
        "a win for White" in text and "FRISIAN_2V1_7" in text and "cursed win" in text,
        f"frisian: both values and the rule ({text})",
    )
    check(
        page.get_attribute("#endgame", "data-category") == "draw",
        "frisian: the value under the rules is the one shown as the category",
    )
    # Each move marked by its value under the rules, for the mover: no move wins any more.
    mover = {"loss": "win", "draw": "draw", "win": "loss"}
    check(
        all(m["rules"]["category"] != "loss" for m in last["moves"]),
        "frisian: no move wins under the rules (API)",
    )
    for m in last["moves"]:
        b = page.locator(f'#legal button[data-move="{m["move"]}"]')
        want = mover[m["rules"]["category"]]
        check(
            b.get_attribute("data-value") == want,
            f"frisian: {m['move']} is marked {want} under the rules",
        )


def endgame_tables(start, variant="english", **query):
    """The API's endgame answer for a position (waiting while a table is built)."""
    for _ in range(300):
        status, body = get(f"/v1/variants/{variant}/endgame", position=start, **query)
        if status != 503:
            return status, body
        time.sleep(1)
    return status, body


def english_endgame_values(page):
    mover = {"loss": "win", "draw": "draw", "win": "loss"}
    # Two kings against one, Black to move: a loss in the tables. Then a position whose moves
    # win, draw and lose: the king on 10 wins by 10-14, draws by 10-7, loses by 10-6.
    for start, side, piece in [
        ("B:WK14,K18:BK5", "Black", "5"),
        ("W:WK10,15:BK25,1", "White", "10"),
    ]:
        set_fen(page, "english", start)
        status, tables = endgame_tables(start)
        check(status == 200, f"english {start}: the API has the position in its tables ({status})")
        page.wait_for_function("document.getElementById('endgame').dataset.category", timeout=60000)
        text = page.inner_text("#endgame")
        if tables["category"] == "draw":
            want = "a draw"
        else:
            want = f"a {tables['category']} for {side} in {tables['plies']} plies"
        check(
            want in text and tables["material"] in text,
            f"english {start}: the position's value ({text})",
        )
        for m in tables["moves"]:
            b = page.locator(f'#legal button[data-move="{m["move"]}"]')
            got = b.get_attribute("data-value")
            check(
                got == mover[m["category"]],
                f"english {start}: {m['move']} is a {got} for the mover"
                f" (API: {m['category']} for the opponent)",
            )
        # The values on the board: select the piece; its destinations carry them.
        click(page, piece)
        for m in tables["moves"]:
            frm, to = re.split("[-x]", m["move"])[0], re.split("[-x]", m["move"])[-1]
            if frm == piece:
                want = f"v-{mover[m['category']]}"
                check(want in marks(page, to), f"english {start}: {to} marked {want}")
    values = {m["move"]: mover[m["category"]] for m in tables["moves"]}
    check(
        {"win", "draw", "loss"} <= set(values.values()),
        f"english: the second position has winning, drawing and losing moves ({values})",
    )


def an_illegal_click_says_why(page):
    choose_variant(page, "international")
    before = shown(page)
    page.click("#new-game")
    wait_ready(page, before)
    status, problem = api("POST", "/v1/variants/international/play", {"moves": ["32-23"]})
    click(page, "32")
    click(page, "23")
    page.wait_for_function("document.getElementById('message').dataset.violation", timeout=10000)
    text = message(page)
    check(
        status == 422 and problem["violation"] in text and problem["reason"] in text,
        f"illegal click: the violation and its sentence ({text}; API {problem.get('violation')})",
    )


def every_variant(page):
    status, catalogue = get("/v1/variants")
    ids = [v["id"] for v in catalogue["variants"]]
    options = page.eval_on_selector_all("#variant option", "os => os.map(o => o.value)")
    groups = page.eval_on_selector_all("#variant optgroup", "gs => gs.map(g => g.label)")
    check(
        sorted(options) == sorted(ids) and len(ids) == 38, f"all {len(ids)} variants in the picker"
    )
    check(len(groups) >= 5, f"grouped by family ({groups})")
    for v in catalogue["variants"]:
        choose_variant(page, v["id"])
        cells = page.locator("#board [data-hit]").count()
        ok = cells == v["board"]["cells"] and fen(page) == v["start_position"]
        link = page.get_attribute("#rules-link", "href")
        check(
            ok and link == f"v1/variants/{v['id']}",
            f"{v['id']}: drawn with {cells} cells of {v['board']['cells']}, its start, its rules",
        )


def keyboard_play(page):
    """Two moves with the keyboard alone: Tab to the board, arrows, Enter."""
    open_page(page, "#variant=international")
    start = fen(page)
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("!!document.activeElement.closest('#board [data-key]')"):
            break
    check(
        page.evaluate("!!document.activeElement.closest('#board [data-key]')"),
        "keyboard: Tab reaches the board",
    )

    def go(target):
        for _ in range(40):
            here = page.evaluate("document.activeElement.dataset.key")
            if here == target:
                return True
            a = page.locator(f'#board [data-key="{here}"]').bounding_box()
            b = page.locator(f'#board [data-key="{target}"]').bounding_box()
            dx, dy = b["x"] - a["x"], b["y"] - a["y"]
            if abs(dx) >= abs(dy):
                page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
            else:
                page.keyboard.press("ArrowDown" if dy > 0 else "ArrowUp")
        return False

    played = []
    for a, b in [("32", "28"), ("19", "23")]:
        before = shown(page)
        check(go(a), f"keyboard: the cursor reaches {a}")
        page.keyboard.press("Enter")
        check("selected" in marks(page, a), f"keyboard: Enter selects {a}")
        check(go(b), f"keyboard: the cursor reaches {b}")
        page.keyboard.press(" ")
        wait_ready(page, before)
        played.append(f"{a}-{b}")
        expect_fen(page, "international", start, played, f"keyboard move {a}-{b}")
    check(
        page.evaluate("!!document.activeElement.closest('#board [data-key]')"),
        "keyboard: the focus stays on the board after a move",
    )


def pdn_in_and_out(page):
    pdn = '[Event "Club"]\n[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 *\n'
    open_page(page)
    if not page.eval_on_selector("#load", "d => d.open"):
        page.click("#load summary")
    page.fill("#pdn-input", pdn)
    before = shown(page)
    page.click("#pdn-form button[type=submit]")
    wait_ready(page, before)
    moves = ["32-28", "19-23", "28x19", "14x23"]
    check(moves_listed(page) == moves, f"PDN: the game's moves are listed ({moves_listed(page)})")
    expect_fen(page, "international", None, moves, "PDN: the game's last position")
    before = shown(page)
    page.click('#move-list button[data-ply="2"]')
    wait_ready(page, before)
    expect_fen(page, "international", None, moves[:2], "PDN: click-to-go to ply 2")
    page.click("#export-pdn")
    page.wait_for_function("!document.getElementById('pdn-output').hidden", timeout=10000)
    out = page.input_value("#pdn-output")
    judged = api("POST", "/v1/variants/international/judge", {"moves": moves, "include_pdn": True})[
        1
    ]
    check(out == judged["pdn"], "PDN: the export is the judge's PDN of the game")


def perft_from_the_page(page):
    open_page(page, "#variant=russian")
    page.fill("#perft-depth", "3")
    page.click("#perft-form button[type=submit]")
    page.wait_for_selector("#perft table.divide", timeout=30000)
    status, body = get("/v1/variants/russian/perft", depth=3, divide="true")
    cells = page.eval_on_selector_all(
        "#perft table.perft:not(.divide) td:last-child", "t => t.map(x => x.textContent)"
    )
    want = [f"{n:,}" for n in body["nodes_by_depth"]]
    check(cells == want, f"perft: the counts by depth ({cells} vs {want})")
    rows = page.eval_on_selector_all(
        "#perft table.divide tr td:first-child", "t => t.map(x => x.textContent)"
    )
    check(rows == [d["move"] for d in body["divide"]], "perft: the divide lists every move")


# ---- the page's requests, accessibility, screenshots ---------------------------------------


def documented_operations():
    status, doc = get("/api-docs/openapi.json")
    ops = []
    for path, item in doc["paths"].items():
        pattern = "^" + re.sub(r"\\\{[^}]*\\\}", "[^/]+", re.escape(path)) + "$"
        for method in item:
            ops.append((method.upper(), re.compile(pattern)))
    return ops


# Answers other than 2xx the page is expected to meet: the endgame tables' "being computed"
# (it asks `/endgame` only about positions whose material the tables hold, so never meets
# "not here" nor "none for this variant"), and `/play` explaining an illegal click.
EXPECTED_PROBLEMS = [
    ("GET", re.compile(r"^/v1/variants/[^/]+/endgame$"), {503}),
    ("POST", re.compile(r"^/v1/variants/[^/]+/play$"), {422}),
]


def axe_scan(page, what):
    if not AXE:
        return
    page.add_script_tag(path=AXE)
    result = page.evaluate("""async () => {
            const r = await axe.run(document, {resultTypes: ['violations']});
            return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
        }""")
    serious = [v for v in result if v["impact"] in ("serious", "critical")]
    for v in result:
        print(f"     axe {what}: {v['impact']} {v['id']}: {v['help']} {v['nodes']}")
    check(not serious, f"axe-core {what}: no serious or critical violation ({len(result)} in all)")


def screenshot(page, name, full_page=True):
    os.makedirs(ARTIFACTS, exist_ok=True)
    path = os.path.join(ARTIFACTS, name)
    page.screenshot(path=path, full_page=full_page)
    print(f"     screenshot: {path}")
    return path


def strict_csp(browser, errors):
    """The page under its own Content-Security-Policy: it loads, draws and plays a move
    (driven without scripts of the test's own, which the policy forbids)."""
    print("---- under the page's Content-Security-Policy", flush=True)
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on(
        "console",
        lambda m: (
            errors.append(m.text)
            if m.type == "error" and "the server responded with a status of" not in m.text
            else None
        ),
    )
    try:
        page.goto(BASE + "/board")
        page.wait_for_selector('body[data-state="ready"] #board [data-hit="32"]', timeout=30000)
        page.click('#board [data-hit="32"]')
        page.click('#board [data-hit="28"]')
        page.wait_for_selector('#move-list button[data-ply="1"]', timeout=30000)
        page.wait_for_selector('body[data-state="ready"]', timeout=30000)
        want = api_play("international", None, ["32-28"])
        check(page.input_value("#fen") == want, "CSP: the page plays a move under its own policy")
    except Exception as e:
        check(False, f"CSP: the page could be driven under its own policy: {e}")
    finally:
        context.close()


def main():
    operations = documented_operations()
    base_host = urllib.parse.urlsplit(BASE).netloc
    outside, unknown, errors, refused = [], [], [], []

    def on_request(r):
        parts = urllib.parse.urlsplit(r.url)
        if r.url.startswith(("data:", "blob:")):
            return
        if parts.netloc != base_host:
            outside.append(r.url)
            return
        path = parts.path
        if path == "/board" or re.fullmatch(r"/board/[a-z]+\.(js|css|svg)", path):
            return
        if not any(m == r.method and p.match(path) for m, p in operations):
            unknown.append(f"{r.method} {path}")

    def on_response(r):
        if r.status < 400:
            return
        path = urllib.parse.urlsplit(r.url).path
        method = r.request.method
        if not any(
            m == method and p.match(path) and r.status in s for m, p, s in EXPECTED_PROBLEMS
        ):
            refused.append(f"{r.status} {method} {path}")

    def on_console(m):
        # The browser logs every answer that is not 2xx; those are checked above.
        if m.type == "error" and "the server responded with a status of" not in m.text:
            errors.append(m.text)

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        strict_csp(browser, errors)
        # The page's Content-Security-Policy forbids scripts that are not its own files: the
        # test's own (Playwright's waits, axe-core) are let through.
        context = browser.new_context(viewport=DESKTOP, bypass_csp=True)
        page = context.new_page()
        page.on("request", on_request)
        page.on("response", on_response)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", on_console)
        try:
            open_page(page)
            check(page.title() == "Arbiter board", "the page opens")
            for scenario in [
                international_capture_with_a_choice_of_routes,
                flip_and_removal,
                turkish_king_capture,
                hageby_drop_then_pass,
                camelot_charge,
                frisian_draw_by_rule,
                frisian_cursed_win,
                an_illegal_click_says_why,
                every_variant,
                keyboard_play,
                pdn_in_and_out,
                perft_from_the_page,
                english_endgame_values,
            ]:
                print(f"---- {scenario.__name__}", flush=True)
                try:
                    scenario(page)
                except Exception as e:  # a step that could not even run
                    check(False, f"{scenario.__name__} could be driven: {e}")
                    screenshot(page, f"board-failure-{scenario.__name__}.png")
            # The English endgame, a king selected: the values on the board and in the list.
            print("---- screenshots and accessibility", flush=True)
            page.eval_on_selector("#load", "d => { d.open = false; }")
            desktop = screenshot(page, "board-desktop.png", full_page=False)
            screenshot(page, "board-desktop-full.png")
            axe_scan(page, "desktop, a piece selected")
            page.set_viewport_size(PHONE)
            open_page(page, "#variant=international&moves=32-28%2019-23")
            width = page.evaluate("document.documentElement.scrollWidth")
            check(width <= PHONE["width"], f"phone width: nothing wider than the screen ({width})")
            board = page.locator("#board svg").bounding_box()
            check(
                board["width"] <= PHONE["width"], f"phone width: the board fits ({board['width']})"
            )
            screenshot(page, "board-phone.png")
            axe_scan(page, "phone width")
            open_page(page, "#variant=camelot")
            screenshot(page, "board-camelot.png")
            print(f"     desktop screenshot for the README: {desktop}")
        except Exception as e:
            check(False, f"the page could be driven: {e}")
            screenshot(page, "board-failure.png")
        finally:
            browser.close()
    check(not outside, f"nothing is fetched from another host ({outside[:5]})")
    check(not unknown, f"every request is the page's or an API operation ({unknown[:5]})")
    check(not refused, f"no unexpected error answer ({refused[:5]})")
    check(not errors, f"no JavaScript errors ({errors[:5]})")
    if failures:
        print(f"{len(failures)} check(s) failed")
        sys.exit(1)
    print(f"board: every check passed; screenshots in {ARTIFACTS}")


if __name__ == "__main__":
    main()
