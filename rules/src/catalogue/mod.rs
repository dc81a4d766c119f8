//! The variant catalogue: one declarative [`Spec`] per variant id, each with its public sources.
//!
//! Adding a variant means adding a spec here and its tests; nothing else in the engine knows
//! variant ids.

use std::sync::OnceLock;

mod camelot;
mod describe;
mod drops;
mod lines;
mod names;
mod orthogonal;

pub use names::{
    choose_variant, variant_for_game_type, variant_for_tag, variant_named, VariantChoice,
    GAME_TYPE_FROM_POSITION,
};

use crate::board::{Corner, DirSet, Squares};
use crate::draws;
use crate::ends;
use crate::position::{Color, Kind};
use crate::rules::{
    Goal, Landing, MidCapturePromotion, PieceRules, Precedence, Range, Reach, Removal, Rules,
};
use crate::variant::{BoardShape, PromotionSquares, ResultStyle, Spec, Variant};

/// How kings move and capture in the diagonal family.
#[derive(Clone, Copy)]
enum KingStyle {
    /// One square; captures adjacent pieces (English, Italian).
    Short,
    /// Any distance; lands on any empty square behind (International, Russian...).
    Flying,
    /// Any distance; lands only on the square right behind (Thai).
    FlyingBehind,
}

/// A ruleset of the diagonal family, from the parameters in which the federations differ.
fn diagonal(
    men_capture_backward: bool,
    king: KingStyle,
    removal: Removal,
    precedence: Vec<Precedence>,
    mid_capture_promotion: MidCapturePromotion,
    draws: Vec<draws::DrawRule>,
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
        captures_kings: true,
        max_jumps: 0,
        after_capture: Kind::Man,
        halt_behind_last_king: false,
        canter: false,
        charge: false,
    };
    let (range, reach) = match king {
        KingStyle::Short => (Range::Step, Reach::Short),
        KingStyle::Flying => (Range::Slide, Reach::Flying(Landing::Any)),
        KingStyle::FlyingBehind => (Range::Slide, Reach::Flying(Landing::Behind)),
    };
    let king = PieceRules {
        moves: [DirSet::DIAGONAL; 2],
        range,
        captures: [DirSet::DIAGONAL; 2],
        reach,
        captures_kings: true,
        max_jumps: 0,
        after_capture: Kind::King,
        halt_behind_last_king: false,
        canter: false,
        charge: false,
    };
    Rules {
        pieces: [man, king, PieceRules::ABSENT, PieceRules::ABSENT],
        removal,
        mid_capture_promotion,
        precedence,
        draws,
        ..Rules::BASE
    }
}

/// FMJD rules (International, Brazilian, Canadian, Antidraughts): men capture backward, flying
/// kings, deferred removal, majority capture, a man passing the far row stays a man.
fn fmjd() -> Rules {
    diagonal(
        true,
        KingStyle::Flying,
        Removal::Deferred,
        vec![Precedence::Count],
        MidCapturePromotion::Pass,
        draws::fmjd(),
    )
}

/// English / WCDF rules (also Checkers, Paraszt, Anti checkers): short kings, men capture
/// forward only, free choice, promotion ends the move.
fn wcdf() -> Rules {
    diagonal(
        false,
        KingStyle::Short,
        Removal::Deferred,
        vec![],
        MidCapturePromotion::End,
        draws::wcdf(),
    )
}

/// Czech rules (also Corner, One-way, Parachute): men capture forward only, flying kings, a
/// capture with a king has priority, otherwise free choice.
fn czech() -> Rules {
    diagonal(
        false,
        KingStyle::Flying,
        Removal::Deferred,
        vec![Precedence::ByKing],
        MidCapturePromotion::End,
        draws::czech(),
    )
}

/// An 8×8 a1-dark board with the standard numbering (1 = b8 ... 32 = g1).
#[allow(clippy::too_many_arguments)]
fn board8(
    id: &'static str,
    name: &'static str,
    algebraic: bool,
    first: Color,
    start_fen: &'static str,
    rules: Rules,
    game_type: Option<&'static str>,
    capture_separator: char,
    sources: &'static [&'static str],
    notes: &'static [&'static str],
) -> Spec {
    Spec {
        id,
        name,
        width: 8,
        height: 8,
        board: BoardShape::Grid(Squares::DarkA1),
        numbering: Corner::TopLeft,
        algebraic,
        first,
        start_fen,
        rules,
        promotion: PromotionSquares::FarRank,
        game_type,
        variant_tags: &[],
        capture_separator,
        result_style: ResultStyle::Default,
        sources,
        provisional: None,
        notes,
    }
}

const RUSSIAN_START: &str =
    "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8";

