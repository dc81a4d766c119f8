//! `arbiter match` against scripted engines (loopback only): DXP engines started by the
//! referee, reached at an address, or connecting to it; Hub engines as child processes. The
//! scripted engines are this test binary itself, run with `--peer` (see `peer.rs`); the main
//! function hands over to them before the test harness starts.
//!
//! Every test runs the real command and reads its NDJSON events and its PDN file; the games'
//! PDN is replayed through `arbiter judge`, whose verdict must agree wherever the rules ended
//! the game. Time controls are short; the only timing that matters is that scripted delays
//! are far beyond the clocks (no timed assertion).

mod peer;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::Value;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("--peer-dxp") => return peer::dxp_process(&args[2..]),
        Some("--peer-hub") => return peer::hub_process(&args[2..]),
        _ => {}
    }
    let tests = vec![
        Trial::test("hub_games_end_by_the_rules_colours_swapped", hub_normal),
        Trial::test(
            "a_signal_ends_the_match_and_its_engines",
            signal_ends_engines,
        ),
        Trial::test("dxp_games_end_by_the_rules_colours_swapped", dxp_normal),
        Trial::test("dxp_engine_at_an_address", dxp_connect),
        Trial::test("dxp_engine_connecting_to_the_referee", dxp_listen),
        Trial::test("illegal_move_loses_with_its_violation", illegal_move),
        Trial::test(
            "disconnect_forfeits_and_the_engine_is_restarted",
            disconnect,
        ),
        Trial::test("stall_forfeits", stall),
        Trial::test("flag_fall_loses", flag_fall),
        Trial::test("false_claims", false_claims),
        Trial::test("dxp_gameend_claims", dxp_claims),
        Trial::test("table_adjudication", tables),
        Trial::test("max_plies_limit", max_plies),
        Trial::test("dxp_move_count_ends_the_game", dxp_moves),
        Trial::test("concurrency_each_slot_with_its_engines", concurrency),
        Trial::test("crash_forfeits", crash),
        Trial::test("garbage_and_oversized_messages", garbage),
        Trial::test("moves_out_of_turn", wrong_side),
        Trial::test("illegal_opening_is_refused", illegal_opening),
        Trial::test("bad_command_lines", bad_command_lines),
        Trial::test("pdn_openings_are_played_out", pdn_openings),
        Trial::test(
            "documented_variants_are_the_accepted_ones",
            documented_variants,
        ),
        Trial::test("dxp_strict_follower_sees_the_text_kept", strict_follower),
        Trial::test(
            "dxp_strict_follower_catches_a_referee_breaking_the_text",
            strict_follower_self_check,
        ),
        Trial::test("hub_engine_against_dxp_engine", mixed_protocols),
        Trial::test("tournaments_round_robin_and_gauntlet", tournaments),
        Trial::test("sprt_stops_at_a_bound", sprt_stops),
        Trial::test("kill_and_resume", kill_and_resume),
        Trial::test("two_shards_merged_into_one_report", shards),
        Trial::test("report_agrees_with_published_runs", report_published),
    ];
    libtest_mimic::run(&Arguments::from_args(), tests).exit();
}

fn exe() -> String {
    std::env::current_exe()
        .unwrap()
        .to_string_lossy()
        .to_string()
}

/// A Hub engine of this binary with `script`.
fn hub(name: &str, script: &str) -> Vec<String> {
    vec![
        format!("name={name}"),
        "proto=hub".into(),
        format!("cmd='{}' --peer-hub {script}", exe()),
    ]
}

/// A DXP engine of this binary, started by the referee on `{port}`.
fn dxp(name: &str, script: &str) -> Vec<String> {
    vec![
        format!("name={name}"),
        "proto=dxp".into(),
        format!("cmd='{}' --peer-dxp --port {{port}} {script}", exe()),
    ]
}

/// A folder of its own for a test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-referee-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What a match printed: its events, the PDN file, the exit status and standard error.
struct Ran {
    events: Vec<Value>,
    pdn: String,
    output: Output,
}

impl Ran {
    fn games(&self) -> Vec<&Value> {
        self.events
            .iter()
            .filter(|e| e["event"] == "game")
            .collect()
    }
    fn summary(&self) -> &Value {
        self.events
            .iter()
            .find(|e| e["event"] == "summary")
            .expect("a summary event")
    }
}

fn run_match(dir: &Path, engines: [Vec<String>; 2], extra: &[&str]) -> Ran {
    run_engines(dir, &engines, extra)
}

fn run_engines(dir: &Path, engines: &[Vec<String>], extra: &[&str]) -> Ran {
    let pdn = dir.join("games.pdn");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    cmd.arg("match").arg("--json");
    if !extra.contains(&"--pdn") {
        cmd.arg("--pdn").arg(&pdn);
    }
    for e in engines {
        cmd.arg("--engine").args(e);
    }
    for (flag, value) in [
        ("--tc", "60"),
        ("--gameend-wait", "200"),
        ("--response-timeout", "5"),
    ] {
        if !extra.contains(&flag) {
            cmd.args([flag, value]);
        }
    }
    cmd.args(extra);
    let output = cmd.output().expect("run arbiter match");
    let text = String::from_utf8_lossy(&output.stdout);
    let events = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let pdn = match extra.iter().position(|a| *a == "--pdn") {
        Some(i) => PathBuf::from(extra[i + 1]),
        None => pdn,
    };
    Ran {
        events,
        pdn: std::fs::read_to_string(&pdn).unwrap_or_default(),
        output,
    }
}

fn check(cond: bool, what: impl Into<String>) -> Result<(), Failed> {
    if cond {
        Ok(())
    } else {
        Err(what.into().into())
    }
}

fn ok(ran: &Ran) -> Result<(), Failed> {
    check(
        ran.output.status.success(),
        format!(
            "arbiter match failed: {}",
            String::from_utf8_lossy(&ran.output.stderr)
        ),
    )
}

