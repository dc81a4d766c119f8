//! Draw rules as data (FMJD art. 6, FMJD-64 art. 7.2, WCDF, FPD, FID...): which counters a
//! variant keeps, their limits, and what resets them. The judge ([`crate::outcome`]) evaluates
//! them in the variant's order, after the "no legal move" rule.
//!
//! All limits are in plies: the federations' "N moves" means N moves by each player, 2N plies.

use crate::bits::Bits;
use crate::position::{Color, Kind, Position};

/// Most draw rules one variant may have (the catalogue's largest set, FMJD-64, has 7): the
/// judge keeps a count per rule ([`crate::outcome::DrawClock`]).
pub const MAX_DRAW_RULES: usize = 8;

/// The stable reason codes of the draw rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DrawCode {
    Repetition,
    Kings25,
    Kings15,
    Endgame16,
    Endgame5,
    ThreeKings15,
    Balance3060,
    MainRoad5,
    TwoVsOne5,
    NoProgress40,
    NoProgress20,
    NoProgress15,
    NoProgress50,
    ThreeKingsRio12,
    Frisian2v1,
    Frisian1v1,
}

impl DrawCode {
    pub fn code(self) -> &'static str {
        match self {
            DrawCode::Repetition => "REPETITION",
            DrawCode::Kings25 => "KINGS_25",
            DrawCode::Kings15 => "KINGS_15",
            DrawCode::Endgame16 => "ENDGAME_16",
            DrawCode::Endgame5 => "ENDGAME_5",
            DrawCode::ThreeKings15 => "THREE_KINGS_15",
            DrawCode::Balance3060 => "BALANCE_30_60",
            DrawCode::MainRoad5 => "MAIN_ROAD_5",
            DrawCode::TwoVsOne5 => "TWO_VS_ONE_5",
            DrawCode::NoProgress40 => "NO_PROGRESS_40",
            DrawCode::NoProgress20 => "NO_PROGRESS_20",
            DrawCode::NoProgress15 => "NO_PROGRESS_15",
            DrawCode::NoProgress50 => "NO_PROGRESS_50",
            DrawCode::ThreeKingsRio12 => "THREE_KINGS_RIO_12",
            DrawCode::Frisian2v1 => "FRISIAN_2V1_7",
            DrawCode::Frisian1v1 => "FRISIAN_1V1",
        }
    }
}

/// What resets a "no progress" counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reset {
    /// Any man move (promotion included) or capture: only kings moved meanwhile.
    ManMoveOrCapture,
    /// Any capture or promotion (Portuguese: man moves do not reset).
    CaptureOrPromotion,
    /// Any capture, or a piece entering the opponent's castle (Camelot; a castle move inside
    /// it is not an entry).
    CaptureOrCastleEntry,
}

/// A material pattern for one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Material {
    pub kings: u8,
    pub men: u8,
    /// `kings` or more kings (the men count stays exact).
    pub or_more_kings: bool,
}

impl Material {
    pub const fn exactly(kings: u8, men: u8) -> Material {
        Material {
            kings,
            men,
            or_more_kings: false,
        }
    }

    fn matches(&self, kings: u32, men: u32) -> bool {
        men == self.men as u32
            && if self.or_more_kings {
                kings >= self.kings as u32
            } else {
                kings == self.kings as u32
            }
    }

    fn describe(&self) -> String {
        let k = match (self.kings, self.or_more_kings) {
            (k, true) => format!("{k} or more kings"),
            (1, false) => "a king".to_string(),
            (k, false) => format!("{k} kings"),
        };
        match self.men {
            0 => k,
            1 => format!("{k} and a man"),
            m => format!("{k} and {m} men"),
        }
    }
}

/// How a draw rule is triggered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DrawKind {
    /// The same position, with the same side to move, occurs for the `occurrences`-th time.
    Repetition { occurrences: u8 },
    /// `plies` plies in a row without what `reset` names.
    NoProgress { plies: u16, reset: Reset },
    /// Both sides have kings, the total number of pieces is within `pieces`, and no capture
    /// or promotion happened for `plies` plies (counted while both sides have kings).
    Balance { pieces: (u8, u8), plies: u16 },
    /// One side has one of the `strong` materials and the other a lone king, with the extra
    /// square conditions: the count starts at the first position with this configuration
    /// (the move that creates it is not counted) and the draw comes `plies` plies later; it
    /// restarts whenever the configuration stops holding.
    Endgame {
        strong: &'static [Material],
        plies: u16,
        /// The lone king must stand on one of these squares (algebraic), as the only piece
        /// on them; empty = anywhere.
        lone_king_on: &'static [&'static str],
        /// A king of the strong side must stand on one of these squares; empty = anywhere.
        strong_king_on: &'static [&'static str],
    },
}

