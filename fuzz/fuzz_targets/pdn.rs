//! PDN reader: arbitrary bytes decoded as a PDN body is (`decode_pdn`), split into games with
//! and without limits, then judged as `POST /v1/judge/pdn` does (at most 5 games).
//!
//! `count_games` agrees with the games read; the bounded reader keeps a prefix of what the
//! unbounded one keeps and counts the same plies; judging never panics and reports every
//! game; a judged game written back as canonical PDN (`include_pdn`) is judged the same way
//! when read again (unless it had an illegal move, which the written game leaves out).

#![no_main]

use arbiter::ops::judge::JudgeOptions;
use arbiter::ops::records::{
    decode_pdn, judge_pdn_text, MAX_PLIES_PER_GAME, MAX_TAGS_PER_GAME, MAX_TOKEN_BYTES,
};
use arbiter_fuzz::budget;
use arbiter_rules::adjudication::no_tables;
use arbiter_rules::notation::pdn::{parse_pdn, PdnLimits, PdnReader};
use libfuzzer_sys::fuzz_target;

const MAX_GAMES: usize = 5;

fuzz_target!(|data: &[u8]| {
    let text = decode_pdn(data);
    let count = PdnReader::count_games(&text);
    let full = parse_pdn(&text);
    assert_eq!(count, full.len(), "count_games and the games read differ");

    let limits = PdnLimits {
        max_plies: MAX_PLIES_PER_GAME,
        max_tags: MAX_TAGS_PER_GAME,
        max_token: MAX_TOKEN_BYTES,
    };
    let bounded: Vec<_> = PdnReader::new(&text, limits).collect();
    assert_eq!(
        bounded.len(),
        full.len(),
        "limits change the number of games"
    );
    for (b, f) in bounded.iter().zip(&full) {
        assert_eq!(b.plies, f.plies);
        assert_eq!(b.line, f.line);
        // A terminator can be the Result tag's value, cut like it.
        assert_eq!(b.terminator.is_some(), f.terminator.is_some());
        if let (Some(bt), Some(ft)) = (&b.terminator, &f.terminator) {
            assert!(ft.starts_with(bt.as_str()) && bt.len() <= limits.max_token);
        }
        assert!(b.moves.len() <= limits.max_plies && b.moves.len() <= f.moves.len());
        for (bm, fm) in b.moves.iter().zip(&f.moves) {
            assert!(fm.text.starts_with(&bm.text));
            assert_eq!((bm.number, bm.line), (fm.number, fm.line));
        }
        assert!(b.tags.len() <= f.tags.len());
    }

    match judge_pdn_text(
        &text,
        None,
        MAX_GAMES,
        JudgeOptions {
            include_pdn: true,
            ..JudgeOptions::default()
        },
        &mut no_tables,
        &budget(),
    ) {
        Ok(answer) => {
            assert!(count <= MAX_GAMES);
            assert_eq!(answer.games.len(), count);
            serde_json::to_vec(&answer).expect("the answer serializes");
            for g in &answer.games {
                let (Some(pdn), Some(verdict)) = (&g.pdn, g.verdict) else {
                    continue;
                };
                if serde_json::to_value(verdict).unwrap() == "invalid" {
                    continue;
                }
                let Ok(again) = judge_pdn_text(
                    pdn,
                    None,
                    1,
                    JudgeOptions::default(),
                    &mut no_tables,
                    &budget(),
                ) else {
                    continue;
                };
                let a = &again.games[0];
                assert_eq!(a.variant, g.variant, "{pdn}");
                assert_eq!(
                    serde_json::to_value(a.verdict).unwrap(),
                    serde_json::to_value(g.verdict).unwrap(),
                    "{pdn}"
                );
                assert_eq!(a.final_position, g.final_position, "{pdn}");
                assert_eq!(a.plies, g.plies, "{pdn}");
            }
        }
        Err(e) => assert!(
            count > MAX_GAMES || e.problem().code == arbiter::problem::ProblemCode::BudgetExceeded,
            "{}",
            e.problem().detail
        ),
    }
});