/// Whether a reason code is the rules' (as `/judge` gives them): not the adjudication's,
/// not a forfeit's or a claim's.
fn by_rules(code: &str) -> bool {
    ![
        "ENDGAME_TABLES",
        "MOVE_LIMIT",
        "ILLEGAL_MOVE",
        "TIME_FORFEIT",
        "DISCONNECT",
        "STALL",
        "CRASH",
        "PROTOCOL_ERROR",
        "REFUSED",
        "RESIGNATION",
        "FALSE_CLAIM",
        "ENGINE_CLAIM",
    ]
    .contains(&code)
}

/// Replays the PDN file through `arbiter judge --ndjson`: no game may fail, and a game the
/// rules ended must be judged to the same result.
fn replay(ran: &Ran, dir: &Path) -> Result<(), Failed> {
    let file = dir.join("games.pdn");
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["judge", "--ndjson"])
        .arg(&file)
        .output()
        .unwrap();
    check(out.status.success(), "arbiter judge failed")?;
    let text = String::from_utf8_lossy(&out.stdout);
    let judged: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|v: &Value| v.get("summary").is_none())
        .collect();
    let games = ran.games();
    check(
        judged.len() == games.len(),
        format!("{} games judged, {} played", judged.len(), games.len()),
    )?;
    let mut by_number: Vec<&&Value> = games.iter().collect();
    by_number.sort_by_key(|g| g["game"].as_u64());
    for (g, j) in by_number.iter().zip(&judged) {
        check(j["error"].is_null(), format!("judge error: {j}"))?;
        check(
            j["invalid_move"].is_null(),
            format!("an illegal move in the file: {j}"),
        )?;
        let reason = g["reason"].as_str().unwrap();
        if by_rules(reason) {
            check(
                j["verdict"] == g["verdict"] && j["reason"]["code"] == reason,
                format!("the judge disagrees: {j} / {g}"),
            )?;
        }
    }
    Ok(())
}

/// An opening that ends soon under first-move play: one man each, kings, then a rule.
const SHORT: &str = "W:W43,48:B3,8\n";

fn openings(dir: &Path, text: &str) -> String {
    let p = dir.join("openings.fen");
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().to_string()
}

/// Both games of an opening: the first engine White, then Black, the same start.
fn swapped(ran: &Ran) -> Result<(), Failed> {
    let g = ran.games();
    check(g.len() == 2, format!("{} games", g.len()))?;
    let first = g.iter().find(|x| x["game"] == 1).unwrap();
    let second = g.iter().find(|x| x["game"] == 2).unwrap();
    check(
        first["white"] == "A" && first["black"] == "B" && second["white"] == "B",
        "colours not swapped",
    )?;
    check(
        first["opening"] == second["opening"],
        "not the same opening",
    )?;
    check(
        ran.pdn.matches("[White \"A\"]").count() == 1
            && ran.pdn.matches("[White \"B\"]").count() == 1,
        "PDN White tags",
    )?;
    for x in &g {
        let reason = x["reason"].as_str().unwrap();
        check(by_rules(reason), format!("not ended by the rules: {x}"))?;
    }
    let s = ran.summary();
    let e = &s["standings"][0];
    let n =
        e["wins"].as_u64().unwrap() + e["draws"].as_u64().unwrap() + e["losses"].as_u64().unwrap();
    check(n == 2, format!("tally {s}"))
}

fn hub_normal() -> Result<(), Failed> {
    let dir = scratch("hub-normal");
    let o = openings(&dir, SHORT);
    let ran = run_match(&dir, [hub("A", ""), hub("B", "")], &["--openings", &o]);
    ok(&ran)?;
    swapped(&ran)?;
    // The tags the games must have, each once per game.
    for tag in [
        "Event",
        "Round",
        "White",
        "Black",
        "Result",
        "GameType",
        "FEN",
        "TimeControl",
        "WhiteClock",
        "BlackClock",
        "Termination",
    ] {
        let n = ran.pdn.matches(&format!("[{tag} \"")).count();
        check(n == 2, format!("{n} {tag} tags"))?;
    }
    check(ran.pdn.contains("[TimeControl \"60\"]"), "TimeControl 60")?;
    replay(&ran, &dir)
}

fn dxp_normal() -> Result<(), Failed> {
    let dir = scratch("dxp-normal");
    let o = openings(&dir, SHORT);
    let ran = run_match(&dir, [dxp("A", ""), dxp("B", "")], &["--openings", &o]);
    ok(&ran)?;
    swapped(&ran)?;
    replay(&ran, &dir)
}

fn dxp_connect() -> Result<(), Failed> {
    let dir = scratch("dxp-connect");
    let o = openings(&dir, SHORT);
    let mut addrs = Vec::new();
    for _ in 0..2 {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        addrs.push(l.local_addr().unwrap());
        std::thread::spawn(move || {
            let script = peer::Script::parse(&[]);
            for s in l.incoming().flatten() {
                peer::dxp_conversation(s, &script);
            }
        });
    }
    let engine = |name: &str, a: std::net::SocketAddr| {
        vec![
            format!("name={name}"),
            "proto=dxp".into(),
            format!("connect={a}"),
        ]
    };
    let ran = run_match(
        &dir,
        [engine("A", addrs[0]), engine("B", addrs[1])],
        &["--openings", &o],
    );
    ok(&ran)?;
    swapped(&ran)
}

fn dxp_listen() -> Result<(), Failed> {
    let dir = scratch("dxp-listen");
    let o = openings(&dir, SHORT);
    let engine = |name: &str| {
        vec![
            format!("name={name}"),
            "proto=dxp".into(),
            "listen=0".into(),
            format!("cmd='{}' --peer-dxp --connect 127.0.0.1:{{port}}", exe()),
        ]
    };
    let ran = run_match(&dir, [engine("A"), engine("B")], &["--openings", &o]);
    ok(&ran)?;
    swapped(&ran)
}

fn one_game(ran: &Ran, n: u64) -> &Value {
    ran.games()
        .into_iter()
        .find(|g| g["game"] == n)
        .unwrap_or_else(|| panic!("game {n}"))
}

