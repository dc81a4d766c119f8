//! One refereed game: the position, every move checked against the rules engine, and the end
//! of the game for a stated reason, the first that applies:
//!
//! 1. the rules: no legal move, an end rule, or an automatic draw rule of the variant, as
//!    `/judge` says (the judge's [`Tracker`] counts the draw rules);
//! 2. the endgame tables (`--adjudicate tables`): the position's value once it is in them;
//! 3. the move limit (`--max-plies`, DXP's number of moves): the tables, else a draw;
//! 4. a forfeit ([`Forfeit`]);
//! 5. an engine's own end of the game (a DXP GAMEEND, a Hub claim), checked against the rules
//!    and the tables ([`Game::resolve_claim`]).
//!
//! Steps 2 and 3 are the engine's own adjudication ([`adjudicate`]), as `/judge` applies it.

use arbiter_rules::adjudication::{adjudicate, Adjudication};
use arbiter_rules::notation::violation::Violation;
use arbiter_rules::tables::Value;
use arbiter_rules::{
    Bits, Budget, Claimable, Color, DescribedMove, DrawClock, IllegalMove, Judgement, Kind,
    MoveError, MoveKind, Position, Reason, Status, Tracker, Variant, Verdict,
};
use serde::Serialize;

use crate::ops::judge::ReasonDto;
use crate::tables::TableStore;

/// The ways an engine loses a game outside the rules, with their reason codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Forfeit {
    /// A move that is not legal (the violation code says which rule it breaks).
    IllegalMove,
    /// The engine's time (and the margin) ran out before its move arrived.
    TimeForfeit,
    /// The connection closed, or the engine closed its output, while it was still running.
    Disconnect,
    /// No answer in time to a request that is not a move (a game request, the handshake).
    Stall,
    /// The engine's process ended during the game (or could not start).
    Crash,
    /// A message the protocol does not allow here: garbage, an oversized message, a move out
    /// of turn, an unexpected message type.
    ProtocolError,
    /// The engine refused the game (DXP GAMEACC with a code other than 0).
    Refused,
}

impl Forfeit {
    pub fn code(self) -> &'static str {
        match self {
            Forfeit::IllegalMove => "ILLEGAL_MOVE",
            Forfeit::TimeForfeit => "TIME_FORFEIT",
            Forfeit::Disconnect => "DISCONNECT",
            Forfeit::Stall => "STALL",
            Forfeit::Crash => "CRASH",
            Forfeit::ProtocolError => "PROTOCOL_ERROR",
            Forfeit::Refused => "REFUSED",
        }
    }

    /// Whether the engine's connection is sound after it: an engine that forfeited this way can
    /// play the next game on the same connection.
    pub fn keeps_connection(self) -> bool {
        matches!(
            self,
            Forfeit::IllegalMove | Forfeit::TimeForfeit | Forfeit::Refused
        )
    }
}

/// The result an engine claims, from its own side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ClaimKind {
    Win,
    Draw,
    Loss,
    /// DXP GAMEEND with reason 0: the game ends, result unknown.
    Unknown,
}

impl ClaimKind {
    /// The verdict the claim asks for, by `by`.
    pub fn verdict(self, by: Color) -> Option<Verdict> {
        match self {
            ClaimKind::Win => Some(Verdict::win_for(by)),
            ClaimKind::Loss => Some(Verdict::win_for(by.opponent())),
            ClaimKind::Draw => Some(Verdict::Draw),
            ClaimKind::Unknown => None,
        }
    }
}

/// A claim as the game record keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClaimRecord {
    /// `white` or `black`.
    pub by: &'static str,
    pub claim: ClaimKind,
    /// The ply after which it was made.
    pub ply: usize,
    /// `confirmed` (the rules or the tables give the claimed result), `false` (they give
    /// another), `unverified` (neither decides the position), `resignation` (a claim of
    /// loss).
    pub status: &'static str,
    pub detail: String,
}