/// One draw rule of a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawRule {
    pub code: DrawCode,
    pub kind: DrawKind,
    /// Whether the draw must be claimed by a player (the game goes on otherwise) rather than
    /// being automatic.
    pub claim: bool,
    /// The rule as its federation states it, with the reading chosen where sources differ.
    pub text: &'static str,
}

impl DrawRule {
    /// A readable statement of the rule: its code, whether it is automatic or claimable, its
    /// trigger and its source text.
    pub fn describe(&self) -> String {
        let how = if self.claim { "claimable" } else { "automatic" };
        format!(
            "{} ({how}): {}. {}",
            self.code.code(),
            self.trigger(),
            self.text
        )
    }

    /// The rule's limit and its unit: `(occurrences, "occurrences")` for a repetition,
    /// `(plies, "plies")` for the counted rules.
    pub fn limit(&self) -> (u16, &'static str) {
        match &self.kind {
            DrawKind::Repetition { occurrences } => (*occurrences as u16, "occurrences"),
            DrawKind::NoProgress { plies, .. }
            | DrawKind::Balance { plies, .. }
            | DrawKind::Endgame { plies, .. } => (*plies, "plies"),
        }
    }

    /// A readable statement of what triggers the rule.
    pub fn trigger(&self) -> String {
        match &self.kind {
            DrawKind::Repetition { occurrences } => {
                format!("the same position with the same side to move occurs {occurrences} times")
            }
            DrawKind::NoProgress { plies, reset } => format!(
                "{} moves each ({plies} plies) without {}",
                plies / 2,
                match reset {
                    Reset::ManMoveOrCapture => "a man move or a capture",
                    Reset::CaptureOrPromotion => "a capture or a promotion",
                    Reset::CaptureOrCastleEntry => {
                        "a capture or a piece entering the opponent's castle"
                    }
                }
            ),
            DrawKind::Balance { pieces, plies } => format!(
                "both sides have kings, {}-{} pieces on the board, and {} moves each ({plies} \
                 plies) without a capture or a promotion",
                pieces.0,
                pieces.1,
                plies / 2
            ),
            DrawKind::Endgame {
                strong,
                plies,
                lone_king_on,
                strong_king_on,
            } => {
                let mats: Vec<String> = strong.iter().map(Material::describe).collect();
                let mut s = format!("{} against a lone king", mats.join(" or "));
                if !lone_king_on.is_empty() {
                    s += &format!(" standing alone on {}", lone_king_on.join(","));
                }
                if !strong_king_on.is_empty() {
                    s += &format!(
                        ", the stronger side holding one of {}",
                        strong_king_on.join(",")
                    );
                }
                format!(
                    "{s}: {} moves each ({plies} plies) after it arises",
                    plies / 2
                )
            }
        }
    }
}

/// Whether an endgame configuration holds in `pos`; `cells` are the rule's
/// `[lone_king_on, strong_king_on]` squares, resolved on the variant's board
/// ([`crate::variant::Variant::draw_cells`]; an empty set: anywhere).
#[inline(always)]
pub(crate) fn endgame_holds(cells: &[Bits; 2], pos: &Position, kind: &DrawKind) -> bool {
    let DrawKind::Endgame { strong, .. } = kind else {
        return false;
    };
    // The squares are read only for a position whose material matches.
    let [lone_king_on, strong_king_on] = cells;
    let on =
        |squares: &Bits, cells: Bits| squares.is_empty() || !squares.intersect(cells).is_empty();
    // The lone king must be alone on its squares (FMJD-64 7.2.7: lidraughts counts the pieces
    // on the main road).
    let alone =
        |squares: &Bits| squares.is_empty() || pos.occupied().intersect(*squares).len() == 1;
    Color::BOTH.into_iter().any(|s| {
        let w = s.opponent();
        let lone = pos.count(w, Kind::King) == 1
            && pos.count(w, Kind::Man) == 0
            && pos.count(w, Kind::Parachutist) == 0;
        lone && pos.count(s, Kind::Parachutist) == 0
            && strong
                .iter()
                .any(|m| m.matches(pos.count(s, Kind::King), pos.count(s, Kind::Man)))
            && on(lone_king_on, pos.pieces(w, Kind::King))
            && alone(lone_king_on)
            && on(strong_king_on, pos.pieces(s, Kind::King))
    })
}

// The federations' rule sets, shared by the variants that use them.

const STRONG_3: &[Material] = &[
    Material::exactly(3, 0),
    Material::exactly(2, 1),
    Material::exactly(1, 2),
];
const STRONG_2: &[Material] = &[
    Material::exactly(2, 0),
    Material::exactly(1, 1),
    Material::exactly(1, 0),
];
const THREE_KINGS: &[Material] = &[Material::exactly(3, 0)];
const TWO_KINGS: &[Material] = &[Material::exactly(2, 0)];
const ONE_KING: &[Material] = &[Material::exactly(1, 0)];
const MAIN_ROAD: &[&str] = &["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"];
/// The Portuguese "rio", squares 1-32 of the Portuguese numbering (h1 to a8).
const RIO: &[&str] = &["h1", "g2", "f3", "e4", "d5", "c6", "b7", "a8"];