fn illegal_move() -> Result<(), Failed> {
    for (proto, dir) in [
        ("hub", scratch("illegal-hub")),
        ("dxp", scratch("illegal-dxp")),
    ] {
        let make = if proto == "hub" { hub } else { dxp };
        let ran = run_match(
            &dir,
            [make("A", ""), make("B", "illegal=2")],
            &["--games", "2"],
        );
        ok(&ran)?;
        for g in ran.games() {
            check(g["reason"] == "ILLEGAL_MOVE", format!("{proto}: {g}"))?;
            check(g["violation"].is_string(), format!("no violation: {g}"))?;
            // B loses: 2-0 when A is White, 0-2 when B is.
            let want = if g["white"] == "A" { "2-0" } else { "0-2" };
            check(g["result"] == want, format!("{g}"))?;
            // B's second move: ply 3 (B Black) or ply 3 (B White: plies 1, 3).
            check(g["plies"] == 2 || g["plies"] == 3, format!("{g}"))?;
        }
        check(
            ran.pdn.contains("is not a legal move"),
            "illegal move comment",
        )?;
        replay(&ran, &dir)?;
    }
    Ok(())
}

fn disconnect() -> Result<(), Failed> {
    for (proto, dir) in [("dxp", scratch("disc-dxp")), ("hub", scratch("disc-hub"))] {
        let make = if proto == "hub" { hub } else { dxp };
        let ran = run_match(
            &dir,
            [make("A", ""), make("B", "disconnect=1")],
            &["--games", "2"],
        );
        ok(&ran)?;
        let g = ran.games();
        check(g.len() == 2, "both games played: the engine was restarted")?;
        for x in g {
            check(x["reason"] == "DISCONNECT", format!("{proto}: {x}"))?;
        }
        check(
            ran.summary()["standings"][1]["forfeits"]["DISCONNECT"] == 2,
            format!("{}", ran.summary()),
        )?;
    }
    Ok(())
}

fn stall() -> Result<(), Failed> {
    let dir = scratch("stall-dxp");
    let ran = run_match(
        &dir,
        [dxp("A", ""), dxp("B", "stall")],
        &["--games", "1", "--response-timeout", "0.5"],
    );
    ok(&ran)?;
    let g = one_game(&ran, 1);
    check(
        g["reason"] == "STALL" && g["result"] == "2-0",
        format!("{g}"),
    )?;
    let dir = scratch("stall-hub");
    let ran = run_match(
        &dir,
        [hub("A", ""), hub("B", "stall")],
        &["--games", "1", "--startup-timeout", "2"],
    );
    ok(&ran)?;
    let g = one_game(&ran, 1);
    check(
        g["reason"] == "STALL" && g["result"] == "2-0",
        format!("{g}"),
    )
}

fn flag_fall() -> Result<(), Failed> {
    for (proto, dir) in [("hub", scratch("flag-hub")), ("dxp", scratch("flag-dxp"))] {
        let make = if proto == "hub" { hub } else { dxp };
        let mut b = make("B", "slow=2:4000");
        b.push("tc=1".into());
        let ran = run_match(
            &dir,
            [make("A", ""), b],
            &["--games", "1", "--time-margin", "100"],
        );
        ok(&ran)?;
        let g = one_game(&ran, 1);
        check(
            g["reason"] == "TIME_FORFEIT" && g["result"] == "2-0",
            format!("{proto}: {g}"),
        )?;
        check(g["clock"]["black"] == "0:00:00.0", format!("{g}"))?;
        check(ran.pdn.contains("[BlackClock \"0:00:00.0\"]"), "clock tag")?;
        // Time odds: each side's time control is written.
        check(
            ran.pdn.contains("[WhiteTimeControl \"60\"]")
                && ran.pdn.contains("[BlackTimeControl \"1\"]")
                && !ran.pdn.contains("[TimeControl "),
            "time control tags",
        )?;
    }
    Ok(())
}

fn false_claims() -> Result<(), Failed> {
    // A win claimed from the start position: nothing confirms it.
    let dir = scratch("claim-strict");
    let ran = run_match(
        &dir,
        [hub("A", ""), hub("B", "claim=1:win")],
        &["--games", "1", "--strict-claims"],
    );
    ok(&ran)?;
    let g = one_game(&ran, 1);
    check(
        g["reason"] == "FALSE_CLAIM" && g["result"] == "2-0",
        format!("{g}"),
    )?;
    check(
        g["claim"]["status"] == "false" && g["claim"]["by"] == "black",
        format!("{g}"),
    )?;
    check(
        ran.summary()["standings"][1]["false_claims"] == 1,
        "counted",
    )?;
    // Without --strict-claims: recorded as made, unverified.
    let dir = scratch("claim-lenient");
    let ran = run_match(
        &dir,
        [hub("A", ""), hub("B", "claim=1:draw")],
        &["--games", "1"],
    );
    ok(&ran)?;
    let g = one_game(&ran, 1);
    check(
        g["reason"] == "ENGINE_CLAIM" && g["result"] == "1-1",
        format!("{g}"),
    )?;
    check(g["claim"]["status"] == "unverified", format!("{g}"))?;
    // A claim the tables contradict: a king against a king, Black to move and no capture
    // anywhere, is no win for Black: the tables' draw stands.
    let dir = scratch("claim-tables");
    let o = openings(&dir, "B:WK50:BK1\n");
    let ran = run_match(
        &dir,
        [hub("A", ""), hub("B", "claim=1:win")],
        &["--games", "1", "--openings", &o],
    );
    ok(&ran)?;
    let g = one_game(&ran, 1);
    check(
        g["reason"] == "ENDGAME_TABLES" && g["result"] == "1-1" && g["claim"]["status"] == "false",
        format!("{g}"),
    )?;
    // A resignation.
    let dir = scratch("claim-resign");
    let ran = run_match(
        &dir,
        [hub("A", ""), hub("B", "claim=1:loss")],
        &["--games", "1"],
    );
    ok(&ran)?;
    let g = one_game(&ran, 1);
    check(
        g["reason"] == "RESIGNATION" && g["result"] == "2-0",
        format!("{g}"),
    )
}

fn dxp_claims() -> Result<(), Failed> {
    let dir = scratch("dxp-claim");
    let ran = run_match(
        &dir,
        [dxp("A", ""), dxp("B", "claim=1:win")],
        &["--games", "2", "--strict-claims"],
    );
    ok(&ran)?;
    for g in ran.games() {
        check(g["reason"] == "FALSE_CLAIM", format!("{g}"))?;
        let want = if g["white"] == "A" { "2-0" } else { "0-2" };
        check(g["result"] == want, format!("{g}"))?;
    }
    Ok(())
}

