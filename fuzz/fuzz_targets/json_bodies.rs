//! JSON request bodies: arbitrary bytes read as each request body of the service, then, for
//! the ones that parse, the engine run the way the handlers run it. The first byte picks the
//! variant (the path's `{variant}`), the rest is the body.
//!
//! The handlers are being turned into plain functions; until then the `run_*` functions below
//! repeat what each handler does between reading the body and writing the answer (switch
//! each to the handler's own function when it exists).

#![no_main]

use arbiter::api::judge::JudgeRequest;
use arbiter::api::moves::{list_moves, MovesRequest};
use arbiter::api::pdn::{judge_pdn_text, PdnRequest};
use arbiter::api::play::PlayRequest;
use arbiter::api::{check_move_count, find_variant, parse_position};
use arbiter_fuzz::{budget, pick_variant};
use arbiter_rules::adjudication::check_declared;
use arbiter_rules::{judge_within, status_within, Variant};
use libfuzzer_sys::fuzz_target;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// Games judged per PDN body here (the service allows 200; a few keep each input fast).
const MAX_GAMES: usize = 5;

/// Reads `body` as a `T`; a body that parses also survives writing and reading again.
fn read<T: DeserializeOwned + Serialize>(body: &[u8]) -> Option<T> {
    let value: T = serde_json::from_slice(body).ok()?;
    let written = serde_json::to_value(&value).expect("a request serializes");
    let again: T = serde_json::from_value(written.clone()).expect("a written request reads back");
    assert_eq!(serde_json::to_value(&again).expect("serializes"), written);
    Some(value)
}

/// `POST /v1/variants/{variant}/moves`.
fn run_moves(v: &Variant, req: MovesRequest) {
    if let Ok(answer) = list_moves(v.id(), req.position.as_deref()) {
        serde_json::to_vec(&answer).expect("the moves answer serializes");
    }
}

/// `POST /v1/variants/{variant}/play`.
fn run_play(v: &Variant, req: PlayRequest) {
    let texts = match (req.single, req.moves) {
        (Some(m), None) => vec![m],
        (None, Some(ms)) => ms,
        _ => return,
    };
    if check_move_count(texts.len()).is_err() {
        return;
    }
    let Ok(mut pos) = parse_position(v, "position", req.position.as_deref()) else {
        return;
    };
    let budget = budget();
    for text in &texts {
        let Ok(d) = v.parse_move_within(&pos, text, &budget) else {
            // The handler lists the legal moves with its error.
            let _ = v.describe_moves_within(&pos, &budget);
            return;
        };
        pos = v.play(&pos, &d.mv);
    }
    let _ = status_within(v, &pos, &budget);
    let _ = v.fen(&pos);
}

/// `POST /v1/variants/{variant}/judge`.
fn run_judge(v: &Variant, req: JudgeRequest) {
    if check_move_count(req.moves.len()).is_err() {
        return;
    }
    let Ok(start) = parse_position(v, "start_position", req.start_position.as_deref()) else {
        return;
    };
    let Ok(j) = judge_within(v, start, &req.moves, &budget()) else {
        return;
    };
    assert!(j.moves.len() + j.moves_after_end <= req.moves.len());
    if let Some(claimed) = req.claimed_result {
        let text = serde_json::to_value(claimed).expect("a claimed result serializes");
        check_declared(v, &j, text.as_str());
    }
}

/// `POST /v1/judge/pdn` with a JSON body.
fn run_pdn(req: PdnRequest) {
    let explicit = match req.variant.as_deref().map(find_variant) {
        Some(Ok(v)) => Some(v),
        Some(Err(_)) => return,
        None => None,
    };
    if let Ok(answer) = judge_pdn_text(&req.pdn, explicit, MAX_GAMES) {
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