fn specs() -> Vec<Spec> {
    let international = Spec {
        id: "international",
        name: "International draughts (FMJD), 10×10",
        width: 10,
        height: 10,
        board: BoardShape::Grid(Squares::DarkA1),
        numbering: Corner::TopLeft,
        algebraic: false,
        first: Color::White,
        start_fen: "W:W31-50:B1-20",
        rules: fmjd(),
        promotion: PromotionSquares::FarRank,
        game_type: Some("20,W,10,10,N2,0"),
        variant_tags: &[
            "Standard",
            "International draughts",
            "Draughts",
            "From Position",
            "draughtsFromPosition",
        ],
        capture_separator: 'x',
        result_style: ResultStyle::International,
        sources: &[
            "FMJD Annex 1, Official FMJD rules for international draughts: \
             https://fmjd.org/?p=annex (text: https://e-dama.net/e/dama/\
             Annex_1_official_FMJD_rules_of_international_draughts.htm)",
            "PDN 3.0 (FMJD), GameType 20: https://pdn.fmjd.org/gametype.html",
            "lidraughts (scaladraughts Standard.scala): https://github.com/RoepStoep/scaladraughts",
            "dctl by Rein Halbersma (rules international.hpp, perft): \
             https://github.com/rhalbersma/dctl",
        ],
        provisional: None,
        notes: &[
            "Majority capture: kings and men count equally; free choice among maxima.",
            "A man passing the far row during a capture stays a man unless it ends there.",
        ],
    };
    let mut antidraughts_rules = fmjd();
    antidraughts_rules.goal = Goal::NoMovesWins;
    antidraughts_rules.draws = draws::repetition_only(
        "lidraughts antidraughts: threefold repetition only, no endgame draw rules.",
    );
    let mut anti_checkers_rules = wcdf();
    anti_checkers_rules.goal = Goal::NoMovesWins;
    anti_checkers_rules.draws = draws::repetition_only(
        "BrainKing states no draw rule; threefold repetition as a safety net.",
    );
    let mut brazilian_rules = fmjd();
    brazilian_rules.draws = draws::fmjd64();
    let mut italian_rules = diagonal(
        false,
        KingStyle::Short,
        Removal::Deferred,
        vec![
            Precedence::Count,
            Precedence::ByKing,
            Precedence::KingsCaptured,
            Precedence::KingsEarly,
        ],
        MidCapturePromotion::End,
        draws::italian(),
    );
    italian_rules.pieces[Kind::Man as usize].captures_kings = false;
    let mut one_way_rules = czech();
    one_way_rules.pieces[Kind::Man as usize].moves = [DirSet::DIAGONAL_NORTH; 2];
    one_way_rules.pieces[Kind::Man as usize].captures = [DirSet::DIAGONAL_NORTH; 2];
    let mut parachute_rules = czech();
    parachute_rules.pieces[Kind::Parachutist as usize] = PieceRules {
        moves: [DirSet::NONE; 2],
        range: Range::Step,
        // A parachutist stands on the enemy's first row and jumps back towards its own side.
        captures: [DirSet::DIAGONAL_SOUTH, DirSet::DIAGONAL_NORTH],
        reach: Reach::Short,
        captures_kings: true,
        max_jumps: 1,
        after_capture: Kind::Man,
        halt_behind_last_king: false,
        canter: false,
        charge: false,
    };
    let mut frisian_rules = diagonal(
        true,
        KingStyle::Flying,
        Removal::Deferred,
        vec![
            Precedence::Value {
                man: 100,
                king: 199,
            },
            Precedence::ByKing,
        ],
        MidCapturePromotion::Pass,
        draws::frisian(),
    );
    frisian_rules.pieces[Kind::Man as usize].captures = [DirSet::ALL; 2];
    frisian_rules.pieces[Kind::King as usize].captures = [DirSet::ALL; 2];
    frisian_rules.king_quiet_limit = 3;
    vec![
        international.clone(),
        Spec {
            variant_tags: &["American", "American/English", "Checkers English"],
            ..board8(
                "english",
                "English draughts / American checkers (WCDF)",
                false,
                Color::Black,
                "B:W21-32:B1-12",
                wcdf(),
                Some("21,B,8,8,N1,0"),
                'x',
                &[
                    "WCDF rules of English draughts / checkers, as quoted at \
                     https://littlegolem.net/jsp/forum/topic2.jsp?forum=300&topic=17",
                    "PDN 3.0 (FMJD), GameType 21: https://pdn.fmjd.org/gametype.html",
                    "dctl by Rein Halbersma (rules checkers.hpp, perft): \
                     https://github.com/rhalbersma/dctl",
                    "Aart Bik, perft for checkers: http://www.aartbik.com/MISC/checkers.html",
                ],
                &[
                    "Black (dark) moves first; squares 1-12 are Black's, 21-32 White's.",
                    "Free choice among capture sequences, but a chosen sequence is completed.",
                ],
        )
        },
        board8(
            "russian",
            "Russian draughts (shashki)",
            true,
            Color::White,
            RUSSIAN_START,
            diagonal(
                true,
                KingStyle::Flying,
                Removal::Deferred,
                vec![],
                MidCapturePromotion::KingContinue,
                draws::fmjd64(),
            ),
            Some("25,W,8,8,A0,0"),
            ':',
            &[
                "FMJD-64 / IDF official rules of draughts-64: \
                 https://fmjd64.org/rules-of-the-game/",
                "Rules of the sport \"draughts\", Russian Ministry of Sport (2010): \
                 http://studydoc.ru/doc/337559/",
                "PDN 3.0 (FMJD), GameType 25: https://pdn.fmjd.org/gametype.html",
                "lidraughts (scaladraughts Russian.scala): \
                 https://github.com/RoepStoep/scaladraughts",
            ],
            &[
                "Free choice among capture sequences (no majority rule).",
                "Numeric squares (1 = b8 ... 32 = g1, as lidraughts) are accepted on input.",
            ],
        ),
        board8(
            "brazilian",
            "Brazilian draughts",
            true,
            Color::White,
            RUSSIAN_START,
            brazilian_rules,
            Some("26,W,8,8,A0,0"),
            'x',
            &[
                "FMJD Brazilian draughts rules: http://brazil.fmjd.org/includes/rules.php",
                "CBD, Regras Oficiais do Jogo de Damas (summary: \
                 http://apedamas.blogspot.com/p/regulamento-oficial.html)",
                "PDN 3.0 (FMJD), GameType 26: https://pdn.fmjd.org/gametype.html",
                "lidraughts (scaladraughts Brazilian.scala): \
                 https://github.com/RoepStoep/scaladraughts",
            ],
            &[
                "International rules on 8×8: majority capture, men capture backward, flying kings.",
                "Numeric squares (1 = b8 ... 32 = g1, as lidraughts) are accepted on input.",
                "Draws: the FMJD-64 rules, as lidraughts applies them to Brazilian; the \
                 alternative CBD set (20 successive king moves each without capture or man \
                 move, plus repetition) is not the default.",
            ],
        ),
        Spec {
            id: "canadian",
            variant_tags: &[],
            name: "Canadian draughts, 12×12",
            width: 12,
            height: 12,
            start_fen: "W:W43-72:B1-30",
            game_type: Some("27,W,12,12,N2,0"),
            sources: &[
                "windames.free.fr, Canadian draughts: http://windames.free.fr/canadian.html",
                "checkershistory.com, Canadian checkers: \
                 http://checkershistory.com/Canadian-Checkers-Variant.html",
                "PDN 3.0 (FMJD), GameType 27: https://pdn.fmjd.org/gametype.html",
                "Ludii, Canadian Draughts: \
                 https://ludii.games/details.php?keyword=Canadian+Draughts",
            ],
            notes: &[
                "International rules on a 12×12 board with 30 men a side; 1 = b12 ... 72 = k1.",
            ],
            ..international.clone()
        },
        board8(
            "czech",
            "Czech draughts (Česká dáma)",
            true,
            Color::White,
            RUSSIAN_START,
            czech(),
            Some("29,W,8,8,A0,0"),
            'x',
            &[
                "FMJD, Brief rules of Czech draughts: http://fmjd.org/variant.php?p=czech",
                "PDN 3.0 (FMJD), GameType 29: https://pdn.fmjd.org/gametype.html",
                "BrainKing rules page, Czech checkers: https://brainking.com/en/GameRules?tp=29",
            ],
            &[
                "Men capture forward only; a capture with a king has priority over one with a man; \
                 otherwise free choice (no majority rule).",
            ],
        ),
        Spec {
            id: "italian",
            variant_tags: &[],
            name: "Italian draughts (Dama italiana, FID)",
            width: 8,
            height: 8,
            board: BoardShape::Grid(Squares::LightA1),
            numbering: Corner::TopLeft,
            algebraic: false,
            first: Color::White,
            start_fen: "W:W21-32:B1-12",
            rules: italian_rules,
            promotion: PromotionSquares::FarRank,
            game_type: Some("22,W,8,8,N2,1"),
            capture_separator: 'x',
            result_style: ResultStyle::Default,
            sources: &[
                "FID, Regolamento ufficiale di gioco della dama italiana: \
                 http://www.fid.it/regolamenti/capo1.htm",
                "federdama.org, Le 10 regole della dama italiana: \
                 https://www.federdama.org/cms/index.php/documenti-1/le-specialita/dama-italiana",
                "PDN 3.0 (FMJD), GameType 22: https://pdn.fmjd.org/gametype.html",
                "dctl by Rein Halbersma (rules italian.hpp, citing the FID draw articles): \
                 https://github.com/rhalbersma/dctl",
            ],
            provisional: None,
            notes: &[
                "Mirrored board (a1 light): 1 = a8 ... 32 = h1.",
                "Short kings; men capture forward only and may not capture kings.",
                "Precedence: most pieces, then capture with a king, then most kings, then kings met \
                 earliest (lexicographically smallest list of king positions in the sequence).",
                "Draw by repetition on the 4th occurrence of a position (FID art. 9.3 as cited by \
                 dctl); a tournament using threefold repetition would differ.",
                "The flying Italian king of some popular Italian rules summaries is not used \
                 (FID kings are short).",
            ],
        },
        Spec {
            id: "portuguese",
            variant_tags: &[],
            name: "Portuguese draughts (Damas clássicas, FPD)",
            width: 8,
            height: 8,
            board: BoardShape::Grid(Squares::LightA1),
            numbering: Corner::BottomRight,
            algebraic: false,
            first: Color::White,
            start_fen: "W:W1-12:B21-32",
            rules: diagonal(
                false,
                KingStyle::Flying,
                Removal::Deferred,
                vec![Precedence::Count, Precedence::KingsCaptured],
                MidCapturePromotion::End,
                draws::portuguese(),
            ),
            promotion: PromotionSquares::FarRank,
            game_type: Some("28,W,8,8,N1,1"),
            capture_separator: 'x',
            result_style: ResultStyle::Default,
            sources: &[
                "FPD, Regras do jogo de damas clássicas: \
                 https://pt.slideshare.net/slideshow/regas-jogo-de-damas/51814671",
                "PDN 3.0 (FMJD), GameType 28: https://pdn.fmjd.org/gametype.html",
                "PlayStrategy (strategygames Portuguese.scala, citing the FPD 2021 rules): \
                 https://github.com/Mind-Sports-Games/strategygames",
            ],
            provisional: None,
            notes: &[
                "Mirrored board (a1 light), numbered from White's bottom-right: 1 = h1 ... 32 = a8; \
                 the long diagonal 1-32 is the rio.",
                "Quantity then quality: most pieces, then most kings; the capturing piece does not \
                 matter.",
            ],
        },
        Spec {
            id: "thai",
            variant_tags: &[],
            name: "Thai draughts (Mak-hos)",
            width: 8,
            height: 8,
            board: BoardShape::Grid(Squares::DarkA1),
            numbering: Corner::BottomRight,
            algebraic: false,
            first: Color::Black,
            start_fen: "B:W1-8:B25-32",
            rules: diagonal(
                false,
                KingStyle::FlyingBehind,
                Removal::Immediate,
                vec![],
                MidCapturePromotion::End,
                draws::repetition_only(
                    "No Thai draw rule was found; threefold repetition as a safety net.",
                ),
            ),
            promotion: PromotionSquares::FarRank,
            game_type: Some("31,B,8,8,N2,0"),
            capture_separator: '-',
            result_style: ResultStyle::Default,
            sources: &[
                "mindsports.nl, Thai draughts: http://mindsports.nl/index.php/\
                 on-the-evolution-of-draughts-variants/draughts-variants/500-thai",
                "checkers.fandom.com, Mak-hot: https://checkers.fandom.com/wiki/Mak-hot",
                "checkerschest.com, Thai checkers: \
                 http://www.checkerschest.com/checkers-games/thai-checkers.htm",
                "PDN 3.0 (FMJD), GameType 31: https://pdn.fmjd.org/gametype.html",
                "dctl by Rein Halbersma (rules thai.hpp): https://github.com/rhalbersma/dctl",
            ],
            provisional: None,
            notes: &[
                "8 men a side on the two nearest rows; Black moves first (PDN GameType 31; other \
                 sources say White or no fixed rule).",
                "Numbered from Black's side: 1 = g1 ... 32 = b8 (33 minus the English number).",
                "Kings capture at a distance but land on the square right behind; captured pieces \
                 are removed at once, so a king may cross the square again or turn back.",
                "Draws: repetition only (no Thai draw rule was found).",
            ],
        },
        board8(
            "checkers",
            "Checkers (\"Dame\", as BrainKing describes it)",
            false,
            Color::White,
            "W:W21-32:B1-12",
            wcdf(),
            None,
            'x',
            &[
                "BrainKing rules page, Checkers (German: Dame): \
                 https://brainking.com/en/GameRules?tp=7",
                "WCDF rules of English draughts (the same moves), as quoted at \
                 https://littlegolem.net/jsp/forum/topic2.jsp?forum=300&topic=17",
            ],
            &[
                "English draughts moves; White moves first, as BrainKing plays it.",
                "No PDN GameType of its own: PDN files use GameType 21 with a Variant tag.",
            ],
        ),
        board8(
            "paraszt",
            "Hungarian peasant draughts (\"paraszt\" dáma)",
            false,
            Color::White,
            "W:W21-32:B1-12",
            wcdf(),
            None,
            'x',
            &[
                "\"Dámajátékok Hétpróbára\" (Hungarian booklet of draughts games): \
                 \"paraszt\" Dáma",
                "WCDF rules of English draughts (the same moves), as quoted at \
                 https://littlegolem.net/jsp/forum/topic2.jsp?forum=300&topic=17",
            ],
            &[
                "English draughts moves; White moves first.",
                "The Hungarian booklet's deferred removal (\"török ütés\") is honoured, and \
                 changes no move with short-range pieces.",
            ],
        ),
        board8(
            "anti-checkers",
            "Anti checkers (giveaway)",
            false,
            Color::White,
            "W:W21-32:B1-12",
            anti_checkers_rules,
            None,
            'x',
            &[
                "BrainKing, Anti Checkers (its list of checkers games, German: Anti Dame): \
                 https://brainking.com/en/SelectGameType?fid=6&p=2",
                "BrainKing rules page, Checkers (the base rules): \
                 https://brainking.com/en/GameRules?tp=7",
            ],
            &[
                "Checkers moves; the side to move with no legal move (no pieces, or all blocked) \
                 wins.",
                "Draws: repetition only.",
            ],
        ),
        Spec {
            id: "corner",
            name: "Corner checkers (Eckdame)",
            start_fen: "W:Wc1,e1,g1,d2,f2,h2,e3,g3,f4,h4,g5,h6:\
                        Ba3,b4,a5,c5,b6,d6,a7,c7,e7,b8,d8,f8",
            promotion: PromotionSquares::Squares([&["a7", "b8"], &["g1", "h2"]]),
            provisional: Some(
                "BrainKing's rules page shows the start position only as a picture; this setup \
                 (the triangle nearest each corner, as an independent implementation uses) is a \
                 reconstruction",
            ),
            ..board8(
                "corner",
                "",
                true,
                Color::White,
                "",
                czech(),
                None,
                'x',
                &[
                    "BrainKing rules page, Corner checkers (German: Eckdame): \
                     https://brainking.com/en/GameRules?tp=30",
                    "BrainKing rules page, Czech checkers (the base rules): \
                     https://brainking.com/en/GameRules?tp=29",
                    "FMJD, Brief rules of Czech draughts: http://fmjd.org/variant.php?p=czech",
                ],
                &[
                    "Czech rules, but men are crowned only on a7 or b8 (White) and g1 or h2 \
                     (Black); a man on any other square of the far rank stays a man.",
                ],
            )
        },
        Spec {
            id: "one-way",
            name: "One-way checkers (Ein-Weg-Dame)",
            start_fen: "W:We1,g1,f2,h2,e3,g3,f4,h4,e5,g5,f6,h6:\
                        Ba1,c1,b2,d2,a3,c3,b4,d4,a5,c5,b6,d6",
            promotion: PromotionSquares::Squares([&["b8", "d8", "f8", "h8"]; 2]),
            provisional: Some(
                "BrainKing's rules page shows the start position only as a picture; this setup \
                 (ranks 1-6, Black on files a-d, White on files e-h) is a reconstruction",
            ),
            ..board8(
                "one-way",
                "",
                true,
                Color::White,
                "",
                one_way_rules,
                None,
                'x',
                &[
                    "BrainKing rules page, One Way Checkers (German: Ein-Weg-Dame): \
                     https://brainking.com/en/GameRules?tp=31",
                    "BrainKing rules page, Czech checkers (the base rules): \
                     https://brainking.com/en/GameRules?tp=29",
                    "FMJD, Brief rules of Czech draughts: http://fmjd.org/variant.php?p=czech",
                ],
                &[
                    "Czech rules, but the men of both colours move and capture towards rank 8, \
                     and both are crowned there.",
                ],
            )
        },
        board8(
            "parachute",
            "Parachute checkers (Fallschirmdame)",
            true,
            Color::White,
            "W:Wb2,d2,f2,h2,a3,c3,e3,g3,Pb8,Pd8,Pf8,Ph8:\
             Bb6,d6,f6,h6,a7,c7,e7,g7,Pa1,Pc1,Pe1,Pg1",
            parachute_rules,
            None,
            'x',
            &[
                "BrainKing rules page, Parachute checkers (German: Fallschirmdame): \
                 https://brainking.com/en/GameRules?tp=32",
                "checkerschest.com, Parachute checkers: \
                 http://www.checkerschest.com/checkers-games/parachute-checkers.htm",
                "BrainKing rules page, Czech checkers (the base rules): \
                 https://brainking.com/en/GameRules?tp=29",
            ],
            &[
                "Czech rules plus 4 parachutists a side on the opponent's first rank (FEN prefix \
                 P).",
                "A parachutist never makes a plain move; it captures an adjacent enemy piece on \
                 the next rank towards its own side, landing right behind it, and becomes a man \
                 at once: the move ends there.",
                "For the king-first rule a parachutist counts as a man.",
            ],
        ),
        Spec {
            id: "frisian",
            variant_tags: &[],
            name: "Frisian draughts",
            start_fen: "W:W31-50:B1-20",
            rules: frisian_rules,
            game_type: Some("40,W,10,10,N2,0"),
            result_style: ResultStyle::Default,
            sources: &[
                "Wikipedia, Frisian draughts: https://en.wikipedia.org/wiki/Frisian_draughts",
                "mindsports.nl, Frisian draughts: http://mindsports.nl/index.php/\
                 on-the-evolution-of-draughts-variants/draughts-variants/501-frisian",
                "lidraughts (scaladraughts Frisian.scala): \
                 https://github.com/RoepStoep/scaladraughts",
                "dctl by Rein Halbersma (rules frisian.hpp, perft): \
                 https://github.com/rhalbersma/dctl",
                "PDN 3.0 (FMJD), GameType 40: https://pdn.fmjd.org/gametype.html",
            ],
            notes: &[
                "Men and kings also capture orthogonally (the square two rows or two columns \
                 away is the orthogonal neighbour); kings move diagonally only.",
                "Precedence by value, a king worth 199 and a man 100 (lidraughts/dctl; Wikipedia \
                 says 1.5); with equal value a capture with a king has priority.",
                "While a side has men, the same king may make at most three non-capturing moves \
                 in a row.",
            ],
            ..international.clone()
        },
        Spec {
            variant_tags: &["American pool"],
            ..board8(
                "pool",
                "American pool checkers",
                false,
                Color::Black,
                "B:W21-32:B1-12",
                diagonal(
                    true,
                    KingStyle::Flying,
                    Removal::Deferred,
                    vec![],
                    MidCapturePromotion::Pass,
                    draws::wcdf(),
                ),
                Some("23,B,8,8,N1,0"),
                'x',
                &[
                    "American Pool Checkers Association rules, as annotated in dctl by Rein \
                     Halbersma (rules pool.hpp): https://github.com/rhalbersma/dctl",
                    "PDN 3.0 (FMJD), GameType 23: https://pdn.fmjd.org/gametype.html",
                    "PlayStrategy (strategygames Pool.scala): \
                     https://github.com/Mind-Sports-Games/strategygames",
                ],
                &[
                    "Men capture backward, flying kings, free choice; a man passing the far row \
                     during a capture stays a man unless it ends there.",
                ],
            )
        },
        Spec {
            id: "antidraughts",
            variant_tags: &[],
            name: "International antidraughts",
            game_type: Some("98,W,10,10,N2,0"),
            rules: antidraughts_rules,
            sources: &[
                "lidraughts, Antidraughts: https://lidraughts.org/variant/antidraughts",
                "lidraughts (scaladraughts Antidraughts.scala): \
                 https://github.com/RoepStoep/scaladraughts",
                "PlayStrategy (strategygames Antidraughts.scala): \
                 https://github.com/Mind-Sports-Games/strategygames",
                "pydraughts (variant antidraughts): \
                 https://github.com/AttackingOrDefending/pydraughts",
            ],
            notes: &[
                "International moves; the side to move with no legal move wins.",
                "Draws: repetition only.",
                "PDN: lidraughts and PlayStrategy write the private GameType 98 (FMJD has no \
                 number for antidraughts); GameType 20 with [Variant \"Antidraughts\"] is read \
                 as antidraughts too.",
            ],
            ..international
        },
    ]
}