fn tables() -> Result<(), Failed> {
    // A king against a king, no capture anywhere: a draw. A king that takes the last piece
    // at once (28x19 over 23): a win.
    let dir = scratch("tables");
    let o = openings(&dir, "B:WK50:BK1\nW:WK28:BK23\n");
    let ran = run_match(
        &dir,
        [hub("A", ""), hub("B", "")],
        &["--openings", &o, "--adjudicate", "tables"],
    );
    ok(&ran)?;
    for g in ran.games() {
        check(g["reason"] == "ENDGAME_TABLES", format!("{g}"))?;
        check(g["plies"] == 0, format!("decided at the start: {g}"))?;
        let want = if g["opening"] == 1 { "1-1" } else { "2-0" };
        check(g["result"] == want, format!("{g}"))?;
    }
    replay(&ran, &dir)
}

fn max_plies() -> Result<(), Failed> {
    let dir = scratch("max-plies");
    let ran = run_match(
        &dir,
        [hub("A", ""), hub("B", "")],
        &["--games", "2", "--max-plies", "7"],
    );
    ok(&ran)?;
    for g in ran.games() {
        check(
            g["reason"] == "MOVE_LIMIT" && g["plies"] == 7 && g["result"] == "1-1",
            format!("{g}"),
        )?;
    }
    check(
        ran.pdn.contains("adjudicated after ply 7: MOVE_LIMIT"),
        "PDN comment",
    )?;
    replay(&ran, &dir)
}

fn dxp_moves() -> Result<(), Failed> {
    let dir = scratch("dxp-moves");
    let ran = run_match(
        &dir,
        [dxp("A", ""), dxp("B", "")],
        &["--games", "1", "--moves", "3"],
    );
    ok(&ran)?;
    let g = one_game(&ran, 1);
    check(
        g["reason"] == "MOVE_LIMIT" && g["plies"] == 6,
        format!("{g}"),
    )
}

fn concurrency() -> Result<(), Failed> {
    let dir = scratch("concurrency");
    let o = openings(&dir, "W:W43,48:B3,8\nW:W42,47:B4,9\n");
    let ran = run_match(
        &dir,
        [hub("A", ""), hub("B", "")],
        &["--openings", &o, "--concurrency", "2", "--rounds", "2"],
    );
    ok(&ran)?;
    check(ran.games().len() == 8, "eight games")?;
    check(ran.events[0]["concurrency"] == 2, "two slots")?;
    // The file holds the games in order, whatever order they ended in.
    let rounds: Vec<&str> = ran
        .pdn
        .lines()
        .filter_map(|l| l.strip_prefix("[Round \""))
        .collect();
    let want: Vec<String> = (1..=8)
        .map(|n| format!("{}.{n}\"]", if n <= 4 { 1 } else { 2 }))
        .collect();
    check(rounds == want, format!("{rounds:?}"))?;
    replay(&ran, &dir)
}

fn crash() -> Result<(), Failed> {
    for (proto, dir) in [("hub", scratch("crash-hub")), ("dxp", scratch("crash-dxp"))] {
        let make = if proto == "hub" { hub } else { dxp };
        let ran = run_match(
            &dir,
            [make("A", "crash=2"), make("B", "")],
            &["--games", "2"],
        );
        ok(&ran)?;
        for g in ran.games() {
            check(g["reason"] == "CRASH", format!("{proto}: {g}"))?;
            let want = if g["white"] == "A" { "0-2" } else { "2-0" };
            check(g["result"] == want, format!("{g}"))?;
        }
    }
    Ok(())
}

fn garbage() -> Result<(), Failed> {
    let cases = [
        ("dxp", "garbage=1", "PROTOCOL_ERROR"),
        ("dxp", "oversized=1", "PROTOCOL_ERROR"),
        ("hub", "oversized=1", "PROTOCOL_ERROR"),
        ("hub", "garbage=1", "ILLEGAL_MOVE"),
    ];
    for (i, (proto, script, reason)) in cases.into_iter().enumerate() {
        let dir = scratch(&format!("garbage-{i}"));
        let make = if proto == "hub" { hub } else { dxp };
        let ran = run_match(&dir, [make("A", ""), make("B", script)], &["--games", "1"]);
        ok(&ran)?;
        let g = one_game(&ran, 1);
        check(
            g["reason"] == reason && g["result"] == "2-0",
            format!("{proto} {script}: {g}"),
        )?;
    }
    Ok(())
}

fn wrong_side() -> Result<(), Failed> {
    for (proto, dir) in [("dxp", scratch("wrong-dxp")), ("hub", scratch("wrong-hub"))] {
        let make = if proto == "hub" { hub } else { dxp };
        let ran = run_match(
            &dir,
            [make("A", "wrongside=1"), make("B", "")],
            &["--games", "1"],
        );
        ok(&ran)?;
        let g = one_game(&ran, 1);
        check(
            g["reason"] == "PROTOCOL_ERROR" && g["result"] == "0-2",
            format!("{proto}: {g}"),
        )?;
        check(
            g["detail"].as_str().unwrap().contains("not its turn"),
            format!("{g}"),
        )?;
    }
    Ok(())
}

fn illegal_opening() -> Result<(), Failed> {
    let dir = scratch("illegal-opening");
    let o = openings(&dir, "W:W43,48:B3,8\nW:W43,48,51:B3\n");
    let ran = run_match(&dir, [hub("A", ""), hub("B", "")], &["--openings", &o]);
    check(ran.output.status.code() == Some(2), "exit code 2")?;
    let err = String::from_utf8_lossy(&ran.output.stderr);
    check(err.contains("openings.fen:2"), format!("{err}"))?;
    check(ran.games().is_empty(), "no game played")
}

