//! JSON request bodies: arbitrary bytes read as each request body of the service, as the
//! service reads them (a JSON object, or 400), then, for the ones that parse, the handler's own
//! function run under a work budget. The first byte picks the variant (the path's `{variant}`),
//! the rest is the body.

#![no_main]

use arbiter::api::judge::JudgeRequest;
use arbiter::api::moves::MovesRequest;
use arbiter::api::pdn::PdnRequest;
use arbiter::api::play::PlayRequest;
use arbiter::http::json::parse_json_object;
use arbiter::ops::judge::{judge_game, JudgeSettings};
use arbiter::ops::moves::list_moves;
use arbiter::ops::play::play_moves;
use arbiter::ops::records::judge_pdn_text;
use arbiter::ops::{check_move_count, find_variant};
use arbiter_fuzz::{budget, pick_variant};
use arbiter_rules::adjudication::no_tables;
use arbiter_rules::Variant;
use libfuzzer_sys::fuzz_target;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// Games judged per PDN body here (the service allows 200; a few keep each input fast).
const MAX_GAMES: usize = 5;

/// Reads `body` as the service does; a body that parses also survives writing and reading
/// again.
fn read<T: DeserializeOwned + Serialize>(body: &[u8]) -> Option<T> {
    let value: T = parse_json_object(body).ok()?;
    let written = serde_json::to_value(&value).expect("a request serializes");
    let again: T = serde_json::from_value(written.clone()).expect("a written request reads back");
    assert_eq!(serde_json::to_value(&again).expect("serializes"), written);
    Some(value)
}

/// `POST /v1/variants/{variant}/moves`.
fn run_moves(v: &'static Variant, req: MovesRequest) {
    if let Ok(answer) = list_moves(v, req.position.as_deref(), &budget()) {
        serde_json::to_vec(&answer).expect("the moves answer serializes");
    }
}

/// `POST /v1/variants/{variant}/play` (the handler checks `move`/`moves` first).
fn run_play(v: &'static Variant, req: PlayRequest) {
    let texts = match (req.single, req.moves) {
        (Some(m), None) => vec![m],
        (None, Some(ms)) => ms,
        _ => return,
    };
    if check_move_count(texts.len()).is_err() {
        return;
    }
    if let Ok(answer) = play_moves(v, req.position.as_deref(), &texts, &budget()) {
        assert!(answer.moves.len() == texts.len());
        serde_json::to_vec(&answer).expect("the play answer serializes");
    }
}

/// `POST /v1/variants/{variant}/judge`.
fn run_judge(v: &'static Variant, req: JudgeRequest) {
    let Ok(game) = req.into_input() else {
        return;
    };
    if let Ok(answer) = judge_game(v, &game, &mut no_tables, &budget()) {
        assert!(answer.plies + answer.moves_after_end <= game.moves.len());
        serde_json::to_vec(&answer).expect("the judge answer serializes");
    }
}

/// `POST /v1/judge/pdn` with a JSON body.
fn run_pdn(req: PdnRequest) {
    let explicit = match req.variant.as_deref().map(find_variant) {
        Some(Ok(v)) => Some(v),
        Some(Err(_)) => return,
        None => None,
    };
    let settings = JudgeSettings {
        result_convention: req.result_convention,
        include_pdn: req.include_pdn,
        adjudicate: None,
        max_plies: req.max_plies,
    };
    let Ok(settings) = settings.check(false) else {
        return;
    };
    if let Ok(answer) = judge_pdn_text(
        &req.pdn,
        explicit,
        MAX_GAMES,
        settings.options(),
        &mut no_tables,
        &budget(),
    ) {
        serde_json::to_vec(&answer).expect("the PDN answer serializes");
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    let v = pick_variant(pick);
    if let Some(req) = read::<MovesRequest>(body) {
        run_moves(v, req);
    }
    if let Some(req) = read::<PlayRequest>(body) {
        run_play(v, req);
    }
    if let Some(req) = read::<JudgeRequest>(body) {
        run_judge(v, req);
    }
    if let Some(req) = read::<PdnRequest>(body) {
        run_pdn(req);
    }
});
