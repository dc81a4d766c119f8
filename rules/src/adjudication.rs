//! Adjudication of game records: a PDN game (or a move list) judged under its variant's
//! rules, with the declared result checked against what the moves show.

use crate::budget::Budget;
use crate::gen::GenError;
use crate::notation::pdn::{choose_variant, PdnGame, VariantChoice};
use crate::outcome::{judge_within, Judgement, Reason, Verdict};
use crate::position::Color;
use crate::variant::Variant;

/// A declared result, as written in a game record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Declared {
    WhiteWins,
    BlackWins,
    Draw,
    /// `0-0`: both players lost (double forfeit).
    DoubleForfeit,
    /// `*`: unknown or unfinished.
    Unknown,
}

impl Declared {
    /// Reads `1-0`, `2-0`, `0-1`, `0-2`, `1/2-1/2`, `1-1`, `0-0`, `*` (and the words
    /// `white_wins`, `black_wins`, `draw`).
    pub fn parse(s: &str) -> Option<Declared> {
        Some(match s.trim().replace(':', "-").as_str() {
            "1-0" | "2-0" | "white_wins" => Declared::WhiteWins,
            "0-1" | "0-2" | "black_wins" => Declared::BlackWins,
            "1/2-1/2" | "1-1" | "½-½" | "draw" => Declared::Draw,
            "0-0" => Declared::DoubleForfeit,
            "*" | "-" | "?" => Declared::Unknown,
            _ => return None,
        })
    }

    fn verdict(self) -> Option<Verdict> {
        match self {
            Declared::WhiteWins => Some(Verdict::WhiteWins),
            Declared::BlackWins => Some(Verdict::BlackWins),
            Declared::Draw => Some(Verdict::Draw),
            _ => None,
        }
    }
}

/// Whether a declared result agrees with the judgement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Agreement {
    /// `Some(true)`: the moves show this result; `Some(false)`: they show another one;
    /// `None`: the moves cannot confirm it (undecided game, illegal move, no result given).
    pub agrees: Option<bool>,
    pub explanation: String,
}

fn verdict_words(v: Verdict) -> &'static str {
    match v {
        Verdict::WhiteWins => "a win for White",
        Verdict::BlackWins => "a win for Black",
        Verdict::Draw => "a draw",
        Verdict::Undecided => "undecided",
        Verdict::Invalid => "invalid",
    }
}

fn reason_words(variant: &Variant, j: &Judgement) -> String {
    match j.reason {
        Some(Reason::NoLegalMoves) => {
            let side = j.final_position.side();
            format!(
                "{} has no legal move after ply {}",
                capitalised(side),
                j.decided_at_ply.unwrap_or(0)
            )
        }
        Some(Reason::End(code)) => {
            let rule = variant.rules().ends.iter().find(|e| e.code == code);
            format!(
                "the {} rule ended the game at ply {}{}",
                code.code(),
                j.decided_at_ply.unwrap_or(0),
                rule.map(|r| format!(" ({})", r.trigger())).unwrap_or_default()
            )
        }
        Some(Reason::Draw(code)) => {
            let rule = variant.rules().draws.iter().find(|d| d.code == code);
            format!(
                "the {} rule ended the game at ply {}{}",
                code.code(),
                j.decided_at_ply.unwrap_or(0),
                rule.map(|r| format!(" ({})", r.text)).unwrap_or_default()
            )
        }
        None => String::new(),
    }
}