fn bad_command_lines() -> Result<(), Failed> {
    let dir = scratch("bad-lines");
    let cases: Vec<(Vec<String>, Vec<String>, &str)> = vec![
        (hub("A", ""), hub("A", ""), "different name"),
        (
            hub("A", ""),
            vec!["name=B".into(), "proto=dxp".into(), "cmd=x".into()],
            "{port}",
        ),
        (
            hub("A", ""),
            vec!["name=B".into(), "bogus=1".into()],
            "unknown engine key",
        ),
    ];
    for (a, b, says) in cases {
        let ran = run_match(&dir, [a, b], &[]);
        let err = String::from_utf8_lossy(&ran.output.stderr);
        check(
            ran.output.status.code() == Some(2),
            format!("exit 2: {err}"),
        )?;
        check(err.contains(says), format!("'{says}' in {err}"))?;
    }
    let ran = run_match(
        &dir,
        [hub("A", ""), hub("B", "")],
        &["--variant", "turkish"],
    );
    check(ran.output.status.code() == Some(2), "turkish refused")?;
    for (extra, says) in [
        (&["--sprt", "elo0=5", "elo1=0"][..], "elo0 must be less"),
        (
            &["--sprt", "elo0=0", "elo1=5", "--shard", "1/2"][..],
            "fixed length",
        ),
        (&["--shard", "3/2"][..], "--shard 3/2"),
    ] {
        let ran = run_match(&dir, [hub("A", ""), hub("B", "")], extra);
        let err = String::from_utf8_lossy(&ran.output.stderr);
        check(
            ran.output.status.code() == Some(2) && err.contains(says),
            format!("{extra:?}: exit 2 and '{says}': {err}"),
        )?;
    }
    let ran = run_engines(
        &dir,
        &[hub("A", ""), hub("B", ""), hub("C", "")],
        &["--sprt", "elo0=0", "elo1=5"],
    );
    check(
        ran.output.status.code() == Some(2),
        "an SPRT of three engines",
    )?;
    // A program that does not exist: the match stops, exit 1.
    let ran = run_match(
        &dir,
        [
            hub("A", ""),
            vec!["name=B".into(), "cmd=/nonexistent/engine".into()],
        ],
        &["--games", "1"],
    );
    check(ran.output.status.code() == Some(1), "exit 1")
}

fn pdn_openings() -> Result<(), Failed> {
    let dir = scratch("pdn-openings");
    let p = dir.join("openings.pdn");
    std::fs::write(&p, "[Event \"o\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n").unwrap();
    let ran = run_match(
        &dir,
        [hub("A", ""), hub("B", "")],
        &["--openings", p.to_str().unwrap(), "--max-plies", "4"],
    );
    ok(&ran)?;
    // After 32-28 19-23 28x19 14x23: White has lost the man of 32, Black the man of 19.
    let v = arbiter_rules::variant("international").unwrap();
    let want = v.parse_fen("W:W31,33-50:B1-13,15-18,20,23").unwrap();
    let fens: Vec<&str> = ran
        .pdn
        .lines()
        .filter_map(|l| l.strip_prefix("[FEN \"")?.strip_suffix("\"]"))
        .collect();
    check(fens.len() == 2, format!("{fens:?}"))?;
    for f in fens {
        check(v.parse_fen(f).unwrap() == want, format!("FEN tag {f}"))?;
    }
    replay(&ran, &dir)
}

fn documented_variants() -> Result<(), Failed> {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/match.md")).unwrap();
    for (proto, line) in [
        (arbiter::referee::engine::Protocol::Dxp, "Over DXP: "),
        (arbiter::referee::engine::Protocol::Hub, "Over Hub: "),
    ] {
        let listed = doc
            .lines()
            .find_map(|l| l.strip_prefix(line))
            .ok_or("the variants line in docs/match.md")?;
        let mut listed: Vec<String> = listed
            .trim_end_matches('.')
            .split(", ")
            .map(|s| s.trim_matches('`').to_string())
            .collect();
        listed.sort();
        let mut accepted: Vec<String> = arbiter::referee::accepted(proto)
            .into_iter()
            .map(String::from)
            .collect();
        accepted.sort();
        check(listed == accepted, format!("{listed:?} / {accepted:?}"))?;
    }
    Ok(())
}

