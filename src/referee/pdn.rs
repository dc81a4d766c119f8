//! The PDN record of a refereed game, written by the engine's PDN writer
//! ([`write_pdn`]): the tags of the match (`Event`, `Round`, `White`, `Black`, `Result`, the
//! variant's `GameType`, `FEN` when the game starts elsewhere than the start position), the
//! reason the game ended (`Termination`, with the words in `TerminationDetail`), the time
//! control and the clocks at the end (`TimeControl`, or `WhiteTimeControl` and
//! `BlackTimeControl` with time odds; `WhiteClock`, `BlackClock`), the opening
//! (`Opening`), the result from White's side (`Verdict`: `white_wins`, `black_wins`, `draw`,
//! `unknown`) and the match (`MatchId`), then the moves played, each checked. An illegal move is a comment after the
//! last legal one; a game the rules or the adjudication ended says so in a comment. The reason
//! codes are those `/judge` uses, and the referee's own for forfeits and claims.

use arbiter_rules::adjudication::{result_text, write_pdn, PdnOut, ResultConvention};
use arbiter_rules::{Color, Verdict};

use super::clock::{clock_text, Clocks};
use super::game::{Game, GameEnd};

/// What the tags of a game say besides the game itself.
pub struct Tags<'a> {
    pub event: &'a str,
    pub round: usize,
    /// The game's number in the match.
    pub number: usize,
    pub white: &'a str,
    pub black: &'a str,
    pub opening: &'a str,
    /// Each side's game time in seconds (White's, Black's), and DXP's number of moves
    /// (0: none).
    pub time: [f64; 2],
    pub moves: u32,
    /// The match's identity (`MatchId`): the same for every game of a match and its shards.
    pub match_id: &'a str,
}

/// The result of a game as its PDN tag writes it (`2-0`, `1-1`, `0-2`, `*` in the
/// international style; first mover's score first).
pub fn result(game: &Game, end: &GameEnd) -> &'static str {
    result_text(game.variant, end.verdict, ResultConvention::FirstMover)
}

/// The game's PDN text.
pub fn game_text(tags: &Tags, game: &Game, end: &GameEnd, clocks: &Clocks) -> String {
    let control = |seconds: f64| {
        if tags.moves > 0 {
            format!("{}/{}", tags.moves, seconds)
        } else {
            format!("{seconds}")
        }
    };
    // One TimeControl when both sides have the same time; with time odds, each side's.
    let times = if tags.time[0] == tags.time[1] {
        vec![("TimeControl".to_string(), control(tags.time[0]))]
    } else {
        vec![
            ("WhiteTimeControl".to_string(), control(tags.time[0])),
            ("BlackTimeControl".to_string(), control(tags.time[1])),
        ]
    };
    let mut list = vec![
        ("Event".to_string(), tags.event.to_string()),
        (
            "Round".to_string(),
            format!("{}.{}", tags.round, tags.number),
        ),
        ("White".to_string(), tags.white.to_string()),
        ("Black".to_string(), tags.black.to_string()),
        ("Opening".to_string(), tags.opening.to_string()),
    ];
    list.extend(times);
    list.extend([
        (
            "WhiteClock".to_string(),
            clock_text(clocks.left(Color::White)),
        ),
        (
            "BlackClock".to_string(),
            clock_text(clocks.left(Color::Black)),
        ),
        ("PlyCount".to_string(), game.ply().to_string()),
        ("Termination".to_string(), end.code.to_string()),
        ("TerminationDetail".to_string(), end.detail.clone()),
        (
            "Verdict".to_string(),
            super::play::verdict_code(end.verdict).to_string(),
        ),
        ("MatchId".to_string(), tags.match_id.to_string()),
    ]);
    // The judgement the writer reads: the rules' or the adjudication's reason when they
    // ended the game; a forfeit or a claim leaves the moves undecided, and the tags say why.
    let verdict = if end.reason.is_some() {
        end.verdict
    } else {
        Verdict::Undecided
    };
    let judgement = game.judgement(verdict, end.reason, end.illegal.clone());
    write_pdn(&PdnOut {
        variant: game.variant,
        tags: &list,
        start: &game.start,
        counters: None,
        judgement: &judgement,
        warnings: &[],
        result: result(game, end),
    })
}