fn repetition(occurrences: u8, claim: bool, text: &'static str) -> DrawRule {
    DrawRule {
        code: DrawCode::Repetition,
        kind: DrawKind::Repetition { occurrences },
        claim,
        text,
    }
}

/// FMJD Annex 1 Art. 6 (International; the set windames.free.fr gives for Canadian).
pub fn fmjd() -> Vec<DrawRule> {
    vec![
        repetition(3, false, "FMJD 6.1."),
        DrawRule {
            code: DrawCode::Kings25,
            kind: DrawKind::NoProgress {
                plies: 50,
                reset: Reset::ManMoveOrCapture,
            },
            claim: false,
            text: "FMJD 6.2: 25 successive moves each with only kings moved, without capture.",
        },
        DrawRule {
            code: DrawCode::Endgame16,
            kind: DrawKind::Endgame {
                strong: STRONG_3,
                plies: 32,
                lone_king_on: &[],
                strong_king_on: &[],
            },
            claim: false,
            text: "FMJD 6.3: counted from the first position with this material (lidraughts); \
                   a promotion inside the configuration does not restart it.",
        },
        DrawRule {
            code: DrawCode::Endgame5,
            kind: DrawKind::Endgame {
                strong: STRONG_2,
                plies: 10,
                lone_king_on: &[],
                strong_king_on: &[],
            },
            claim: false,
            text: "FMJD 6.4: a capture that turns a 6.3 configuration into this one starts the \
                   5-move count afresh (lidraughts reading; another reading keeps the remaining \
                   16-move budget).",
        },
    ]
}

/// Killer draughts (as Scan plays it): FMJD 6.1 and 6.2 only, no endgame counts.
pub fn killer() -> Vec<DrawRule> {
    vec![
        repetition(3, false, "FMJD 6.1."),
        DrawRule {
            code: DrawCode::Kings25,
            kind: DrawKind::NoProgress {
                plies: 50,
                reset: Reset::ManMoveOrCapture,
            },
            claim: false,
            text: "FMJD 6.2: 25 successive moves each with only kings moved, without capture. \
                   The 16- and 5-move endgame rules (FMJD 6.3, 6.4) are not applied: they would \
                   forbid the wins against a lone king that the killer rule exists for.",
        },
    ]
}

/// FMJD-64 7.2.3-7.2.8 (Russian; Brazilian by default, as on lidraughts).
pub fn fmjd64() -> Vec<DrawRule> {
    vec![
        repetition(3, false, "FMJD-64 7.2.3."),
        DrawRule {
            code: DrawCode::ThreeKings15,
            kind: DrawKind::Endgame {
                strong: &[Material {
                    kings: 3,
                    men: 0,
                    or_more_kings: true,
                }],
                plies: 30,
                lone_king_on: &[],
                strong_king_on: &[],
            },
            claim: false,
            text: "FMJD-64 7.2.4: three kings or more against a lone king that are not able to \
                   capture it by their 15th move; counted from the position where this material \
                   arose.",
        },
        DrawRule {
            code: DrawCode::Kings15,
            kind: DrawKind::NoProgress {
                plies: 30,
                reset: Reset::ManMoveOrCapture,
            },
            claim: false,
            text: "FMJD-64 7.2.5: 15 moves each with only kings moved, no man moved and no \
                   capture.",
        },
        DrawRule {
            code: DrawCode::Balance3060,
            kind: DrawKind::Balance {
                pieces: (4, 5),
                plies: 60,
            },
            claim: false,
            text: "FMJD-64 7.2.6, 4-5 pieces: 30 moves each (lidraughts since 2020; the text \
                   does not say 'each', which would make it 30 plies).",
        },
        DrawRule {
            code: DrawCode::Balance3060,
            kind: DrawKind::Balance {
                pieces: (6, 7),
                plies: 120,
            },
            claim: false,
            text: "FMJD-64 7.2.6, 6-7 pieces: 60 moves each (same reading as above). Rules 7.2.5 \
                   and 7.2.6 are applied independently (lidraughts applies one per material \
                   configuration).",
        },
        DrawRule {
            code: DrawCode::MainRoad5,
            kind: DrawKind::Endgame {
                strong: STRONG_3,
                plies: 10,
                lone_king_on: MAIN_ROAD,
                strong_king_on: &[],
            },
            claim: false,
            text: "FMJD-64 7.2.7: 'cannot reach a winning position by the 5th move' is counted as \
                   5 moves each with the lone king on the main road a1-h8 (lidraughts).",
        },
        DrawRule {
            code: DrawCode::TwoVsOne5,
            kind: DrawKind::Endgame {
                strong: STRONG_2,
                plies: 10,
                lone_king_on: &[],
                strong_king_on: &[],
            },
            claim: false,
            text: "FMJD-64 7.2.8: counted as 5 moves each from the position where this material \
                   arose (lidraughts).",
        },
    ]
}