/// SIGTERM to `arbiter match` ends it, and the engine processes it started with it: engines
/// that never answer (`sleep` with a marker duration), the referee stopped while it
/// waits for them.
fn signal_ends_engines() -> Result<(), Failed> {
    let dir = scratch("signal");
    let marker = |n: u32| format!("cmd=sleep {}", 7000 + n + std::process::id() % 1000);
    let engines = [
        vec!["name=A".to_string(), "proto=hub".into(), marker(1)],
        vec!["name=B".to_string(), "proto=hub".into(), marker(2)],
    ];
    // Whether a process runs with that command line (read from /proc, as pgrep does).
    let running = |n: u32| {
        let wanted = format!("sleep\0{}\0", 7000 + n + std::process::id() % 1000);
        std::fs::read_dir("/proc")
            .into_iter()
            .flatten()
            .flatten()
            .any(|e| std::fs::read(e.path().join("cmdline")).is_ok_and(|c| c == wanted.as_bytes()))
    };
    let child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .current_dir(&dir)
        .arg("match")
        .arg("--json")
        .args(["--engine"])
        .args(&engines[0])
        .args(["--engine"])
        .args(&engines[1])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("start arbiter match: {e}"))?;
    // The first engine started: the referee waits for its `wait` (the engines start one after
    // the other).
    let started = std::time::Instant::now();
    while !running(1) {
        check(
            started.elapsed() < std::time::Duration::from_secs(60),
            "the engines started".to_string(),
        )?;
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .map_err(|e| format!("kill: {e}"))?;
    let out = child.wait_with_output().map_err(|e| format!("wait: {e}"))?;
    let err = String::from_utf8_lossy(&out.stderr);
    check(out.status.code() == Some(130), format!("exit 130: {err}"))?;
    check(
        err.contains("stopped by a signal"),
        format!("says so: {err}"),
    )?;
    let ended = std::time::Instant::now();
    while running(1) || running(2) {
        check(
            ended.elapsed() < std::time::Duration::from_secs(10),
            "the engines were ended with the match".to_string(),
        )?;
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    Ok(())
}

/// A strict DXP follower (`strict`, see `peer.rs`) against the referee: it fails on a GAMEEND
/// sent out of turn and on a second confirmation; every game must end cleanly by the rules,
/// by the move limit and by its own resignation, its log empty.
fn strict_follower() -> Result<(), Failed> {
    let dir = scratch("strict");
    let log = dir.join("violations.log");
    let strict = |name: &str, more: &str| {
        dxp(
            name,
            &format!("strict log={} {more}", log.to_string_lossy()),
        )
    };
    // By the rules: 28x19 takes Black's last man (Black, on turn, gives up); the short opening
    // ends by a draw rule (the engine on turn moves, its move is the last word).
    let o = openings(&dir, "W:W28:B23\nW:W43,48:B3,8\n");
    let cases: Vec<(Vec<&str>, &str, Vec<&str>)> = vec![
        (vec!["--openings", &o], "", vec![]),
        (
            vec!["--games", "2", "--max-plies", "7"],
            "",
            vec!["MOVE_LIMIT"],
        ),
        (
            vec!["--games", "2", "--max-plies", "8"],
            "",
            vec!["MOVE_LIMIT"],
        ),
        (vec!["--games", "2", "--moves", "3"], "", vec!["MOVE_LIMIT"]),
        (vec!["--games", "2"], "claim=2:loss", vec!["RESIGNATION"]),
    ];
    for (extra, b_script, reasons) in cases {
        let ran = run_match(&dir, [strict("A", ""), strict("B", b_script)], &extra);
        ok(&ran)?;
        let violations = std::fs::read_to_string(&log).unwrap_or_default();
        check(violations.is_empty(), format!("{extra:?}: {violations}"))?;
        for g in ran.games() {
            let reason = g["reason"].as_str().unwrap_or_default();
            let fine = if reasons.is_empty() {
                by_rules(reason)
            } else {
                reasons.contains(&reason)
            };
            check(fine, format!("{extra:?}: {g}"))?;
        }
        if extra.contains(&"--openings") {
            check(
                ran.games().iter().any(|g| g["reason"] == "NO_LEGAL_MOVES"),
                format!("{:?}", ran.games()),
            )?;
        }
        check(
            ran.summary()["restarts"] == 0,
            format!("no engine started again: {}", ran.summary()),
        )?;
    }
    Ok(())
}

/// The strict follower itself fails on a referee that breaks the text: a GAMEEND while it is
/// its turn, and a GAMEEND after the game has ended.
fn strict_follower_self_check() -> Result<(), Failed> {
    use std::io::{Read, Write};
    let dir = scratch("strict-self");
    for (case, script) in [("out of turn", 0), ("second", 1)] {
        let log = dir.join(format!("log-{script}"));
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        drop(l);
        let mut child = Command::new(exe())
            .args(["--peer-dxp", "--port", &port.to_string(), "strict"])
            .arg(format!("log={}", log.to_string_lossy()))
            .spawn()
            .unwrap();
        let mut s = loop {
            if let Ok(s) = std::net::TcpStream::connect(("127.0.0.1", port)) {
                break s;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        s.set_nodelay(true).unwrap();
        let send = |s: &mut std::net::TcpStream, m: &str| {
            s.write_all(format!("{m}\0").as_bytes()).unwrap()
        };
        // The follower plays Black: the referee (White) moves first.
        send(&mut s, &format!("R01{:<32}Z001000A", "Bad referee"));
        let mut buf = [0u8; 64];
        let _ = s.read(&mut buf);
        if script == 0 {
            // A move, then at once a GAMEEND: it is the follower's turn.
            send(&mut s, "M0001322800\0E00");
        } else {
            // A GAMEEND on the referee's turn (allowed), confirmed; then a second one.
            send(&mut s, "E20");
            let _ = s.read(&mut buf);
            send(&mut s, "E00");
        }
        let t0 = std::time::Instant::now();
        let status = loop {
            if let Some(st) = child.try_wait().unwrap() {
                break Some(st);
            }
            if t0.elapsed().as_secs() > 20 {
                let _ = child.kill();
                break None;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        check(
            status.and_then(|s| s.code()) == Some(7) && !text.is_empty(),
            format!("{case}: the follower did not fail ({status:?}, '{text}')"),
        )?;
    }
    Ok(())
}

fn mixed_protocols() -> Result<(), Failed> {
    let dir = scratch("mixed");
    let o = openings(&dir, SHORT);
    let ran = run_match(
        &dir,
        [hub("A", ""), dxp("B", "strict")],
        &["--openings", &o],
    );
    ok(&ran)?;
    swapped(&ran)?;
    replay(&ran, &dir)
}

fn tournaments() -> Result<(), Failed> {
    let dir = scratch("tournament");
    let o = openings(&dir, SHORT);
    let three = [hub("A", ""), hub("B", "illegal=3"), dxp("C", "strict")];
    let ran = run_engines(&dir, &three, &["--openings", &o]);
    ok(&ran)?;
    let games = ran.games();
    check(games.len() == 6, format!("{} games", games.len()))?;
    for (x, y) in [("A", "B"), ("A", "C"), ("B", "C")] {
        let n = games
            .iter()
            .filter(|g| {
                (g["white"] == x && g["black"] == y) || (g["white"] == y && g["black"] == x)
            })
            .count();
        check(n == 2, format!("{x}-{y}: {n} games"))?;
    }
    let s = ran.summary();
    check(
        s["standings"].as_array().map(Vec::len) == Some(3),
        format!("{s}"),
    )?;
    check(s["crosstable"][0][1]["wins"].is_u64(), format!("{s}"))?;
    // B loses every game by its illegal move: last, with no point.
    check(
        s["standings"][2]["name"] == "B" && s["standings"][2]["points"] == 0.0,
        format!("{s}"),
    )?;
    check(
        s["pairings"].as_array().map(Vec::len) == Some(3),
        format!("{s}"),
    )?;
    replay(&ran, &dir)?;
    // The report of the file agrees, with a crosstable in its text.
    let out = report(&[&dir.join("games.pdn")], &[]);
    let text = String::from_utf8_lossy(&out.stdout);
    check(
        out.status.success() && text.contains("Crosstable"),
        format!("{text}"),
    )?;
    let dir = scratch("gauntlet");
    let o = openings(&dir, SHORT);
    let ran = run_engines(
        &dir,
        &three,
        &["--openings", &o, "--tournament", "gauntlet"],
    );
    ok(&ran)?;
    let games = ran.games();
    check(games.len() == 4, format!("{} games", games.len()))?;
    check(
        games.iter().all(|g| g["white"] == "A" || g["black"] == "A"),
        "A in every game",
    )
}

/// `arbiter match report` of files, with extra arguments.
fn report(files: &[&Path], extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["match", "report"])
        .args(files)
        .args(extra)
        .output()
        .unwrap()
}

fn report_json(files: &[&Path], extra: &[&str]) -> Result<Value, Failed> {
    let mut args = vec!["--json"];
    args.extend_from_slice(extra);
    let out = report(files, &args);
    check(
        out.status.success(),
        format!("report: {}", String::from_utf8_lossy(&out.stderr)),
    )?;
    serde_json::from_slice(&out.stdout).map_err(|e| format!("report JSON: {e}").into())
}

fn sprt_stops() -> Result<(), Failed> {
    for (first, second, decision) in [("", "illegal=1", "h1"), ("illegal=1", "", "h0")] {
        let dir = scratch(&format!("sprt-{decision}"));
        let ran = run_match(
            &dir,
            [hub("A", first), hub("B", second)],
            &["--sprt", "elo0=0", "elo1=5", "--games", "400"],
        );
        ok(&ran)?;
        let s = ran.summary();
        check(
            s["stopped"] == "sprt" && s["sprt"]["decision"] == decision,
            format!("{s}"),
        )?;
        let n = s["games"].as_u64().unwrap();
        check(n < 400 && n % 2 == 0, format!("{n} games"))?;
        let last = ran.games().last().cloned().cloned().unwrap_or_default();
        check(last["sprt"]["llr"].is_f64(), format!("live LLR: {last}"))?;
        // Every pair won by one side: the degenerate counts decide, no figure is infinite.
        let r = report_json(&[&dir.join("games.pdn")], &["--sprt", "elo0=0", "elo1=5"])?;
        // The files may follow --sprt's words.
        let after = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["match", "report", "--json", "--sprt", "elo0=0", "elo1=5"])
            .arg(dir.join("games.pdn"))
            .output()
            .unwrap();
        let after: Value = serde_json::from_slice(&after.stdout).map_err(|e| e.to_string())?;
        check(after["sprt"] == r["sprt"], format!("{after}"))?;
        check(r["sprt"] == s["sprt"], format!("{r} / {s}"))?;
        let text = String::from_utf8_lossy(
            &report(&[&dir.join("games.pdn")], &["--sprt", "elo0=0", "elo1=5"]).stdout,
        )
        .to_string();
        check(
            text.contains(if decision == "h1" {
                "H1 accepted"
            } else {
                "H0 accepted"
            }),
            text,
        )?;
    }
    Ok(())
}

/// The games of a PDN file by number: (white, black, result, reason).
fn games_of(pdn: &str) -> Vec<(u64, String)> {
    let mut out = Vec::new();
    let mut number = 0;
    let mut tags = String::new();
    for l in pdn.lines() {
        if let Some(r) = l.strip_prefix("[Round \"") {
            number = r.split(['.', '"']).nth(1).unwrap().parse().unwrap();
        }
        for t in ["White", "Black", "Result", "Termination"] {
            if let Some(v) = l.strip_prefix(&format!("[{t} \"")) {
                tags.push_str(v);
            }
        }
        if l.starts_with("[Verdict") {
            out.push((number, std::mem::take(&mut tags)));
        }
    }
    out.sort();
    out
}

fn kill_and_resume() -> Result<(), Failed> {
    let dir = scratch("resume");
    let o = openings(&dir, "W:W43,48:B3,8\nW:W42,47:B4,9\n");
    let engines = [hub("A", "delay=40"), hub("B", "delay=40")];
    let args = ["--openings", o.as_str(), "--rounds", "3"];
    // The whole match, never stopped, for comparison.
    let whole = run_match(&dir, engines.clone(), &args);
    ok(&whole)?;
    let pdn = dir.join("killed.pdn");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    cmd.args(["match", "--json", "--tc", "60", "--pdn"])
        .arg(&pdn)
        .args(args);
    for e in &engines {
        cmd.arg("--engine").args(e);
    }
    let mut child = cmd
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let t0 = std::time::Instant::now();
    while games_of(&std::fs::read_to_string(&pdn).unwrap_or_default()).len() < 3 {
        if t0.elapsed().as_secs() > 120 {
            let _ = child.kill();
            let _ = child.wait();
            return Err("three games written within two minutes".into());
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // SIGKILL: no chance to finish anything.
    let _ = child.kill();
    let _ = child.wait();
    // A write cut short: half a game at the end of the file.
    let text = std::fs::read_to_string(&pdn).unwrap();
    let first_game = &whole.pdn[..whole.pdn.find("\n\n").unwrap()];
    let torn = &first_game[..first_game.len() * 2 / 3];
    std::fs::write(&pdn, format!("{text}{torn}")).unwrap();
    let before = games_of(&text).len();
    check(before < 12, format!("killed after {before} games of 12"))?;
    let mut more = args.to_vec();
    more.extend(["--resume", "--pdn", pdn.to_str().unwrap()]);
    let resumed = run_match(&dir, engines.clone(), &more);
    ok(&resumed)?;
    check(
        resumed.events[0]["resumed"] == before as u64,
        format!("{} read back, {} whole", resumed.events[0], before),
    )?;
    let after = std::fs::read_to_string(&pdn).unwrap();
    // No game lost, none twice, the same games as the match never stopped.
    check(
        games_of(&after) == games_of(&whole.pdn),
        format!("{:?}\n{:?}", games_of(&after), games_of(&whole.pdn)),
    )?;
    let a = report_json(&[&pdn], &[])?;
    let b = report_json(&[&dir.join("games.pdn")], &[])?;
    check(
        a["standings"] == b["standings"] && a["pairings"] == b["pairings"],
        format!("{a}\n{b}"),
    )?;
    let judged = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["judge", "--ndjson"])
        .arg(&pdn)
        .output()
        .unwrap();
    let jt = String::from_utf8_lossy(&judged.stdout);
    check(
        judged.status.success() && !jt.contains("\"error\":{"),
        format!("judge: {jt}"),
    )?;
    // Resumed again: nothing left to play.
    let again = run_match(&dir, engines.clone(), &more);
    ok(&again)?;
    check(
        again.events[0]["to_play"] == 0,
        format!("{}", again.events[0]),
    )?;
    // Other arguments: another match, refused.
    let mut other = more.clone();
    other.extend(["--tc", "30"]);
    let refused = run_match(&dir, engines, &other);
    let err = String::from_utf8_lossy(&refused.output.stderr);
    check(
        refused.output.status.code() == Some(2) && err.contains("another match"),
        format!("{err}"),
    )
}

fn shards() -> Result<(), Failed> {
    let dir = scratch("shards");
    let o = openings(&dir, "W:W43,48:B3,8\nW:W42,47:B4,9\nW:W41,46:B5,10\n");
    let engines = [hub("A", "illegal=4"), hub("B", "")];
    let args = ["--openings", o.as_str(), "--games", "10"];
    let whole = run_match(&dir, engines.clone(), &args);
    ok(&whole)?;
    let mut files = Vec::new();
    for i in 1..=2 {
        let f = dir.join(format!("shard-{i}.pdn"));
        let shard = format!("{i}/2");
        let mut a = args.to_vec();
        a.extend(["--shard", &shard, "--pdn", f.to_str().unwrap()]);
        let ran = run_match(&dir, engines.clone(), &a);
        ok(&ran)?;
        // Pairs stay together: each shard plays whole pairs.
        for g in ran.games() {
            let n = g["game"].as_u64().unwrap();
            let pair = n.div_ceil(2);
            check((pair - 1) % 2 == i - 1, format!("game {n} in shard {i}"))?;
        }
        files.push(f);
    }
    let merged: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let r = report_json(&merged, &[])?;
    let w = report_json(&[&dir.join("games.pdn")], &[])?;
    check(r["games"] == 10, format!("{r}"))?;
    check(
        r["standings"] == w["standings"] && r["pairings"] == w["pairings"],
        format!("{r}\n{w}"),
    )?;
    let mut joined = String::new();
    for f in &files {
        joined.push_str(&std::fs::read_to_string(f).unwrap());
    }
    check(
        games_of(&joined) == games_of(&whole.pdn),
        "the slices are the schedule",
    )?;
    // A shard's file twice: its games would count twice.
    let twice = report(&[merged[0], merged[0]], &[]);
    check(
        twice.status.code() == Some(2)
            && String::from_utf8_lossy(&twice.stderr).contains("played twice"),
        "a file twice is refused",
    )
}

/// A PDN file of the games of a published run, rebuilt from its pentanomial counts and its
/// wins, draws and losses (pairs of no moves, each game's result and reason): the report must
/// print the figures the run's page printed.
fn published_file(path: &Path, penta: [u32; 5], wl: u32) -> Result<(), Failed> {
    let mut text = String::new();
    let mut n = 0;
    let mut game = |text: &mut String, white: &str, black: &str, verdict: &str| {
        n += 1;
        let (result, reason) = match verdict {
            "white_wins" => ("2-0", "RESIGNATION"),
            "black_wins" => ("0-2", "RESIGNATION"),
            _ => ("1-1", "ENGINE_CLAIM"),
        };
        text.push_str(&format!(
            "[Event \"published\"]\n[Round \"1.{n}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n\
             [Result \"{result}\"]\n[PlyCount \"0\"]\n[Termination \"{reason}\"]\n\
             [Verdict \"{verdict}\"]\n[MatchId \"published\"]\n\n{result}\n\n"
        ));
    };
    // The first engine "new" is White in each pair's first game; its points in the pair.
    let pairs: [(&str, &str); 6] = [
        ("black_wins", "white_wins"), // LL
        ("black_wins", "draw"),       // LD
        ("draw", "draw"),             // DD
        ("white_wins", "white_wins"), // WL
        ("white_wins", "draw"),       // DW
        ("white_wins", "black_wins"), // WW
    ];
    let counts = [penta[0], penta[1], penta[2] - wl, wl, penta[3], penta[4]];
    for (k, &(g1, g2)) in pairs.iter().enumerate() {
        for _ in 0..counts[k] {
            game(&mut text, "new", "base", g1);
            game(&mut text, "base", "new", g2);
        }
    }
    std::fs::write(path, text).map_err(|e| e.to_string().into())
}

fn report_published() -> Result<(), Failed> {
    let dir = scratch("published");
    // OpenBench, https://paulsonkoly.pythonanywhere.com/test/34/ (quoted in
    // https://github.com/paulsonkoly/chess-3/pull/39): H0 accepted.
    let a = dir.join("chess-3-34.pdn");
    published_file(&a, [78, 64, 64, 14, 4], 45)?;
    let out = report(&[&a], &["--sprt", "elo0=0", "elo1=5"]);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    for line in [
        "Elo   | -164.92 +- 30.04 (95%)",
        "LLR   | -2.95 (-2.94, 2.94) [0.00, 5.00] H0 accepted",
        "Games | N: 448 W: 67 L: 265 D: 116",
        "Penta | [78, 64, 64, 14, 4]",
    ] {
        check(text.contains(line), format!("'{line}' in\n{text}"))?;
    }
    // OpenBench, https://chess.aronpetkovski.com/test/2502/ (quoted in
    // https://github.com/Yoshie2000/PlentyChess/pull/213), alpha 0.05 and beta 0.1.
    let b = dir.join("plenty-2502.pdn");
    published_file(&b, [44, 241, 590, 413, 71], 343)?;
    let out = report(&[&b], &["--sprt", "elo0=0", "elo1=3", "beta=0.1"]);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    for line in [
        "Elo   | 28.96 +- 8.30 (95%)",
        "LLR   | 2.91 (-2.25, 2.89) [0.00, 3.00] H1 accepted",
        "Games | N: 2718 W: 898 L: 672 D: 1148",
        "Penta | [44, 241, 590, 413, 71]",
    ] {
        check(text.contains(line), format!("'{line}' in\n{text}"))?;
    }
    Ok(())
}
