//! The `arbiter` command line.

use std::process::Command;

use serde_json::Value;

use crate::helpers::{ok_json, spawn_app};

fn arbiter(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .output()
        .expect("run arbiter")
}

#[test]
fn perft_json_last_line() {
    let out = arbiter(&[
        "perft",
        "--variant",
        "international",
        "--depth",
        "3",
        "--json",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let last: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(last["variant"], "international");
    assert_eq!(last["depth"], 3);
    assert_eq!(last["nodes"], 658);
    assert!(last["seconds"].is_number());
    let keys: Vec<&String> = last.as_object().unwrap().keys().collect();
    assert_eq!(&keys[..4], ["variant", "depth", "nodes", "seconds"]);
}

#[test]
fn perft_keep_counts_every_capture_route() {
    // dctl board_08x08.cpp, Russian depth 8: 929 899 moves ("drop"), 929 905 routes ("keep").
    let nodes = |extra: &[&str]| {
        let mut args = vec!["perft", "--variant", "russian", "--depth", "8", "--json"];
        args.extend_from_slice(extra);
        let out = arbiter(&args);
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        let last: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
        last["nodes"].as_u64().unwrap()
    };
    assert_eq!(nodes(&[]), 929_899);
    assert_eq!(nodes(&["--keep"]), 929_905);
}

#[test]
fn perft_divide_lists_each_first_move() {
    let out = arbiter(&["perft", "--variant", "english", "--depth", "2", "--divide"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let split: Vec<&str> = text
        .lines()
        .filter(|l| l.split(':').next().is_some_and(|m| m.contains('-')))
        .collect();
    assert_eq!(split.len(), 7, "{text}");
    assert!(text.contains("11-15: 7"), "{text}");
    assert!(text.contains("nodes: 49"), "{text}");
}

#[tokio::test]
async fn moves_prints_the_http_answer() {
    let out = arbiter(&["moves", "--variant", "english", "--fen", "B:W21-32:B1-12"]);
    assert!(out.status.success());
    let cli: Value = serde_json::from_slice(&out.stdout).unwrap();
    let app = spawn_app().await;
    let http = ok_json(app.get("/v1/variants/english/moves").await).await;
    assert_eq!(cli, http);
}

#[test]
fn openapi_prints_the_document() {
    let out = arbiter(&["openapi"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text.trim_end(),
        arbiter::openapi::document_json().trim_end()
    );
}

#[test]
fn bad_input_exits_with_code_2_and_a_message() {
    let cases: [&[&str]; 4] = [
        &["perft", "--variant", "chess", "--depth", "1"],
        &["perft", "--variant", "international", "--depth", "x"],
        &["moves", "--variant", "international", "--fen", "W:W99"],
        &["moves", "--variant", "nope"],
    ];
    for args in cases {
        let out = arbiter(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            !err.is_empty() && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn judge_pdn_writes_the_games_back_as_canonical_pdn() {
    let dir = std::env::temp_dir().join(format!("arbiter-cli-pdn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("games.pdn");
    std::fs::write(
        &file,
        "[Event \"A\"]\n[GameType \"20\"]\n[FEN \"W:W28:B23\"]\n[Result \"*\"]\n1. 28x19 *\n\n\
         [GameType \"41\"]\n1. 1-2 *\n",
    )
    .unwrap();
    let out = arbiter(&["judge", file.to_str().unwrap(), "--pdn"]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text,
        "[Event \"A\"]\n[GameType \"20,W,10,10,N2,0\"]\n[FEN \"W:W28:B23\"]\n[Result \"2-0\"]\n\n\
         1. 28x19 {game over after ply 1: NO_LEGAL_MOVES} 2-0\n\n\
         {game 2 (line 7) could not be judged: unsupported-variant: GameType \"41\" is not a \
         variant this service supports}\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