/// How a game ended.
#[derive(Clone, Debug)]
pub struct GameEnd {
    pub verdict: Verdict,
    /// The reason code: the rules' (`NO_LEGAL_MOVES`, a draw rule's), the adjudication's
    /// (`ENDGAME_TABLES`, `MOVE_LIMIT`), a forfeit's, or a claim's (`RESIGNATION`,
    /// `FALSE_CLAIM`, `ENGINE_CLAIM`).
    pub code: &'static str,
    pub detail: String,
    /// The rules' or the adjudication's reason, when they decided.
    pub reason: Option<Reason>,
    /// The ply after which the game ended.
    pub ply: usize,
    /// The illegal move of an `ILLEGAL_MOVE` forfeit.
    pub illegal: Option<IllegalMove>,
    /// Its violation code.
    pub violation: Option<&'static str>,
    pub claim: Option<ClaimRecord>,
    /// The side that forfeited, and how.
    pub forfeit: Option<(Color, Forfeit)>,
}

/// What the referee decides beyond the rules.
#[derive(Clone, Copy, Debug, Default)]
pub struct Adjudicating {
    /// `--adjudicate tables`.
    pub tables: bool,
    /// The move limit in plies (`--max-plies`, or twice DXP's number of moves).
    pub max_plies: Option<usize>,
    /// `--strict-claims`: a claim the referee cannot confirm loses for the claimant.
    pub strict_claims: bool,
}

/// A game in progress.
pub struct Game {
    pub variant: &'static Variant,
    pub start: Position,
    pub pos: Position,
    tracker: Tracker<'static>,
    pub moves: Vec<DescribedMove>,
    /// The position before each move.
    before: Vec<Position>,
    /// The rules' end of the game in `pos`, found when it was reached.
    rule_end: Option<(Verdict, Reason)>,
    budget: Budget,
}

fn side_name(c: Color) -> &'static str {
    c.name()
}

impl Game {
    /// A game from `start`, a position the openings checked.
    pub fn new(variant: &'static Variant, start: Position) -> Result<Game, String> {
        let mut g = Game {
            variant,
            start,
            pos: start,
            tracker: Tracker::new(variant, &start),
            moves: Vec::new(),
            before: Vec::new(),
            rule_end: None,
            budget: Budget::unlimited(),
        };
        g.rule_end = g.rules_end()?;
        Ok(g)
    }

    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    pub fn side(&self) -> Color {
        self.pos.side()
    }

    /// The rules' end of the game in `pos` (end rules, no piece, no legal move, then the
    /// automatic draw rules), recording the claimable draws on the way.
    fn rules_end(&mut self) -> Result<Option<(Verdict, Reason)>, String> {
        match arbiter_rules::status(self.variant, &self.pos, &self.budget) {
            Ok(Status::Ongoing) => {}
            Ok(Status::Won { winner, reason }) => {
                return Ok(Some((Verdict::win_for(winner), reason)))
            }
            Ok(Status::Drawn { reason }) => return Ok(Some((Verdict::Draw, reason))),
            Err(e) => return Err(e.to_string()),
        }
        Ok(self
            .tracker
            .draw(&self.pos)
            .map(|code| (Verdict::Draw, Reason::Draw(code))))
    }

    /// The judgement of the game so far, with `verdict` and `reason`.
    pub fn judgement(
        &self,
        verdict: Verdict,
        reason: Option<Reason>,
        illegal: Option<IllegalMove>,
    ) -> Judgement {
        Judgement {
            verdict,
            reason,
            decided_at_ply: reason.map(|_| self.ply()),
            moves: self.moves.clone(),
            final_position: self.pos,
            illegal,
            moves_after_end: 0,
            claimable: self.claimable().to_vec(),
            draw_counts: self.tracker.counts(&self.pos),
            clock: *self.tracker.clock(),
        }
    }

