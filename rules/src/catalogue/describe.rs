//! The rules of a variant in words: the `(name, value)` parameters that describe it to a
//! reader ([`Variant::parameters`]).

use crate::position::Kind;
use crate::rules::{Goal, Landing, MidCapturePromotion, PieceRules, Range, Reach, Removal};
use crate::variant::{PromotionSquares, Variant};

impl Variant {
    /// The rule parameters in readable form, `(name, value)`.
    pub fn parameters(&self) -> Vec<(&'static str, String)> {
        let r = &self.spec().rules;
        let mut out = Vec::new();
        let describe_piece = |k: Kind| {
            let p = r.piece(k);
            let moves = if p.moves[0].is_empty() {
                "no non-capturing moves".to_string()
            } else {
                format!(
                    "moves {} ({})",
                    match p.range {
                        Range::Step => "one square",
                        Range::Slide => "any distance (flying)",
                        Range::Line => {
                            "one square, alone or at the tail of an unbroken line of own men \
                             straight ahead that advances with it (linear move)"
                        }
                    },
                    p.moves[0].describe()
                )
            };
            let caps = format!(
                "captures {} ({}{})",
                match p.reach {
                    Reach::Short => "an adjacent piece, landing right behind it".to_string(),
                    Reach::Flying(Landing::Any) =>
                        "at any distance, landing on any empty square behind".to_string(),
                    Reach::Flying(Landing::Behind) =>
                        "at any distance, landing on the square immediately behind".to_string(),
                },
                p.captures[0].describe(),
                if p.captures_kings {
                    ""
                } else {
                    "; may not capture kings"
                }
            );
            let halt = if p.halt_behind_last_king {
                "; when the last piece it captures is a king, it stops on the square right \
                 behind that king"
            } else {
                ""
            };
            let leaps = match (p.canter, p.charge) {
                (false, _) => "",
                (true, false) => {
                    "; canters: leaps over an adjacent piece of its own side onto the empty \
                     square behind it, as often as it likes in any direction, stopping on any \
                     landing (never compulsory, captures nothing); no square is landed on twice \
                     in one move, the start square included"
                }
                (true, true) => {
                    "; canters: leaps over an adjacent piece of its own side onto the empty \
                     square behind it, as often as it likes in any direction, stopping on any \
                     landing (never compulsory, captures nothing); charges: canters, then \
                     captures, in one move (never captures, then canters); once a canter lands \
                     where a capture is possible the move must capture, there or after further \
                     canters, and may no longer stop on a landing; no square is landed on twice \
                     in one move, the start square included"
                }
            };
            format!("{moves}; {caps}{halt}{leaps} (directions as seen by White)")
        };
        out.push((
            "men",
            if *r.piece(Kind::Man) == PieceRules::ABSENT {
                "none".into()
            } else {
                describe_piece(Kind::Man)
            },
        ));
        out.push((
            "kings",
            if *r.piece(Kind::King) == PieceRules::ABSENT {
                "none: men are never crowned".into()
            } else {
                describe_piece(Kind::King)
            },
        ));
        if !self.board().step_only().is_empty() {
            out.push((
                "step_only_links",
                "pieces that step in every direction may also step along the board's \
                 step-only links (see board.lines); captures never use them"
                    .into(),
            ));
        }
        if r.stones_in_hand != 0 {
            out.push((
                "drops",
                format!(
                    "the board starts empty and each side holds {} stones in hand; a side that \
                     holds stones must drop one on any empty point (written *c2), and the \
                     movement phase starts when both hands are empty",
                    r.stones_in_hand
                ),
            ));
        }
        if r.first_jump_along_moves {
            out.push((
                "first_jump",
                "the first jump of a capture goes only in a direction the piece may step in; \
                 the later jumps go in any capture direction"
                    .into(),
            ));
        }
        if r.no_return {
            out.push((
                "no_return",
                "a piece may not go back to the point it came from on its side's previous move \
                 (each side's last move is part of the position: the FEN's L field)"
                    .into(),
            ));
        }
        if r.first_drop_off_goal {
            out.push((
                "first_drop",
                "the game's first drop may not go on the goal point".into(),
            ));
        }
        if r.far_rank_frozen {
            out.push((
                "far_rank",
                "a man on its far rank (the opponent's base line) moves only to capture".into(),
            ));
        }
        if !r.piece(Kind::Parachutist).captures[0].is_empty() {
            out.push(("parachutists", describe_piece(Kind::Parachutist)));
        }
        if !r.piece(Kind::Knight).captures[0].is_empty() {
            out.push(("knights", describe_piece(Kind::Knight)));
        }
        if let Some(c) = &r.castles {
            out.push((
                "castles",
                format!(
                    "White's castle {}, Black's {}: a side enters its own castle only by a \
                     capture, and a piece in its own castle must leave it on its side's next \
                     move, even if that means not capturing elsewhere (capturing on its way out \
                     if it can); a piece that lands on the opponent's castle ends its move \
                     there{}",
                    c.squares[0].join(" and "),
                    c.squares[1].join(" and "),
                    match c.moves {
                        0 => String::new(),
                        n => format!(
                            " and never leaves that castle; it may step to another of its \
                             squares (a castle move, not a capture, so a capture elsewhere comes \
                             first), at most {n} times per side in a game (the FEN's C field \
                             counts them)"
                        ),
                    }
                ),
            ));
            out.push((
                "capture_obligation",
                "only captures a piece can make from where it stands oblige a side to \
                 capture; a capture reachable only after a canter does not, but a charge that \
                 captures fulfils the obligation"
                    .into(),
            ));
        }
        out.push((
            "capture_removal",
            match r.removal {
                Removal::Deferred => "captured pieces are removed after the whole sequence \
                                      (they block and cannot be jumped twice)"
                    .into(),
                Removal::Immediate => "captured pieces are removed as they are jumped".into(),
            },
        ));
        out.push((
            "capture_precedence",
            if r.precedence.is_empty() {
                "free choice among complete capture sequences".into()
            } else {
                r.precedence
                    .iter()
                    .map(|p| p.describe())
                    .collect::<Vec<_>>()
                    .join(", then ")
            },
        ));
        out.push((
            "promotion_during_capture",
            match r.mid_capture_promotion {
                MidCapturePromotion::End => "a man reaching the promotion row is crowned and \
                                             the move ends"
                    .into(),
                MidCapturePromotion::Pass => "a man passing the promotion row during a capture \
                                              continues as a man; crowned only if it ends there"
                    .into(),
                MidCapturePromotion::KingContinue => "a man reaching the promotion row during a \
                                                      capture is crowned and continues capturing \
                                                      as a king"
                    .into(),
            },
        ));
        out.push((
            "promotion_squares",
            match &self.spec().promotion {
                PromotionSquares::FarRank => "the far rank".into(),
                PromotionSquares::Squares([w, b]) if w.is_empty() && b.is_empty() => "none".into(),
                PromotionSquares::Squares([w, b]) => {
                    format!("White: {}; Black: {}", w.join(", "), b.join(", "))
                }
            },
        ));
        if r.no_reversal {
            out.push((
                "no_reversal",
                "a capture may not turn back 180 degrees".into(),
            ));
        }
        if r.straight_captures {
            out.push((
                "straight_captures",
                "a capture sequence keeps the direction of its first jump".into(),
            ));
        }
        if r.capture_may_stop {
            out.push((
                "capture_may_stop",
                "a capture sequence may stop after any jump; each stop is a move of its own".into(),
            ));
        }
        if !r.opening_removals.is_empty() {
            out.push((
                "opening_removals",
                r.opening_removals
                    .iter()
                    .enumerate()
                    .map(|(i, step)| {
                        format!(
                            "ply {}: the side to move {} (written x and the square, e.g. xd5)",
                            i + 1,
                            step.describe()
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("; "),
            ));
        }
        if r.king_quiet_limit != 0 {
            out.push((
                "king_move_limit",
                format!(
                    "while a side has men, the same king may make at most {} non-capturing \
                     moves in a row",
                    r.king_quiet_limit
                ),
            ));
        }
        let no_moves = match r.goal {
            Goal::NoMovesLoses => "the side to move with no legal move loses",
            Goal::NoMovesWins => "the side to move with no legal move wins",
            Goal::NoMovesPasses => "the side to move with no legal move passes (the move \"pass\")",
        };
        let nothing_left = match r.goal {
            Goal::NoMovesWins => "a side with no piece left (and none in hand) has won",
            Goal::NoMovesLoses | Goal::NoMovesPasses => {
                "a side with no piece left (and none in hand) has lost"
            }
        };
        out.push((
            "end_of_game",
            if r.ends.is_empty() {
                format!("{no_moves}; {nothing_left}")
            } else {
                format!("the end rules first (end_rules), then: {no_moves}; {nothing_left}")
            },
        ));
        out.push((
            "draws",
            if r.draws.is_empty() {
                "none: no position is drawn by rule".into()
            } else {
                format!(
                    "{} rule(s), applied in the order of draw_rules",
                    r.draws.len()
                )
            },
        ));
        out
    }
}
