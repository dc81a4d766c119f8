//! One game, whatever the engines' protocols: the one game loop over the engine interface
//! ([`Engine`]). It starts the game with both engines, asks the side to move for its move
//! within its clock, checks the move with the rules engine and hands it to the other, watches
//! the engine that waits for a message out of turn, ends the game for the first reason that
//! applies, and then ends it with each engine as its protocol wants.

use std::sync::Arc;
use std::time::{Duration, Instant};

use arbiter_rules::{Color, Verdict};

use super::clock::{clock_text, Clocks};
use super::engine::{Ask, Ending, GameStart, Heard, MoveNumbers, Player, Timeouts};
use super::game::{Adjudicating, ClaimKind, ClaimRecord, Forfeit, Game, GameEnd};
use crate::tables::TableStore;

/// What a game needs of the match.
pub struct Rules {
    /// DXP's number of moves (0: none); the game ends at that move.
    pub moves: u32,
    pub adjudicating: Adjudicating,
    pub tables: Arc<TableStore>,
    pub timeouts: Timeouts,
    /// The flag falls this long after a clock reads zero.
    pub margin: Duration,
}

/// How a game went.
pub struct Played {
    pub end: GameEnd,
    /// The game never started: an engine failed before it had accepted it (no GAMEACC, no
    /// `pong`, a crash at the game request). The side that failed.
    pub failed_to_start: Option<Color>,
}