    /// The draws that could have been claimed so far.
    pub fn claimable(&self) -> &[Claimable] {
        self.tracker.claimable()
    }

    fn decided(&self, verdict: Verdict, reason: Reason) -> GameEnd {
        let j = self.judgement(verdict, Some(reason), None);
        GameEnd {
            verdict,
            code: reason.code(),
            detail: ReasonDto::of(self.variant, &j, reason).description,
            reason: Some(reason),
            ply: self.ply(),
            illegal: None,
            violation: None,
            claim: None,
            forfeit: None,
        }
    }

    /// Whether the game is over before the side to move plays: the rules, then the tables
    /// and the move limit as `adjudicating` asks ([`adjudicate`], the tables probed in
    /// `tables`).
    pub fn check_end(
        &mut self,
        adjudicating: Adjudicating,
        tables: &TableStore,
    ) -> Result<Option<GameEnd>, String> {
        if let Some((verdict, reason)) = self.rule_end {
            return Ok(Some(self.decided(verdict, reason)));
        }
        let at_limit = adjudicating.max_plies.is_some_and(|n| self.ply() >= n);
        if !adjudicating.tables && !at_limit {
            return Ok(None);
        }
        let mut j = Judgement {
            verdict: Verdict::Undecided,
            reason: None,
            decided_at_ply: None,
            moves: std::mem::take(&mut self.moves),
            final_position: self.pos,
            illegal: None,
            moves_after_end: 0,
            claimable: Vec::new(),
            draw_counts: Vec::new(),
            clock: *self.tracker.clock(),
        };
        let adjudication = Adjudication {
            tables: adjudicating.tables,
            max_plies: adjudicating.max_plies,
        };
        let mut probe = |v: &'static Variant, pos: &Position, clock: &DrawClock, b: &Budget| {
            tables
                .probe_game(v, pos, clock, b)
                .map_err(|e| e.to_string())
        };
        let outcome = adjudicate(self.variant, &mut j, adjudication, &mut probe, &self.budget);
        self.moves = std::mem::take(&mut j.moves);
        outcome.map_err(|e| e.to_string())?;
        Ok(match (j.verdict, j.reason) {
            (Verdict::Undecided, _) | (_, None) => None,
            (verdict, Some(reason)) => Some(self.decided(verdict, reason)),
        })
    }

    /// The legal move that moves from square `from` to `to` capturing the squares `captured`
    /// (numbers, in any order): the identity a DXP move or a Hub move gives. Otherwise why
    /// not, as the rules engine explains a move text: an unknown square, a violation of the
    /// rules, or, for a move whose start and end are a legal move's, a captured set that is
    /// not that move's.
    pub fn find_move(
        &self,
        from: u32,
        to: u32,
        captured: &[u32],
    ) -> Result<DescribedMove, MoveError> {
        let v = self.variant;
        let cell = |n: u32| {
            v.cell_of_number(n).ok_or(MoveError::UnknownSquare {
                square: n.to_string(),
            })
        };
        let (from_cell, to_cell) = (cell(from)?, cell(to)?);
        let mut set = Bits::EMPTY;
        for &c in captured {
            set.insert(cell(c)?);
        }
        let twice = set.len() as usize != captured.len();
        let moves = v.describe_moves(&self.pos, &self.budget)?;
        if !twice {
            if let Some(d) = moves.iter().find(|d| {
                matches!(d.mv.kind(), MoveKind::Step | MoveKind::Capture)
                    && d.mv.from() as usize == from_cell
                    && d.mv.to() as usize == to_cell
                    && d.mv.captured() == set
            }) {
                return Ok(d.clone());
            }
        }
        let legal: Vec<String> = moves.iter().map(|d| d.notation.clone()).collect();
        let text = move_text(from, to, captured);
        let short = format!(
            "{}{}{}",
            from,
            if captured.is_empty() { '-' } else { 'x' },
            to
        );
        let same_ends: Vec<&DescribedMove> = moves
            .iter()
            .filter(|d| {
                matches!(d.mv.kind(), MoveKind::Step | MoveKind::Capture)
                    && d.mv.from() as usize == from_cell
                    && d.mv.to() as usize == to_cell
            })
            .collect();
        if same_ends.is_empty() {
            // The rules engine explains the move by its start and end.
            return match v.parse_move(&self.pos, &short, &self.budget) {
                Err(e) => Err(e),
                Ok(_) => Err(illegal(
                    format!("{text} is not a legal move"),
                    legal,
                    Violation::NotALegalMove,
                )),
            };
        }
        let squares = |b: Bits| -> String {
            let mut n: Vec<u16> = b.iter().map(|c| v.square_number(c)).collect();
            n.sort_unstable();
            let names: Vec<String> = n.iter().map(u16::to_string).collect();
            if names.is_empty() {
                "nothing".into()
            } else {
                names.join(", ")
            }
        };
        let takes: Vec<String> = same_ends.iter().map(|d| squares(d.mv.captured())).collect();
        let reason = format!(
            "{text} captures {}, but the legal moves from {from} to {to} capture {}",
            if twice {
                format!("a square twice ({})", squares(set))
            } else {
                squares(set)
            },
            takes.join(" or ")
        );
        let violation = if same_ends.iter().all(|d| !d.mv.is_capture()) {
            Violation::NothingToCapture
        } else if twice {
            Violation::PieceCapturedTwice
        } else {
            Violation::CaptureRoute
        };
        Err(illegal(reason, legal, violation))
    }

    /// Plays a move found by [`Game::find_move`].
    pub fn play(&mut self, d: DescribedMove) -> Result<(), String> {
        let next = self.variant.play(&self.pos, &d.mv);
        self.tracker.push(&self.pos, &d.mv, &next);
        self.before.push(self.pos);
        self.pos = next;
        self.moves.push(d);
        self.rule_end = self.rules_end()?;
        Ok(())
    }

    /// A move's squares as numbers: from, to, the captured squares in number order.
    pub fn numbers(&self, d: &DescribedMove) -> (u32, u32, Vec<u32>) {
        let v = self.variant;
        let mut captured: Vec<u32> =
            d.mv.captured()
                .iter()
                .map(|c| u32::from(v.square_number(c)))
                .collect();
        captured.sort_unstable();
        (
            u32::from(v.square_number(d.mv.from() as usize)),
            u32::from(v.square_number(d.mv.to() as usize)),
            captured,
        )
    }

    /// What a Hub `pos` command gives: the position after the game's last irreversible move
    /// (a man move or a capture; the start if none), and the king moves since, as Hub sends
    /// them for repetition.
    pub fn hub_history(&self) -> (Position, Vec<String>) {
        let last = self
            .moves
            .iter()
            .rposition(|d| d.mv.piece() != Kind::King || d.mv.is_capture());
        let (pos, from) = match last {
            Some(i) => (self.before.get(i + 1).copied().unwrap_or(self.pos), i + 1),
            None => (self.start, 0),
        };
        let moves = self.moves[from..]
            .iter()
            .map(|d| {
                let (f, t, c) = self.numbers(d);
                move_text(f, t, &c)
            })
            .collect();
        (pos, moves)
    }

    /// The end of the game when `by` claims `claim` in the current position: confirmed by a
    /// claimable draw rule or by the tables, contradicted by the tables, or neither. A claim
    /// of loss is a resignation. The rules come first: a position the rules end was ended
    /// before any claim. `tables`: the store the position is probed in (`None`: no tables).
    pub fn resolve_claim(
        &self,
        by: Color,
        claim: ClaimKind,
        adjudicating: Adjudicating,
        tables: Option<&TableStore>,
    ) -> GameEnd {
        let ply = self.ply();
        let record = |status: &'static str, detail: String| ClaimRecord {
            by: side_name(by),
            claim,
            ply,
            status,
            detail,
        };
        let claimed = claim.verdict(by);
        // A draw rule the variant leaves to a claim.
        if claim == ClaimKind::Draw {
            if let Some(c) = self.claimable().first() {
                let reason = Reason::Draw(c.code);
                let mut end = self.decided(Verdict::Draw, reason);
                end.claim = Some(record(
                    "confirmed",
                    format!(
                        "the {} rule allows the claim since ply {}",
                        c.code.code(),
                        c.ply
                    ),
                ));
                return end;
            }
        }
        // The value under the counting rules, from the game's counts.
        let found = tables.and_then(|t| {
            arbiter_rules::tables::supported(self.variant).ok()?;
            t.probe_game(self.variant, &self.pos, self.tracker.clock(), &self.budget)
                .ok()
                .flatten()
        });
        if let Some(found) = found {
            let side = self.pos.side();
            let verdict = match found.rules.value {
                Value::Win(_) => Verdict::win_for(side),
                Value::Loss(_) => Verdict::win_for(side.opponent()),
                Value::Draw => Verdict::Draw,
            };
            let reason = Reason::EndgameTables {
                material: arbiter_rules::tables::Material::of(&self.pos),
                plies: match found.rules.value {
                    Value::Draw => None,
                    _ => found.value.plies(),
                },
                move_limit: None,
                drawn_by: found.drawn_by,
            };
            let mut end = self.decided(verdict, reason);
            if claimed == Some(verdict) {
                end.claim = Some(record(
                    "confirmed",
                    "the endgame tables give the claimed result".into(),
                ));
                return end;
            }
            if claim == ClaimKind::Loss {
                // A resignation in a position the tables do not lose: it stands.
                return self.resignation(by, record);
            }
            let words = format!(
                "{} claimed {}, but the endgame tables give {}",
                capital(by),
                claim_words(claim),
                verdict_words(verdict)
            );
            if adjudicating.strict_claims {
                return self.false_claim(by, record("false", words));
            }
            end.claim = Some(record("false", words));
            return end;
        }
        if claim == ClaimKind::Loss {
            return self.resignation(by, record);
        }
        let words = format!(
            "{} claimed {}, which neither the rules nor the endgame tables decide here",
            capital(by),
            claim_words(claim)
        );
        if adjudicating.strict_claims {
            return self.false_claim(by, record("false", words));
        }
        let verdict = claimed.unwrap_or(Verdict::Undecided);
        GameEnd {
            verdict,
            code: "ENGINE_CLAIM",
            detail: format!("{words}; the claim is recorded as made"),
            reason: None,
            ply,
            illegal: None,
            violation: None,
            claim: Some(record("unverified", words)),
            forfeit: None,
        }
    }

    fn resignation(
        &self,
        by: Color,
        record: impl Fn(&'static str, String) -> ClaimRecord,
    ) -> GameEnd {
        let detail = format!("{} resigned", capital(by));
        GameEnd {
            verdict: Verdict::win_for(by.opponent()),
            code: "RESIGNATION",
            detail: detail.clone(),
            reason: None,
            ply: self.ply(),
            illegal: None,
            violation: None,
            claim: Some(record("resignation", detail)),
            forfeit: None,
        }
    }

    fn false_claim(&self, by: Color, record: ClaimRecord) -> GameEnd {
        GameEnd {
            verdict: Verdict::win_for(by.opponent()),
            code: "FALSE_CLAIM",
            detail: format!("{}; the claim loses (--strict-claims)", record.detail),
            reason: None,
            ply: self.ply(),
            illegal: None,
            violation: None,
            claim: Some(record),
            forfeit: None,
        }
    }

    /// `side` forfeits the game.
    pub fn forfeit(&self, side: Color, forfeit: Forfeit, detail: String) -> GameEnd {
        GameEnd {
            verdict: Verdict::win_for(side.opponent()),
            code: forfeit.code(),
            detail: format!("{} forfeits: {detail}", capital(side)),
            reason: None,
            ply: self.ply(),
            illegal: None,
            violation: None,
            claim: None,
            forfeit: Some((side, forfeit)),
        }
    }

    /// `side` forfeits with the illegal move `text` and its error.
    pub fn illegal_move(&self, side: Color, text: &str, error: MoveError) -> GameEnd {
        let violation = error.violation().map(Violation::code);
        let legal = match &error {
            MoveError::Illegal { legal, .. } => legal.clone(),
            _ => self
                .variant
                .describe_moves(&self.pos, &self.budget)
                .map(|m| m.into_iter().map(|d| d.notation).collect())
                .unwrap_or_default(),
        };
        let detail = format!(
            "{} played {text} at ply {}: {error}{}",
            capital(side),
            self.ply() + 1,
            violation.map(|v| format!(" ({v})")).unwrap_or_default()
        );
        GameEnd {
            verdict: Verdict::win_for(side.opponent()),
            code: Forfeit::IllegalMove.code(),
            detail,
            reason: None,
            ply: self.ply(),
            illegal: Some(IllegalMove {
                ply: self.ply() + 1,
                text: text.to_string(),
                error,
                legal,
            }),
            violation,
            claim: None,
            forfeit: Some((side, Forfeit::IllegalMove)),
        }
    }
}