fn capitalised(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Checks a declared result (its text as written) against a judgement.
pub fn check_declared(variant: &Variant, j: &Judgement, declared: Option<&str>) -> Agreement {
    let Some(text) = declared else {
        return Agreement {
            agrees: None,
            explanation: "no result was declared".into(),
        };
    };
    let Some(d) = Declared::parse(text) else {
        return Agreement {
            agrees: None,
            explanation: format!("'{text}' is not a PDN result"),
        };
    };
    if j.verdict == Verdict::Invalid {
        let ply = j.illegal.as_ref().map(|i| i.ply).unwrap_or(0);
        return Agreement {
            agrees: None,
            explanation: format!(
                "declared {text}, but the record has an illegal move at ply {ply}, so the moves \
                 cannot confirm any result"
            ),
        };
    }
    match (d, j.verdict) {
        (Declared::Unknown, Verdict::Undecided) => Agreement {
            agrees: None,
            explanation: "the result is declared unknown (*) and the moves do not decide the game"
                .into(),
        },
        (Declared::Unknown, v) => Agreement {
            agrees: Some(false),
            explanation: format!(
                "declared * (unknown), but the game is {}: {}",
                verdict_words(v),
                reason_words(variant, j)
            ),
        },
        (_, Verdict::Undecided) => {
            let claim = j.claimable.first();
            match (d, claim) {
                (Declared::Draw, Some(c)) => Agreement {
                    agrees: Some(true),
                    explanation: format!(
                        "declared {text}: a draw could be claimed under the {} rule from ply {}",
                        c.code.code(),
                        c.ply
                    ),
                },
                (Declared::DoubleForfeit, _) => Agreement {
                    agrees: None,
                    explanation: format!(
                        "declared {text} (double forfeit): a decision outside the rules"
                    ),
                },
                _ => Agreement {
                    agrees: None,
                    explanation: format!(
                        "declared {text} but the game is undecided: the result must come from \
                         resignation, time or agreement"
                    ),
                },
            }
        }
        (d, v) => {
            if d.verdict() == Some(v) {
                Agreement {
                    agrees: Some(true),
                    explanation: format!(
                        "declared {text}, {}: {}",
                        verdict_words(v),
                        reason_words(variant, j)
                    ),
                }
            } else {
                Agreement {
                    agrees: Some(false),
                    explanation: format!(
                        "declared {text} but the game is {}: {}",
                        verdict_words(v),
                        reason_words(variant, j)
                    ),
                }
            }
        }
    }
}

/// Why a game of a file could not be judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The game's text is broken (unterminated comment, malformed tag...).
    Text(String),
    /// Its GameType or Variant tag names a variant this service does not support.
    UnsupportedVariant(String),
    /// No GameType or Variant tag, and no variant was given with the request.
    NoVariant,
    /// Its FEN tag is not a valid position.
    BadFen(String),
    /// More plies than the bound.
    TooManyPlies { plies: usize, limit: usize },
    /// The capture enumeration bound was exceeded.
    Gen(GenError),
}

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameError::Text(e) => write!(f, "{e}"),
            GameError::UnsupportedVariant(what) => {
                write!(f, "{what} is not a variant this service supports")
            }
            GameError::NoVariant => write!(
                f,
                "the game has no GameType or Variant tag and no variant was given"
            ),
            GameError::BadFen(e) => write!(f, "FEN tag: {e}"),
            GameError::TooManyPlies { plies, limit } => {
                write!(
                    f,
                    "the game has {plies} plies, more than the bound of {limit}"
                )
            }
            GameError::Gen(e) => write!(f, "{e}"),
        }
    }
}

/// A judged game of a file.
#[derive(Clone, Debug)]
pub struct GameReport {
    pub variant: &'static Variant,
    pub judgement: Judgement,
    /// Move number of the first illegal move, if any.
    pub illegal_move_number: Option<u32>,
    pub declared: Option<String>,
    pub agreement: Agreement,
}

/// Judges one game of a PDN file. `explicit` overrides the game's own tags.
pub fn judge_pdn_game(
    game: &PdnGame,
    explicit: Option<&'static Variant>,
    max_plies: usize,
    budget: &Budget,
) -> Result<GameReport, GameError> {
    if let Some(e) = &game.error {
        return Err(GameError::Text(e.clone()));
    }
    let variant = match choose_variant(game, explicit) {
        VariantChoice::Found(v) => v,
        VariantChoice::Unsupported(what) => return Err(GameError::UnsupportedVariant(what)),
        VariantChoice::Missing => return Err(GameError::NoVariant),
    };
    if game.plies > max_plies || game.moves.len() > max_plies {
        return Err(GameError::TooManyPlies {
            plies: game.plies.max(game.moves.len()),
            limit: max_plies,
        });
    }
    let start = match game.tag("FEN").map(str::trim).filter(|f| !f.is_empty()) {
        Some(fen) => variant
            .parse_fen(fen)
            .map_err(|e| GameError::BadFen(e.to_string()))?,
        None => variant.start(),
    };
    let texts: Vec<&str> = game.moves.iter().map(|m| m.text.as_str()).collect();
    let judgement = judge_within(variant, start, &texts, budget).map_err(GameError::Gen)?;
    let illegal_move_number = judgement
        .illegal
        .as_ref()
        .and_then(|i| game.moves.get(i.ply - 1))
        .and_then(|m| m.number);
    let declared = game.declared_result().map(str::to_string);
    let agreement = check_declared(variant, &judgement, declared.as_deref());
    Ok(GameReport {
        variant,
        judgement,
        illegal_move_number,
        declared,
        agreement,
    })
}