/// WCDF (English; also Checkers, Paraszt and Pool).
pub fn wcdf() -> Vec<DrawRule> {
    vec![
        repetition(
            3,
            true,
            "WCDF: a player who can show that his next move repeats the position for the \
             third time may claim a draw.",
        ),
        DrawRule {
            code: DrawCode::NoProgress40,
            kind: DrawKind::NoProgress {
                plies: 80,
                reset: Reset::ManMoveOrCapture,
            },
            claim: false,
            text: "WCDF: neither player advanced an uncrowned man nor removed a piece during \
                   their own previous 40 moves.",
        },
    ]
}

/// Czech rules (FMJD's brief rules of Czech draughts; also Corner, One-way, Parachute).
pub fn czech() -> Vec<DrawRule> {
    vec![
        repetition(3, true, "Czech rules: threefold repetition when claimed."),
        DrawRule {
            code: DrawCode::NoProgress15,
            kind: DrawKind::NoProgress {
                plies: 30,
                reset: Reset::ManMoveOrCapture,
            },
            claim: false,
            text: "Czech rules: no capture and no man move within 15 moves, read as 15 moves \
                   each (the text does not say 'each').",
        },
    ]
}

/// Italian (FID, as encoded by dctl).
pub fn italian() -> Vec<DrawRule> {
    vec![
        repetition(
            4,
            false,
            "FID art. 9.3 b1 as cited by dctl: the 4th occurrence (use 3 if the tournament \
             says so).",
        ),
        DrawRule {
            code: DrawCode::NoProgress40,
            kind: DrawKind::NoProgress {
                plies: 80,
                reset: Reset::ManMoveOrCapture,
            },
            claim: false,
            text: "FID art. 10.4 as cited by dctl: 40 moves each without a man move or capture.",
        },
    ]
}

/// Portuguese (FPD 2021 as implemented by strategygames).
pub fn portuguese() -> Vec<DrawRule> {
    vec![
        repetition(3, true, "FPD 3.2.c: consecutive or not, on claim."),
        DrawRule {
            code: DrawCode::NoProgress20,
            kind: DrawKind::NoProgress {
                plies: 40,
                reset: Reset::CaptureOrPromotion,
            },
            claim: false,
            text: "FPD 3.2.a: 20 moves each without a change of state (capture or promotion).",
        },
        DrawRule {
            code: DrawCode::ThreeKingsRio12,
            kind: DrawKind::Endgame {
                strong: THREE_KINGS,
                plies: 24,
                lone_king_on: &[],
                strong_king_on: RIO,
            },
            claim: false,
            text: "FPD 3.2.b: three kings holding the rio (the long diagonal 1-32) against one \
                   king: 12 moves each; the count runs while a strong king stands on the rio.",
        },
    ]
}

/// Repetition only (Thai, anti variants; lidraughts' Antidraughts).
pub fn repetition_only(text: &'static str) -> Vec<DrawRule> {
    vec![repetition(3, false, text)]
}

/// Camelot (World Camelot Federation): threefold repetition, and 50 moves each without a
/// capture or a piece entering the opponent's castle.
pub fn camelot(repetition_text: &'static str, fifty: &'static str) -> Vec<DrawRule> {
    vec![
        repetition(3, false, repetition_text),
        DrawRule {
            code: DrawCode::NoProgress50,
            kind: DrawKind::NoProgress {
                plies: 100,
                reset: Reset::CaptureOrCastleEntry,
            },
            claim: false,
            text: fifty,
        },
    ]
}

/// Frisian (lidraughts).
pub fn frisian() -> Vec<DrawRule> {
    vec![
        repetition(3, false, "Threefold repetition."),
        DrawRule {
            code: DrawCode::Frisian2v1,
            kind: DrawKind::Endgame {
                strong: TWO_KINGS,
                plies: 14,
                lone_king_on: &[],
                strong_king_on: &[],
            },
            claim: false,
            text: "Two kings against one: drawn after 7 moves each; the count restarts only when \
                   a piece disappears.",
        },
        DrawRule {
            code: DrawCode::Frisian1v1,
            kind: DrawKind::Endgame {
                strong: ONE_KING,
                plies: 4,
                lone_king_on: &[],
                strong_king_on: &[],
            },
            claim: false,
            text: "One king against one: the official rule draws at once unless a capture can be \
                   forced immediately; approximated as 2 moves each (lidraughts).",
        },
    ]
}