fn illegal(reason: String, legal: Vec<String>, violation: Violation) -> MoveError {
    MoveError::Illegal {
        reason,
        legal,
        violation,
        precedence: None,
    }
}

fn capital(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn claim_words(c: ClaimKind) -> &'static str {
    match c {
        ClaimKind::Win => "a win",
        ClaimKind::Draw => "a draw",
        ClaimKind::Loss => "a loss",
        ClaimKind::Unknown => "the end of the game (result unknown)",
    }
}

fn verdict_words(v: Verdict) -> &'static str {
    match v {
        Verdict::WhiteWins => "a win for White",
        Verdict::BlackWins => "a win for Black",
        Verdict::Draw => "a draw",
        _ => "no result",
    }
}

/// A move as Hub (and the referee's records) write it, from the squares' numbers: `32-28`, `28x19x23`.
pub fn move_text(from: u32, to: u32, captured: &[u32]) -> String {
    if captured.is_empty() {
        format!("{from}-{to}")
    } else {
        let mut s = format!("{from}x{to}");
        for c in captured {
            s.push_str(&format!("x{c}"));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(fen: &str) -> Game {
        let v = arbiter_rules::variant("international").unwrap();
        Game::new(v, v.parse_fen(fen).unwrap()).unwrap()
    }

    #[test]
    fn a_move_is_found_by_its_identity() {
        let g = game("W:W31-50:B1-20");
        let d = g.find_move(32, 28, &[]).unwrap();
        assert_eq!(d.notation, "32-28");
        let e = g.find_move(32, 22, &[]).unwrap_err();
        assert!(e.violation().is_some(), "{e}");
        let e = g.find_move(32, 77, &[]).unwrap_err();
        assert_eq!(e.violation(), Some(Violation::NoSuchSquare));
    }

    #[test]
    fn a_capture_needs_its_captured_set() {
        // White 28 takes 23 (landing on 19) or nothing else.
        let g = game("W:W28:B23,2");
        assert_eq!(g.find_move(28, 19, &[23]).unwrap().notation, "28x19");
        let e = g.find_move(28, 19, &[]).unwrap_err();
        assert_eq!(e.violation(), Some(Violation::CaptureRoute), "{e}");
        let e = g.find_move(28, 19, &[23, 23]).unwrap_err();
        assert_eq!(e.violation(), Some(Violation::PieceCapturedTwice), "{e}");
        let e = g.find_move(28, 22, &[]).unwrap_err();
        assert_eq!(e.violation(), Some(Violation::CaptureCompulsory), "{e}");
    }
}