impl Variant {
    /// Builds a variant from its spec: its board, tables and square names
    /// ([`crate::variant`](mod@crate::variant)), then its start position, read from the spec's start FEN.
    ///
    /// # Panics
    /// If the spec is inconsistent (its start FEN does not parse, a promotion square does not
    /// exist). Specs are catalogue data; the catalogue test builds every one.
    pub fn new(spec: Spec) -> Variant {
        let mut v = Variant::without_start(spec);
        let start = v
            .parse_fen(v.spec().start_fen)
            .unwrap_or_else(|e| panic!("{}: bad start FEN: {e}", v.id()));
        v.set_start(start);
        v
    }
}

static CATALOGUE: OnceLock<Vec<Variant>> = OnceLock::new();

/// Every variant of the catalogue, in a stable order.
pub fn variants() -> &'static [Variant] {
    CATALOGUE.get_or_init(|| {
        let mut all = specs();
        let more = served_elsewhere(&all);
        all.extend(more);
        all.extend(orthogonal::specs());
        all.extend(lines::specs());
        all.extend(drops::specs());
        all.extend(camelot::specs());
        all.into_iter().map(Variant::new).collect()
    })
}

/// FNV-1a, for the table of variant ids: a fixed table that requests only read (no client
/// can add keys to it, so a keyed hash buys nothing), looked up by every request, for which
/// the standard library's SipHash cost more than the rest of the lookup.
#[derive(Clone, Copy)]
struct IdHasher(u64);

