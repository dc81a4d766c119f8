"""Swagger UI in a real browser (headless Chromium, driven by Playwright).

Usage: python3 tests/browser/swagger_ui.py BASE_URL [CHROMIUM]

Opens BASE_URL/swagger-ui/ as a person exploring the API does: checks that every operation of
the API document is listed, runs "Try it out" / "Execute" with the pre-filled examples on the
moves, diagram, play, judge and PDN operations (each example of the PDN text body too), and
checks the answer Swagger UI shows. Fails if the page fetches anything from another host (the
validator badge included) or logs a JavaScript error. Exits 0 when every check passes; on a
failure it prints what failed and saves a screenshot next to the temporary files.
"""

import json
import os
import sys
import tempfile
import urllib.parse
import urllib.request

from playwright.sync_api import sync_playwright

BASE = sys.argv[1].rstrip("/")
CHROMIUM = sys.argv[2] if len(sys.argv) > 2 else "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def operations_of_document():
    with urllib.request.urlopen(BASE + "/api-docs/openapi.json") as r:
        doc = json.load(r)
    ops = set()
    for path, item in doc["paths"].items():
        for method in item:
            ops.add((method.upper(), path))
    return ops


def run(page, op_id, expect):
    """Opens an operation, runs it with its examples, returns the answer Swagger UI shows."""
    op = page.locator(f"#{op_id}")
    if not op.locator(".opblock-body").count():
        op.locator(".opblock-summary").click()
    try_out = op.locator("button.try-out__btn:not(.cancel)")
    if try_out.count():
        try_out.click()
    op.locator("button.execute").click()
    status = op.locator(".live-responses-table tbody .response-col_status").first
    status.wait_for(timeout=20000)
    code = status.inner_text().strip()
    body = op.locator(".live-responses-table tbody .response-col_description pre").first
    text = body.inner_text() if body.count() else ""
    check(code == "200", f"{op_id}: Try it out answers 200 (got {code}: {text[:200]})")
    if code == "200":
        try:
            expect(text)
            check(True, f"{op_id}: the answer shown is right")
        except AssertionError as e:
            check(False, f"{op_id}: the answer shown is right ({e}): {text[:300]}")
    clear = op.locator("button.btn-clear")
    if clear.count():
        clear.first.click()
    return text


def expect_moves(text):
    body = json.loads(text)
    assert body["variant"] == "international", body["variant"]
    assert len(body["moves"]) > 0, "no moves"
    assert body["diagram"].startswith("/v1/variants/international/diagram?"), body["diagram"]


def expect_diagram(text):
    assert text.lstrip().startswith("<svg"), "not an SVG document"
    assert text.count('class="piece ') == 40, "40 pieces in the start position"


def expect_play(text):
    body = json.loads(text)
    assert body["variant"] == "international"
    assert body["position"].startswith("B:"), "Black to move after one move"
    assert body["status"]["state"] == "ongoing"


def expect_judge(text):
    body = json.loads(text)
    assert body["verdict"] in ("white_wins", "black_wins", "draw", "undecided"), body["verdict"]
    assert body["plies"] == len(body["moves"])
    assert "agreement" in body


def expect_pdn(variant, verdict=None, reason=None):
    def f(text):
        body = json.loads(text)
        games = body["games"]
        assert body["summary"]["judged"] == len(games) == 1, body["summary"]
        assert games[0]["variant"] == variant, games[0]["variant"]
        if verdict:
            assert games[0]["verdict"] == verdict, games[0]["verdict"]
        if reason:
            assert games[0]["reason"]["code"] == reason, games[0]["reason"]

    return f


def main():
    outside = []
    errors = []
    documented = operations_of_document()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        base_host = urllib.parse.urlsplit(BASE).netloc

        def on_request(r):
            host = urllib.parse.urlsplit(r.url).netloc
            if r.url.startswith(("data:", "blob:")) or host == base_host:
                return
            outside.append(r.url)

        page.on("request", on_request)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on(
            "console",
            lambda m: errors.append(m.text) if m.type == "error" else None,
        )
        try:
            page.goto(BASE + "/swagger-ui/")
            page.wait_for_selector(".opblock", timeout=30000)
            listed = set()
            for op in page.query_selector_all(".opblock"):
                method = op.query_selector(".opblock-summary-method").inner_text().strip()
                path = op.query_selector(".opblock-summary-path").get_attribute("data-path")
                listed.add((method.upper(), path))
            check(
                listed == documented,
                f"every operation is listed ({len(listed)} listed, {len(documented)} documented;"
                f" missing {sorted(documented - listed)}, extra {sorted(listed - documented)})",
            )

            run(page, "operations-moves-get_moves", expect_moves)
            run(page, "operations-moves-post_moves", expect_moves)
            run(page, "operations-moves-get_diagram", expect_diagram)
            run(page, "operations-play-play", expect_play)
            run(page, "operations-judge-judge", expect_judge)
            # The PDN operation: its JSON example, then each example of the PDN text body.
            pdn_id = "operations-judge-judge_pdn"
            run(page, pdn_id, expect_pdn("russian"))
            op = page.locator(f"#{pdn_id}")
            op.locator(".body-param-content-type select").select_option("text/plain")
            examples = op.locator(".examples-select select")
            names = [o.get_attribute("value") for o in examples.locator("option").all()]
            # Swagger UI adds a placeholder option for an edited example.
            names = [n for n in names if n and not n.startswith("__")]
            check(len(names) >= 3, f"the PDN text body has its examples ({names})")
            wanted = {
                "international": expect_pdn("international"),
                "russian": expect_pdn("russian"),
                "bad_move": expect_pdn("international", "invalid"),
                "english_tables": expect_pdn("english", "white_wins", "ENDGAME_TABLES"),
            }
            for name in names:
                check(name in wanted, f"the PDN example {name} is known to this test")
                examples.select_option(name)
                run(page, pdn_id, wanted.get(name, expect_pdn("international")))
        except Exception as e:  # a step that could not even run
            check(False, f"the page could be driven: {e}")
        finally:
            if failures:
                shot = os.path.join(tempfile.gettempdir(), "swagger-ui-failure.png")
                page.screenshot(path=shot, full_page=True)
                print(f"screenshot: {shot}")
            browser.close()
    check(not outside, f"nothing is fetched from another host ({outside[:5]})")
    check(not errors, f"no JavaScript errors ({errors[:5]})")
    if failures:
        print(f"{len(failures)} check(s) failed")
        sys.exit(1)
    print("Swagger UI: every check passed")


if __name__ == "__main__":
    main()
