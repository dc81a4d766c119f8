//! The variant catalogue: one declarative [`Spec`] per variant id (`../shared/rules/`).
//!
//! Adding a variant means adding a spec here and its tests; nothing else in the engine knows
//! variant ids.

use std::sync::OnceLock;

use crate::board::{Corner, DirSet, Squares};
use crate::position::{Color, Kind};
use crate::rules::{
    Goal, Landing, MidCapturePromotion, PieceRules, Precedence, Range, Reach, Removal, Rules,
};
use crate::variant::{PromotionSquares, ResultStyle, Spec, Variant};

/// How kings move and capture in the diagonal family.
#[derive(Clone, Copy)]
enum KingStyle {
    /// One square; captures adjacent pieces (English, Italian).
    Short,
    /// Any distance; lands on any empty square behind (International, Russian...).
    Flying,
}

/// A ruleset of the diagonal family (`diagonal.md` §1), from its parameters.
fn diagonal(
    men_capture_backward: bool,
    men_capture_kings: bool,
    king: KingStyle,
    removal: Removal,
    precedence: Vec<Precedence>,
    mid_capture_promotion: MidCapturePromotion,
) -> Rules {
    let forward = [DirSet::DIAGONAL_NORTH, DirSet::DIAGONAL_SOUTH];
    let man = PieceRules {
        moves: forward,
        range: Range::Step,
        captures: if men_capture_backward {
            [DirSet::DIAGONAL; 2]
        } else {
            forward
        },
        reach: Reach::Short,
        captures_kings: men_capture_kings,
        max_jumps: 0,
        after_capture: Kind::Man,
    };
    let (range, reach) = match king {
        KingStyle::Short => (Range::Step, Reach::Short),
        KingStyle::Flying => (Range::Slide, Reach::Flying(Landing::Any)),
    };
    let king = PieceRules {
        moves: [DirSet::DIAGONAL; 2],
        range,
        captures: [DirSet::DIAGONAL; 2],
        reach,
        captures_kings: true,
        max_jumps: 0,
        after_capture: Kind::King,
    };
    Rules {
        pieces: [man, king, PieceRules::ABSENT],
        removal,
        mid_capture_promotion,
        precedence,
        no_reversal: false,
        king_quiet_limit: 0,
        goal: Goal::NoMovesLoses,
        repetition: 3,
    }
}

fn specs() -> Vec<Spec> {
    vec![
        Spec {
            id: "international",
            name: "International draughts (FMJD), 10×10",
            width: 10,
            height: 10,
            squares: Squares::DarkA1,
            numbering: Corner::TopLeft,
            algebraic: false,
            first: Color::White,
            start_fen: "W:W31-50:B1-20",
            rules: diagonal(
                true,
                true,
                KingStyle::Flying,
                Removal::Deferred,
                vec![Precedence::Count],
                MidCapturePromotion::Pass,
            ),
            promotion: PromotionSquares::FarRank,
            game_type: Some("20,W,10,10,N2,0"),
            capture_separator: 'x',
            result_style: ResultStyle::International,
            sources: &[
                "FMJD Annex 1, Official FMJD rules for international draughts",
                "PDN 3.0 (pdn.fmjd.org), GameType 20",
                "shared/rules/diagonal.md §3.1",
            ],
            provisional: None,
            notes: &[
                "Majority capture: kings and men count equally; free choice among maxima.",
                "A man passing the far row during a capture stays a man unless it ends there.",
            ],
        },
        Spec {
            id: "english",
            name: "English draughts / American checkers (WCDF)",
            width: 8,
            height: 8,
            squares: Squares::DarkA1,
            numbering: Corner::TopLeft,
            algebraic: false,
            first: Color::Black,
            start_fen: "B:W21-32:B1-12",
            rules: diagonal(
                false,
                true,
                KingStyle::Short,
                Removal::Deferred,
                vec![],
                MidCapturePromotion::End,
            ),
            promotion: PromotionSquares::FarRank,
            game_type: Some("21,B,8,8,N1,0"),
            capture_separator: 'x',
            result_style: ResultStyle::Default,
            sources: &[
                "WCDF rules of English draughts / checkers",
                "PDN 3.0 (pdn.fmjd.org), GameType 21",
                "shared/rules/diagonal.md §3.9",
            ],
            provisional: None,
            notes: &[
                "Black (dark) moves first; squares 1-12 are Black's, 21-32 White's.",
                "Free choice among capture sequences, but a chosen sequence is completed.",
            ],
        },
        Spec {
            id: "russian",
            name: "Russian draughts (shashki)",
            width: 8,
            height: 8,
            squares: Squares::DarkA1,
            numbering: Corner::TopLeft,
            algebraic: true,
            first: Color::White,
            start_fen:
                "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
            rules: diagonal(
                true,
                true,
                KingStyle::Flying,
                Removal::Deferred,
                vec![],
                MidCapturePromotion::KingContinue,
            ),
            promotion: PromotionSquares::FarRank,
            game_type: Some("25,W,8,8,A0,0"),
            capture_separator: ':',
            result_style: ResultStyle::Default,
            sources: &[
                "FMJD-64 / IDF official rules of draughts-64",
                "Rules of the sport \"draughts\", Russian Ministry of Sport (2010)",
                "PDN 3.0 (pdn.fmjd.org), GameType 25",
                "shared/rules/diagonal.md §3.3",
            ],
            provisional: None,
            notes: &[
                "Free choice among capture sequences (no majority rule).",
                "Numeric squares (1 = b8 ... 32 = g1, as lidraughts) are accepted on input.",
            ],
        },
    ]
}

static CATALOGUE: OnceLock<Vec<Variant>> = OnceLock::new();

/// Every variant of the catalogue, in a stable order.
pub fn variants() -> &'static [Variant] {
    CATALOGUE.get_or_init(|| specs().into_iter().map(Variant::new).collect())
}

/// The variant with this id.
pub fn variant(id: &str) -> Option<&'static Variant> {
    variants().iter().find(|v| v.id() == id)
}

/// The ids of every variant.
pub fn ids() -> Vec<&'static str> {
    variants().iter().map(|v| v.id()).collect()
}