impl Default for IdHasher {
    fn default() -> Self {
        IdHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl std::hash::Hasher for IdHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

type ById = std::collections::HashMap<
    &'static str,
    &'static Variant,
    std::hash::BuildHasherDefault<IdHasher>,
>;

static BY_ID: OnceLock<ById> = OnceLock::new();

/// The variant with this id (a hash lookup: every request looks its variant up).
pub fn variant(id: &str) -> Option<&'static Variant> {
    BY_ID
        .get_or_init(|| variants().iter().map(|v| (v.id(), v)).collect())
        .get(id)
        .copied()
}

/// The ids of every variant.
pub fn ids() -> Vec<&'static str> {
    variants().iter().map(|v| v.id()).collect()
}

/// The variants other engines and sites serve (lidraughts, PlayStrategy, Scan, dctl), each a
/// delta on a catalogue entry of `base`.
fn served_elsewhere(base: &[Spec]) -> Vec<Spec> {
    let of = |id: &str| -> Spec {
        base.iter()
            .find(|s| s.id == id)
            .unwrap_or_else(|| panic!("catalogue entry {id}"))
            .clone()
    };
    let international = of("international");

    let mut breakthrough_rules = fmjd();
    breakthrough_rules.ends = ends::first_king_wins(
        "lidraughts: \"The game is won when a man ends its turn on the opponents back row ... \
         Nothing happens when the back row is only touched in the middle of a capture \
         sequence.\"",
    );
    breakthrough_rules.draws = vec![];

    let mut killer_rules = fmjd();
    killer_rules.pieces[Kind::King as usize].halt_behind_last_king = true;
    killer_rules.draws = draws::killer();

    vec![
        Spec {
            id: "frysk",
            name: "Frysk! (Frisian draughts from five men a side)",
            start_fen: "W:W46-50:B1-5",
            game_type: Some("97,W,10,10,N2,0"),
            variant_tags: &["Frysk!"],
            sources: &[
                "lidraughts (variant Frysk!, Frysk.scala: Frisian rules from five men a side): \
                 https://github.com/RoepStoep/lidraughts",
                "PlayStrategy (strategygames Frysk.scala): \
                 https://github.com/Mind-Sports-Games/strategygames",
                "pydraughts (variant frysk!): https://github.com/AttackingOrDefending/pydraughts",
            ],
            notes: &[
                "Frisian draughts from five men a side, each on its own back row \
                 (W:W46-50:B1-5); every move and draw rule is Frisian's.",
                "PDN: lidraughts and PlayStrategy write the private GameType 97 (FMJD has no \
                 number for Frysk!); GameType 40 with [Variant \"Frysk!\"], as pydraughts \
                 writes, is read as Frysk! too.",
                "Draws: those of our frisian, threefold repetition included (the catalogue's \
                 choice); lidraughts and PlayStrategy apply no repetition rule to Frisian games.",
            ],
            ..of("frisian")
        },
        Spec {
            id: "breakthrough",
            name: "Breakthrough (International draughts, the first king wins)",
            rules: breakthrough_rules,
            game_type: Some("96,W,10,10,N2,0"),
            variant_tags: &["BRKTHRU"],
            sources: &[
                "lidraughts, Breakthrough: https://lidraughts.org/variant/breakthrough",
                "lidraughts (Breakthrough.scala): https://github.com/RoepStoep/lidraughts",
                "PlayStrategy (strategygames Breakthrough.scala): \
                 https://github.com/Mind-Sports-Games/strategygames",
                "Scan by Fabien Letouzey (variant bt): https://github.com/rhalbersma/scan",
                "pydraughts (variant breakthrough): \
                 https://github.com/AttackingOrDefending/pydraughts",
            ],
            notes: &[
                "International moves; the first side to crown a king wins at once (reason \
                 KING_CROWNED). A man must end its move on the far row: passing it during a \
                 capture does not count.",
                "A king on the board means the game is over, so a start position or FEN \
                 holding a king is refused (invalid-position), and a position after a \
                 crowning has no legal moves (perft counts nothing below it).",
                "No draw rules, as on lidraughts and PlayStrategy (\"There are no draws in \
                 breakthrough\"); Scan's threefold repetition is not used.",
                "PDN: lidraughts and PlayStrategy write the private GameType 96; GameType 20 \
                 with [Variant \"Breakthrough\"], as pydraughts writes, is read as \
                 Breakthrough too.",
            ],
            ..international.clone()
        },
        Spec {
            id: "killer",
            provisional: Some(
                "no Killer draw rules were found in a primary source: repetition and 25 king \
                 moves each (FMJD 6.1, 6.2) are the catalogue's choice",
            ),
            name: "Killer draughts",
            rules: killer_rules,
            game_type: None,
            variant_tags: &["Killer draughts"],
            sources: &[
                "mindsports.nl, Killer draughts (Christian Freeling): \
                 https://mindsports.nl/index.php/the-pit/605-killer-draughts",
                "dctl by Rein Halbersma (rules killer.hpp, perft): \
                 https://github.com/rhalbersma/dctl",
                "Scan by Fabien Letouzey (variant killer): https://github.com/rhalbersma/scan",
                "Zillions of Games, Killer draughts: http://www.zillions-of-games.com/cgi-bin/\
                 zilligames/submissions.cgi?do=show;id=2370",
            ],
            notes: &[
                "International rules plus the killer rule: a king whose last captured piece \
                 is a king stops on the square right behind it. A landing from which the \
                 capture can go on stays compulsory, so the rule picks only the last landing; \
                 it applies to single captures too; men are unaffected.",
                "Draws: threefold repetition and 25 king moves each (FMJD 6.1, 6.2); the FMJD \
                 16- and 5-move endgame rules are off, since they would forbid the wins the \
                 killer rule exists for (the catalogue's choice; Scan applies repetition only).",
                "No PDN GameType of its own: PDN files use 20 with [Variant \"Killer\"].",
            ],
            ..international.clone()
        },
        Spec {
            id: "spanish",
            provisional: Some(
                "the draw rules are the Portuguese (FPD) set, as PlayStrategy applies them; no \
                 Spanish federation text was found",
            ),
            name: "Spanish draughts (Damas)",
            game_type: Some("24,W,8,8,N1,1"),
            variant_tags: &[],
            sources: &[
                "dctl by Rein Halbersma (rules spanish.hpp, perft, citing the FPD rules): \
                 https://github.com/rhalbersma/dctl",
                "PDN 3.0 (FMJD), GameType 24: https://pdn.fmjd.org/gametype.html; the \
                 CheckerBoard program's Spanish game type",
                "checkershistory.com, Spanish checkers: \
                 http://www.checkershistory.com/Spanish-Checkers-Variant.html",
                "realidad-simulada.es, Damas españolas (numbering): \
                 http://realidad-simulada.es/Juegos/Damas%20espa%C3%B1olas/1.htm",
                "PlayStrategy (strategygames Portuguese.scala, shown as \"Spanish\"): \
                 https://github.com/Mind-Sports-Games/strategygames",
            ],
            notes: &[
                "Portuguese moves and draws: men move and capture forward only, flying kings, \
                 most pieces then most kings, a man reaching the far row is crowned and stops.",
                "The board of PDN GameType 24: a1 light, a dark square at each player's near \
                 right; numbered from White's bottom-right, right to left and upwards: \
                 1 = h1, 4 = b1, 5 = g2 ... 32 = a8.",
                "PlayStrategy's \"Spanish\" is its Portuguese variant on the mirror image of \
                 this board (GameType 31, a1 dark): its square numbers are not PDN 24 numbers.",
                "Draws: the FPD set, as for portuguese (PlayStrategy); the \"20 king moves each \
                 without capture\" of Spanish rules pages is not used.",
            ],
            ..of("portuguese")
        },
        Spec {
            id: "sri-lankan",
            provisional: Some(
                "no federation text: the square numbering and the first mover come from \
                 secondary sources and our derivation",
            ),
            name: "Sri Lankan draughts, 12×12",
            board: BoardShape::Grid(Squares::LightA1),
            numbering: Corner::TopLeft,
            game_type: None,
            variant_tags: &["Sri Lanka"],
            sources: &[
                "checkerschest.com, Sri Lanka checkers: \
                 http://www.checkerschest.com/checkers-games/srilanka-checkers.htm",
                "dctl by Rein Halbersma (srilankan: International rules on the 12×12 board, \
                 perft): https://github.com/rhalbersma/dctl",
            ],
            notes: &[
                "Canadian (International) rules on the mirrored 12×12 board: a1 light, the dark \
                 single corner at each player's right; 30 men a side, White (light) first.",
                "Numbered like the other 12×12 board, row by row from the top-left dark \
                 square: 1 = a12 ... 6 = k12, 7 = b11 ... 72 = l1 (derived; no published \
                 numbering).",
                "No PDN GameType of its own: PDN files use 27 with [Variant \"Sri Lankan\"] \
                 (the full tag 27,W,12,12,N2,1 would describe the board, an unofficial \
                 combination).",
                "Draws: as canadian (FMJD).",
            ],
            ..of("canadian")
        },
    ]
}