fn idx(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The game's end by the rules, the tables or the move limit, before the side to move plays.
/// Probing the tables may build one: the worker thread is handed over meanwhile.
fn check_end(rules: &Rules, game: &mut Game) -> Result<Option<GameEnd>, String> {
    let mut adjudicating = rules.adjudicating;
    if rules.moves > 0 {
        let limit = 2 * rules.moves as usize;
        adjudicating.max_plies = Some(adjudicating.max_plies.map_or(limit, |n| n.min(limit)));
    }
    if adjudicating.tables || adjudicating.max_plies.is_some() {
        tokio::task::block_in_place(|| game.check_end(adjudicating, &rules.tables))
    } else {
        game.check_end(adjudicating, &rules.tables)
    }
}

fn resolve_claim(rules: &Rules, game: &Game, by: Color, claim: ClaimKind) -> GameEnd {
    tokio::task::block_in_place(|| {
        game.resolve_claim(by, claim, rules.adjudicating, Some(&rules.tables))
    })
}

/// Records a claim made together with a move whose position the rules or the adjudication
/// ended: their result stands; the claim agrees with it or not.
fn note_claim(end: &mut GameEnd, by: Color, claim: ClaimKind, ply: usize) {
    let agrees = claim.verdict(by) == Some(end.verdict);
    end.claim = Some(ClaimRecord {
        by: by.name(),
        claim,
        ply,
        status: if agrees { "confirmed" } else { "false" },
        detail: format!("the game ended by {}", end.code),
    });
}

/// Plays a game between `players` (White's, then Black's) from `game`'s start.
pub async fn play(
    rules: &Rules,
    players: [&mut Player; 2],
    game: &mut Game,
    clocks: &mut Clocks,
) -> Result<Played, String> {
    let [white, black] = players;
    let mut players = [white, black];
    // A game over before its first move (the tables decide its start) is never asked for.
    if let Some(end) = check_end(rules, game)? {
        return Ok(Played {
            end,
            failed_to_start: None,
        });
    }
    let started = {
        let sw = GameStart::new(game, Color::White, clocks, rules.moves, rules.timeouts);
        let sb = GameStart::new(game, Color::Black, clocks, rules.moves, rules.timeouts);
        let [w, b] = &mut players;
        let (rw, rb) = tokio::join!(w.start_game(&sw), b.start_game(&sb));
        [rw, rb]
    };
    let failed = Color::BOTH
        .into_iter()
        .find_map(|c| started[idx(c)].clone().err().map(|f| (c, f)));
    let end = match failed {
        Some((side, f)) => {
            if !f.forfeit.keeps_connection() {
                players[idx(side)].channel().broken = true;
            }
            Played {
                end: game.forfeit(side, f.forfeit, f.detail),
                failed_to_start: Some(side),
            }
        }
        None => Played {
            end: moves(rules, &mut players, game, clocks).await?,
            failed_to_start: None,
        },
    };
    if let Some((side, f)) = end.end.forfeit {
        if !f.keeps_connection() {
            players[idx(side)].channel().broken = true;
        }
    }
    // The end of the game, with each engine at once, as its protocol wants it.
    let now = Instant::now();
    let waits = [0, 1].map(|i| {
        players[i]
            .spec()
            .gameend_wait
            .unwrap_or(rules.timeouts.gameend)
    });
    let [ew, eb] = [Color::White, Color::Black].map(|side| {
        let wait = waits[idx(side)];
        Ending {
            verdict: end.end.verdict,
            side,
            // The last word of an engine whose turn it is comes within its time and the
            // margin; past a flag, within the wait for an answer.
            last_word_by: now + (clocks.left(side) + rules.margin).max(wait),
            wait,
        }
    });
    let [w, b] = &mut players;
    tokio::join!(w.end_game(&ew), b.end_game(&eb));
    Ok(end)
}

/// The moves of a game both engines accepted, up to its end.
async fn moves(
    rules: &Rules,
    players: &mut [&mut Player; 2],
    game: &mut Game,
    clocks: &mut Clocks,
) -> Result<GameEnd, String> {
    loop {
        if let Some(end) = check_end(rules, game)? {
            return Ok(end);
        }
        let mover = game.side();
        let other = mover.opponent();
        let ask = Ask::new(game, clocks, rules.moves, rules.timeouts);
        if let Err(f) = players[idx(mover)].go(&ask).await {
            return Ok(game.forfeit(mover, f.forfeit, f.detail));
        }
        clocks.start(mover);
        let deadline = clocks.deadline().expect("a running clock");
        loop {
            let [w, b] = &mut *players;
            let (m, o) = match mover {
                Color::White => (w, b),
                Color::Black => (b, w),
            };
            // The other side first: a message out of turn already there is seen before the
            // mover's answer.
            let (side, heard) = tokio::select! {
                biased;
                h = o.next(false) => (other, h),
                h = m.next(true) => (mover, h),
                _ = tokio::time::sleep_until(deadline.into()) => {
                    clocks.flag(Instant::now());
                    return Ok(game.forfeit(mover, Forfeit::TimeForfeit, format!(
                        "no move within its time ({}) and the margin",
                        clock_text(clocks.initial(mover))
                    )));
                }
            };
            match heard {
                Heard::Nothing => continue,
                Heard::Fault(f) => return Ok(game.forfeit(side, f.forfeit, f.detail)),
                Heard::Claim(claim) => {
                    if side == mover {
                        clocks.stop();
                    }
                    return Ok(resolve_claim(rules, game, side, claim));
                }
                Heard::Unreadable { text, reason } => {
                    // Only the mover's turn reads a move.
                    return Ok(game.illegal_move(
                        mover,
                        &text,
                        arbiter_rules::MoveError::Syntax { reason },
                    ));
                }
                Heard::Move {
                    from,
                    to,
                    captured,
                    text,
                    claim,
                } => {
                    let Some(used) = clocks.stop() else {
                        return Ok(game.forfeit(
                            mover,
                            Forfeit::TimeForfeit,
                            "its move came after its time and the margin".into(),
                        ));
                    };
                    let d = match game.find_move(from, to, &captured) {
                        Ok(d) => d,
                        Err(e) => return Ok(game.illegal_move(mover, &text, e)),
                    };
                    let (from, to, captured) = game.numbers(&d);
                    let played = MoveNumbers { from, to, captured };
                    game.play(d)?;
                    if let Some(claim) = claim {
                        if let Some(mut end) = check_end(rules, game)? {
                            note_claim(&mut end, mover, claim, game.ply());
                            return Ok(end);
                        }
                        return Ok(resolve_claim(rules, game, mover, claim));
                    }
                    if let Err(f) = players[idx(other)].moved(&played, used).await {
                        return Ok(game.forfeit(other, f.forfeit, f.detail));
                    }
                    break;
                }
            }
        }
    }
}

/// The verdict's name in the events.
pub fn verdict_code(v: Verdict) -> &'static str {
    match v {
        Verdict::WhiteWins => "white_wins",
        Verdict::BlackWins => "black_wins",
        Verdict::Draw => "draw",
        _ => "unknown",
    }
}
