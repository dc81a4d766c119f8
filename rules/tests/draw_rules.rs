//! Draw rules of every rule set (FMJD art. 6, FMJD-64 art. 7.2, WCDF, FPD, FID...), game by game.
//!
//! Every game is built here from a hand-drawn geometry, written in algebraic coordinates
//! (a1 = White's bottom-left corner) and converted to each variant's square numbers with the
//! layouts of the PDN 3.0 GameTypes (the conversion is written below, independently of the
//! engine). The expected verdict, reason and ply come from the rule text, never from
//! running the engine: the engine only tells whether the moves are legal (a verdict
//! `Invalid` means the sequence is wrong, not the expectation).
//!
//! Long king-only games: each side's king walks its own closed cycle of squares. With cycles
//! of `a` and `b` moves the pair of squares comes back every lcm(a, b) moves each, i.e. every
//! 2·lcm(a, b) plies, so a position occurs for the third time only 4·lcm(a, b) plies after its
//! first occurrence. The layouts keep captures impossible:
//!
//! * Flying kings (10×10 and 8×8): a piece on an edge square can never be captured (every
//!   diagonal through it ends there, so there is no landing square behind it). One king walks
//!   the long diagonal, the other a closed edge-to-edge orbit whose four diagonals contain none
//!   of the squares the first king stops on, and every other piece stands on an edge square.
//!   No piece ever stops on a square of the other side's move paths.
//! * Short kings (English, Italian): the two kings walk rings that never come diagonally
//!   adjacent to each other or to an enemy man, so no capture is ever possible.
//!
//! Counters are in plies: the federations' "N moves" is N moves by each player, 2N plies.

use arbiter_rules::{judge, variant, Color, DrawCode, Judgement, Reason, Variant, Verdict};

// ---------------------------------------------------------------------------------------------
// Square numbering (PDN 3.0 GameType numbering), from algebraic names.

fn xy(sq: &str) -> (u32, u32) {
    let mut chars = sq.chars();
    let file = chars.next().expect("file") as u32 - 'a' as u32;
    let rank: u32 = chars.as_str().parse().expect("rank");
    (file, rank - 1)
}

/// Row-by-row numbering from the top-left (as seen by White), `per_row` dark squares a row:
/// the standard 8×8 layout, the Italian layout and the 10×10 layout all reduce to
/// `per_row * row_from_top + file / 2 + 1`.
fn top_left(sq: &str, size: u32, dark_a1: bool) -> u32 {
    let (x, y) = xy(sq);
    assert!(x < size && y < size, "{sq} is off the {size}×{size} board");
    assert_eq!(
        (x + y) % 2 == 0,
        dark_a1,
        "{sq} is not a playing square of this board"
    );
    (size / 2) * (size - 1 - y) + x / 2 + 1
}

/// How a variant writes squares and moves.
#[derive(Clone, Copy)]
enum Notation {
    /// International / Frisian / Antidraughts: 1 = b10 ... 50 = i1.
    Ten,
    /// English / anti checkers: 1 = b8 ... 32 = g1.
    Standard,
    /// Italian (a1 light): 1 = a8 ... 32 = h1.
    Italian,
    /// Portuguese (a1 light): Italian 33 − n, 1 = h1 ... 32 = a8.
    Portuguese,
    /// Thai (a1 dark): standard 33 − n, 1 = g1 ... 32 = b8.
    Thai,
    /// Russian / Brazilian / Czech: algebraic, with this capture separator.
    Algebraic(char),
}

impl Notation {
    fn square(self, sq: &str) -> String {
        match self {
            Notation::Ten => top_left(sq, 10, true).to_string(),
            Notation::Standard => top_left(sq, 8, true).to_string(),
            Notation::Italian => top_left(sq, 8, false).to_string(),
            Notation::Portuguese => (33 - top_left(sq, 8, false)).to_string(),
            Notation::Thai => (33 - top_left(sq, 8, true)).to_string(),
            Notation::Algebraic(_) => {
                xy(sq);
                sq.to_string()
            }
        }
    }

    fn capture_separator(self) -> char {
        match self {
            Notation::Algebraic(c) => c,
            Notation::Thai => '-',
            _ => 'x',
        }
    }
}

#[test]
fn numbering_matches_the_tables_of_section_6_2() {
    assert_eq!(Notation::Ten.square("b10"), "1");
    assert_eq!(Notation::Ten.square("a9"), "6");
    assert_eq!(Notation::Ten.square("a1"), "46");
    assert_eq!(Notation::Ten.square("i1"), "50");
    assert_eq!(Notation::Ten.square("j10"), "5");
    assert_eq!(Notation::Standard.square("b8"), "1");
    assert_eq!(Notation::Standard.square("a7"), "5");
    assert_eq!(Notation::Standard.square("a1"), "29");
    assert_eq!(Notation::Standard.square("g1"), "32");
    assert_eq!(Notation::Italian.square("a8"), "1");
    assert_eq!(Notation::Italian.square("b7"), "5");
    assert_eq!(Notation::Italian.square("h1"), "32");
    assert_eq!(Notation::Portuguese.square("h1"), "1");
    assert_eq!(Notation::Portuguese.square("g2"), "5");
    assert_eq!(Notation::Portuguese.square("a8"), "32");
    assert_eq!(Notation::Thai.square("g1"), "1");
    assert_eq!(Notation::Thai.square("h2"), "5");
    assert_eq!(Notation::Thai.square("b8"), "32");
}

// ---------------------------------------------------------------------------------------------
// Game builder.

#[derive(Clone)]
struct Game {
    variant: &'static Variant,
    notation: Notation,
    fen: String,
    /// The side to move next.
    side: Color,
    /// Per colour (White, Black): the king's cycle and the index of the square it stands on.
    cycles: [Vec<&'static str>; 2],
    at: [usize; 2],
    moves: Vec<String>,
}

fn ix(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Game {
    /// `white`/`black`: pieces in algebraic, `K` prefix for kings. Each side's cycling king
    /// starts on the first square of its cycle (which must be one of its pieces).
    fn new(
        id: &str,
        notation: Notation,
        side: Color,
        white: &[&str],
        black: &[&str],
        white_cycle: &[&'static str],
        black_cycle: &[&'static str],
    ) -> Game {
        let list = |pieces: &[&str]| {
            pieces
                .iter()
                .map(|p| match p.strip_prefix('K') {
                    Some(sq) => format!("K{}", notation.square(sq)),
                    None => notation.square(p),
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        let fen = format!(
            "{}:W{}:B{}",
            if side == Color::White { "W" } else { "B" },
            list(white),
            list(black)
        );
        for (cycle, pieces) in [(white_cycle, white), (black_cycle, black)] {
            if let Some(first) = cycle.first() {
                assert!(
                    pieces.contains(&format!("K{first}").as_str()),
                    "the cycle must start on a king: {first}"
                );
            }
        }
        Game {
            variant: variant(id).unwrap_or_else(|| panic!("variant {id}")),
            notation,
            fen,
            side,
            cycles: [white_cycle.to_vec(), black_cycle.to_vec()],
            at: [0, 0],
            moves: Vec::new(),
        }
    }

    fn push(&mut self, text: String) {
        self.moves.push(text);
        self.side = self.side.opponent();
    }

    /// `n` plies in which the side to move moves its cycling king to the next square of its
    /// cycle.
    fn kings(&mut self, n: usize) -> &mut Game {
        for _ in 0..n {
            let s = ix(self.side);
            let cycle = &self.cycles[s];
            assert!(!cycle.is_empty(), "no cycle for {:?}", self.side);
            let from = cycle[self.at[s]];
            let next = (self.at[s] + 1) % cycle.len();
            let to = cycle[next];
            self.at[s] = next;
            let text = format!(
                "{}-{}",
                self.notation.square(from),
                self.notation.square(to)
            );
            self.push(text);
        }
        self
    }

    /// A non-capturing move of the side to move, outside its cycle.
    fn mv(&mut self, from: &str, to: &str) -> &mut Game {
        let text = format!(
            "{}-{}",
            self.notation.square(from),
            self.notation.square(to)
        );
        self.push(text);
        self
    }

    /// A capture by the side to move (start and end squares).
    fn cap(&mut self, from: &str, to: &str) -> &mut Game {
        let text = format!(
            "{}{}{}",
            self.notation.square(from),
            self.notation.capture_separator(),
            self.notation.square(to)
        );
        self.push(text);
        self
    }

    /// The cycling king of `c` now stands on `sq` (after a scripted move): continue from there.
    fn now_at(&mut self, c: Color, sq: &str) -> &mut Game {
        let s = ix(c);
        self.at[s] = self.cycles[s]
            .iter()
            .position(|q| *q == sq)
            .unwrap_or_else(|| panic!("{sq} is not on the cycle of {c:?}"));
        self
    }

    fn plies(&self) -> usize {
        self.moves.len()
    }

    /// The same game, cut after `n` plies.
    fn first(&self, n: usize) -> Game {
        let mut g = self.clone();
        g.moves.truncate(n);
        g
    }

    fn judge(&self) -> Judgement {
        let start = self
            .variant
            .parse_fen(&self.fen)
            .unwrap_or_else(|e| panic!("{}: bad FEN {}: {e}", self.variant.id(), self.fen));
        let j = judge(
            self.variant,
            start,
            &self.moves,
            &arbiter_rules::Budget::unlimited(),
        )
        .expect("generation");
        assert!(
            j.verdict != Verdict::Invalid,
            "{} {}: illegal move {:?}\nmoves: {}",
            self.variant.id(),
            self.fen,
            j.illegal,
            self.moves.join(" ")
        );
        j
    }
}

fn describe(g: &Game, j: &Judgement) -> String {
    format!(
        "{} {} ({} plies): verdict {:?}, reason {:?}, decided at {:?}, claimable {:?}",
        g.variant.id(),
        g.fen,
        g.plies(),
        j.verdict,
        j.reason,
        j.decided_at_ply,
        j.claimable
    )
}

/// The game ends in a draw by `code` after its last ply, which must be ply `ply`.
fn assert_draw(g: &Game, code: DrawCode, ply: usize) {
    assert_eq!(g.plies(), ply, "the test game should have {ply} plies");
    let j = g.judge();
    let msg = describe(g, &j);
    assert_eq!(j.verdict, Verdict::Draw, "{msg}");
    assert_eq!(j.reason, Some(Reason::Draw(code)), "{msg}");
    assert_eq!(j.decided_at_ply, Some(ply), "{msg}");
    assert_eq!(j.moves_after_end, 0, "{msg}");
}

/// No rule ends the game within its moves.
fn assert_undecided(g: &Game) -> Judgement {
    let j = g.judge();
    let msg = describe(g, &j);
    assert_eq!(j.verdict, Verdict::Undecided, "{msg}");
    assert_eq!(j.reason, None, "{msg}");
    assert_eq!(j.decided_at_ply, None, "{msg}");
    j
}

/// Drawn by `code` exactly at the last ply of `g`, undecided one ply earlier; the judge's
/// counters say so too.
fn assert_draw_exactly(g: &Game, code: DrawCode, ply: usize) {
    assert_draw(g, code, ply);
    let before = assert_undecided(&g.first(ply - 1));
    assert_counters_reach_the_limit(g, &before, code);
}

/// The counters the judge reports ([`Judgement::draw_counts`]): after the drawing ply the rule
/// `code` stands at its limit (one of them, where a variant has two rules of that code), and a
/// ply earlier it stood short of it; a counted rule (a limit in plies) one ply short.
fn assert_counters_reach_the_limit(g: &Game, before: &Judgement, code: DrawCode) {
    let after = g.judge();
    let rules = &g.variant.rules().draws;
    assert_eq!(after.draw_counts.len(), rules.len());
    assert_eq!(before.draw_counts.len(), rules.len());
    let msg = || format!("{}: {:?}", describe(g, &after), after.draw_counts);
    let mut reached = 0;
    for (i, (c, rule)) in after.draw_counts.iter().zip(rules).enumerate() {
        assert_eq!(c.code, rule.code, "{}", msg());
        assert_eq!(c.limit, rule.limit().0, "{}", msg());
        if c.code != code || !c.applies || c.count < c.limit as u32 {
            continue;
        }
        reached += 1;
        let b = &before.draw_counts[i];
        assert!(b.count < b.limit as u32, "{}: before {b:?}", msg());
        if rule.limit().1 == "plies" {
            assert_eq!(c.count, c.limit as u32, "{}", msg());
            assert_eq!(b.count + 1, c.count, "{}: before {b:?}", msg());
        }
    }
    assert!(reached >= 1, "{code:?} at its limit: {}", msg());
}

/// `winner` wins by leaving the opponent without a legal move after the last ply, `ply`.
fn assert_win(g: &Game, winner: Verdict, ply: usize) {
    assert_eq!(g.plies(), ply);
    let j = g.judge();
    let msg = describe(g, &j);
    assert_eq!(j.verdict, winner, "{msg}");
    assert_eq!(j.reason, Some(Reason::NoLegalMoves), "{msg}");
    assert_eq!(j.decided_at_ply, Some(ply), "{msg}");
}

use Color::{Black, White};

// ---------------------------------------------------------------------------------------------
// 10×10 layout (International, Antidraughts).
//
//   White king, 5-cycle on the long diagonal:  a1(46) c3(37) e5(28) g7(19) j10(5)
//   Black king, 4-cycle on the edge orbit:      a3(36) h10(4) j8(15) c1(47)
//     its moves run along the diagonals x+y=2 (a3-b2-c1), x-y=-2 (a3...h10), x+y=16
//     (h10-i9-j8) and x-y=2 (j8...c1): none of them holds a square White's king stops on,
//     and the long diagonal holds none of Black's squares.
//   Men (edge squares, never on a path): White e1(48) g1(49) i1(50), Black b10(1) d10(2) f10(3).
//   lcm(5, 4) = 20: a position occurs for the third time 80 plies after its first occurrence.

const W_DIAG10: &[&str] = &["a1", "c3", "e5", "g7", "j10"];
const B_EDGE10: &[&str] = &["a3", "h10", "j8", "c1"];
const W_MEN10: &[&str] = &["e1", "g1", "i1"];
const B_MEN10: &[&str] = &["b10", "d10", "f10"];

fn with(pieces: &[&'static str], more: &[&'static str]) -> Vec<&'static str> {
    pieces.iter().chain(more).copied().collect()
}

fn intl(id: &str, white: &[&'static str], black: &[&'static str]) -> Game {
    Game::new(id, Notation::Ten, White, white, black, W_DIAG10, B_EDGE10)
}

/// K + 3 men against K + 3 men: no endgame rule applies.
fn intl_full(id: &str) -> Game {
    intl(id, &with(&["Ka1"], W_MEN10), &with(&["Ka3"], B_MEN10))
}

#[test]
fn international_repetition_on_the_third_occurrence() {
    // a1-c3 a3-c1 c3-a1 c1-a3: the start position again after 4 plies (2nd) and 8 (3rd).
    let mut g = Game::new(
        "international",
        Notation::Ten,
        White,
        &with(&["Ka1"], W_MEN10),
        &with(&["Ka3"], B_MEN10),
        &["a1", "c3"],
        &["a3", "c1"],
    );
    g.kings(8);
    assert_draw_exactly(&g, DrawCode::Repetition, 8);
}

#[test]
fn international_kings_25_after_50_king_only_plies() {
    let mut g = intl_full("international");
    g.kings(50);
    assert_draw_exactly(&g, DrawCode::Kings25, 50);
}

#[test]
fn international_kings_25_reset_by_a_man_move() {
    // 30 king plies, White's man g1-h2 (ply 31), then 50 king plies: without the man move
    // the game would have been drawn at ply 50; with it the count restarts at ply 31.
    let mut g = intl_full("international");
    g.kings(30).mv("g1", "h2").kings(50);
    assert_draw_exactly(&g, DrawCode::Kings25, 81);
}

#[test]
fn international_kings_25_reset_by_a_king_capture() {
    // Black has a second king parked on a7 (edge, on no line of White's squares). After 31
    // king plies White's king stands on c3; Black plays a7-d4 (ply 32, a king move) onto the
    // long diagonal and White's king must capture it, c3xe5 (ply 33), landing on its next
    // cycle square. 32 king plies + the capture + 50 king plies: without the capture the
    // game would have been drawn at ply 50.
    let mut g = intl(
        "international",
        &with(&["Ka1"], W_MEN10),
        &with(&["Ka3", "Ka7"], B_MEN10),
    );
    g.kings(31)
        .mv("a7", "d4")
        .cap("c3", "e5")
        .now_at(White, "e5")
        .kings(50);
    assert_draw_exactly(&g, DrawCode::Kings25, 83);
}

#[test]
fn international_endgame_16_three_kings_against_one() {
    // Kings a1 (cycling), e1 and g1 (parked on the edge) against a lone king: 16 moves each
    // from the start position (which has the material), 32 plies.
    let mut g = intl("international", &["Ka1", "Ke1", "Kg1"], &["Ka3"]);
    g.kings(32);
    assert_draw_exactly(&g, DrawCode::Endgame16, 32);
}

#[test]
fn international_endgame_16_counted_from_the_capture_that_creates_it() {
    // 3 kings against 2: no endgame rule. Black's second king sacrifices itself (a7-d4, ply
    // 32) and is captured at ply 33; the first position with 3 kings against 1 is the one
    // after ply 33, so the draw comes 32 plies later, at ply 65.
    let mut g = intl("international", &["Ka1", "Ke1", "Kg1"], &["Ka3", "Ka7"]);
    g.kings(31)
        .mv("a7", "d4")
        .cap("c3", "e5")
        .now_at(White, "e5")
        .kings(32);
    assert_draw_exactly(&g, DrawCode::Endgame16, 65);
}

#[test]
fn international_endgame_5_two_kings_against_one() {
    let mut g = intl("international", &["Ka1", "Kg1"], &["Ka3"]);
    g.kings(10);
    assert_draw_exactly(&g, DrawCode::Endgame5, 10);
}

#[test]
fn international_endgame_5_starts_afresh_after_a_capture_ends_the_16_move_count() {
    // 3 kings against 1 (ENDGAME_16 counting from ply 0). After 8 plies White's cycling king
    // is on j10 and Black's on a3; White sacrifices the e1 king, e1-b4 (ply 9, path d2-c3
    // free), and Black must take it, a3xh10 (ply 10; no landing square allows a second
    // capture). Two kings against one from ply 10: ENDGAME_5 draws at ply 20 (the 16-move
    // count would have drawn at 32, and the "remaining budget" reading would not restart).
    let mut g = intl("international", &["Ka1", "Ke1", "Kg1"], &["Ka3"]);
    g.kings(8)
        .mv("e1", "b4")
        .cap("a3", "h10")
        .now_at(Black, "h10")
        .kings(10);
    assert_draw_exactly(&g, DrawCode::Endgame5, 20);
}

#[test]
fn international_capturing_the_last_piece_wins_on_the_drawing_ply() {
    // Black to move first: two kings against a lone king, ENDGAME_5 would draw after ply 10.
    // Black's king, on a3 after its 4th move (ply 7), steps to b2 (ply 9) and White's king on
    // j10 takes it on ply 10 (j10xa1): Black has no piece left, White wins (judged first).
    let mut g = Game::new(
        "international",
        Notation::Ten,
        Black,
        &["Ka1", "Kg1"],
        &["Ka3"],
        W_DIAG10,
        B_EDGE10,
    );
    g.kings(8).mv("a3", "b2").cap("j10", "a1");
    assert_win(&g, Verdict::WhiteWins, 10);
    assert_undecided(&g.first(9));
}

// ---------------------------------------------------------------------------------------------
// 8×8 flying-king layout, a1 dark (Russian, Brazilian, Czech, Thai).
//
//   White king, 5-cycle on the main road (long diagonal a1-h8):  a1 c3 d4 e5 h8
//   Black king, 4-cycle on the edge orbit:                      a3 c1 h6 f8
//     Black's lines: x+y=2 (a3-b2-c1), x-y=2 (c1-d2-e3-f4-g5-h6), x+y=12 (h6-g7-f8),
//     x-y=-2 (f8-e7-d6-c5-b4-a3). White's stopping squares have x-y=0 and
//     x+y in {0,4,6,8,14}: no line is shared, so neither king can ever capture the other.
//   Men (edge squares): White e1 g1, Black b8 d8. Safe man moves used below: g1-h2, h2-g3,
//     g3-h4, e1-f2 (White; h2, g3, h4, f2 are on none of Black's lines), b8-a7 (Black, edge)
//     and d8-c7 (Black, while b8 is occupied: c7 lies on e5's line e5-d6-c7-b8).
//   A second black king parked on h4 (edge; its lines x+y=10 and x-y=4 hold none of White's
//     squares) can sacrifice itself with h4-f6 when White's king is on d4: d4xh8.
//   lcm(5, 4) = 20: a third occurrence needs 80 plies.

const W_ROAD8: &[&str] = &["a1", "c3", "d4", "e5", "h8"];
const B_EDGE8: &[&str] = &["a3", "c1", "h6", "f8"];

fn board8(id: &str, notation: Notation, first: Color, white: &[&str], black: &[&str]) -> Game {
    Game::new(id, notation, first, white, black, W_ROAD8, B_EDGE8)
}

fn russian(white: &[&str], black: &[&str]) -> Game {
    board8("russian", Notation::Algebraic(':'), White, white, black)
}

#[test]
fn russian_repetition_on_the_third_occurrence() {
    let mut g = Game::new(
        "russian",
        Notation::Algebraic(':'),
        White,
        &["Ka1", "e1", "g1"],
        &["Ka3", "b8", "d8"],
        &["a1", "c3"],
        &["a3", "c1"],
    );
    g.kings(8);
    assert_draw_exactly(&g, DrawCode::Repetition, 8);
}

#[test]
fn russian_kings_15_after_30_king_only_plies() {
    // K+2 men each: 6 pieces, so BALANCE_30_60 would need 120 plies.
    let mut g = russian(&["Ka1", "e1", "g1"], &["Ka3", "b8", "d8"]);
    g.kings(30);
    assert_draw_exactly(&g, DrawCode::Kings15, 30);
}

#[test]
fn russian_kings_15_reset_by_a_man_move() {
    let mut g = russian(&["Ka1", "e1", "g1"], &["Ka3", "b8", "d8"]);
    g.kings(20).mv("g1", "h2").kings(30);
    assert_draw_exactly(&g, DrawCode::Kings15, 51);
}

#[test]
fn russian_kings_15_reset_by_a_king_capture() {
    // After 13 plies White's king is on d4 (its 7th move); Black's parked king plays h4-f6
    // (ply 14) and White's king takes it, d4:h8 (ply 15). Without the capture: draw at 30.
    let mut g = russian(&["Ka1", "e1", "g1"], &["Ka3", "Kh4", "b8", "d8"]);
    g.kings(13)
        .mv("h4", "f6")
        .cap("d4", "h8")
        .now_at(White, "h8")
        .kings(30);
    assert_draw_exactly(&g, DrawCode::Kings15, 45);
}

#[test]
fn russian_three_kings_15() {
    // Three kings (a1 cycling, e1 and g1 parked on the edge) against a lone king off the
    // main road: the strong side's 15th move, 30 plies. With no men on the board KINGS_15
    // completes on the same ply; the engine names the rules in the order of FMJD-64 art. 7.2, and
    // THREE_KINGS_15 comes first.
    let mut g = russian(&["Ka1", "Ke1", "Kg1"], &["Ka3"]);
    g.kings(30);
    assert_draw_exactly(&g, DrawCode::ThreeKings15, 30);
}

#[test]
fn russian_three_kings_15_counted_from_the_capture_that_creates_it() {
    // 3 kings against 2 until ply 15 (d4:h8 takes the sacrificed h4 king); 3 against 1 from
    // the position after ply 15: draw at 15 + 30 = 45.
    let mut g = russian(&["Ka1", "Ke1", "Kg1"], &["Ka3", "Kh4"]);
    g.kings(13)
        .mv("h4", "f6")
        .cap("d4", "h8")
        .now_at(White, "h8")
        .kings(30);
    assert_draw_exactly(&g, DrawCode::ThreeKings15, 45);
}

#[test]
fn russian_balance_4_to_5_pieces_after_60_plies() {
    // K+man each (4 pieces), both sides have kings. Man moves (g1-h2 at ply 21, b8-a7 at
    // ply 42) keep KINGS_15 away and do not reset the balance count: draw at ply 60.
    let mut g = russian(&["Ka1", "g1"], &["Ka3", "b8"]);
    g.kings(20)
        .mv("g1", "h2")
        .kings(20)
        .mv("b8", "a7")
        .kings(18);
    assert_draw_exactly(&g, DrawCode::Balance3060, 60);
}

#[test]
fn russian_balance_6_to_7_pieces_after_120_plies() {
    // K+2 men each (6 pieces): 60 moves each, 120 plies. White's man moves at plies 25, 51,
    // 77 and 103 keep KINGS_15 (30 plies) and repetition away.
    let mut g = russian(&["Ka1", "e1", "g1"], &["Ka3", "b8", "d8"]);
    g.kings(24)
        .mv("g1", "h2")
        .kings(25)
        .mv("h2", "g3")
        .kings(25)
        .mv("g3", "h4")
        .kings(25)
        .mv("e1", "f2")
        .kings(17);
    assert_draw_exactly(&g, DrawCode::Balance3060, 120);
}

#[test]
fn russian_balance_reset_by_a_promotion() {
    // 5 pieces: White K + men a7, g1; Black K + man d8. White's a7-b8 crowns at ply 43 (b8
    // then stays put: edge square). Man moves g1-h2, h2-g3, g3-h4 keep KINGS_15 away.
    // Without the promotion the balance rule would have drawn at ply 60; with it the count
    // restarts and the draw comes at 43 + 60 = 103.
    let mut g = russian(&["Ka1", "a7", "g1"], &["Ka3", "d8"]);
    g.kings(20)
        .mv("g1", "h2")
        .kings(21)
        .mv("a7", "b8")
        .kings(21)
        .mv("h2", "g3")
        .kings(21)
        .mv("g3", "h4")
        .kings(16);
    assert_draw_exactly(&g, DrawCode::Balance3060, 103);
}

#[test]
fn russian_main_road_5() {
    // Two kings and a man against a lone king on the main road. The lone king shuttles
    // a1-h8 (corners: never capturable, and its only line is the empty main road); White's
    // king walks the edge orbit a3 c1 h6 f8 (off the main road), the king a5 and the man e1
    // stay put. The lone king stands on the main road from the start: 5 moves each, 10 plies.
    let mut g = Game::new(
        "russian",
        Notation::Algebraic(':'),
        White,
        &["Ka3", "Ka5", "e1"],
        &["Ka1"],
        &["a3", "c1", "h6", "f8"],
        &["a1", "h8"],
    );
    g.kings(10);
    assert_draw_exactly(&g, DrawCode::MainRoad5, 10);
}

#[test]
fn russian_two_vs_one_5() {
    // King and man against a lone king (off the main road): 10 plies.
    let mut g = russian(&["Ka1", "g1"], &["Ka3"]);
    g.kings(10);
    assert_draw_exactly(&g, DrawCode::TwoVsOne5, 10);
}

#[test]
fn russian_capturing_the_lone_king_on_the_drawing_ply_wins() {
    // Black first. Black's king is on a3 after its 4th move (ply 7), steps to b2 on ply 9,
    // and White's king (on h8 after its 4th move) takes it on ply 10, h8:a1: Black has no
    // piece left. The 10th ply would also have completed TWO_VS_ONE_5; the win comes first.
    let mut g = board8(
        "russian",
        Notation::Algebraic(':'),
        Black,
        &["Ka1", "g1"],
        &["Ka3"],
    );
    g.kings(8).mv("a3", "b2").cap("h8", "a1");
    assert_win(&g, Verdict::WhiteWins, 10);
    assert_undecided(&g.first(9));
}

#[test]
fn brazilian_uses_the_fmjd_64_rules() {
    let mut g = board8(
        "brazilian",
        Notation::Algebraic('x'),
        White,
        &["Ka1", "e1", "g1"],
        &["Ka3", "b8", "d8"],
    );
    g.kings(30);
    assert_draw_exactly(&g, DrawCode::Kings15, 30);
}

// Czech: NO_PROGRESS_15 (30 plies), repetition on claim.

fn czech(white: &[&str], black: &[&str]) -> Game {
    board8("czech", Notation::Algebraic('x'), White, white, black)
}

#[test]
fn czech_no_progress_15_after_30_plies() {
    let mut g = czech(&["Ka1", "e1", "g1"], &["Ka3", "b8", "d8"]);
    g.kings(30);
    assert_draw_exactly(&g, DrawCode::NoProgress15, 30);
}

#[test]
fn czech_no_progress_15_reset_by_a_man_move() {
    let mut g = czech(&["Ka1", "e1", "g1"], &["Ka3", "b8", "d8"]);
    g.kings(20).mv("g1", "h2").kings(30);
    assert_draw_exactly(&g, DrawCode::NoProgress15, 51);
}

#[test]
fn czech_no_progress_15_reset_by_a_king_capture() {
    let mut g = czech(&["Ka1", "e1", "g1"], &["Ka3", "Kh4", "b8", "d8"]);
    g.kings(13)
        .mv("h4", "f6")
        .cap("d4", "h8")
        .now_at(White, "h8")
        .kings(30);
    assert_draw_exactly(&g, DrawCode::NoProgress15, 45);
}

/// Threefold repetition on claim: the game goes on and `claimable` names the third
/// occurrence (the shuttle a1-c3 / a3-c1 brings the start position back at plies 4 and 8).
fn assert_claimable_repetition(mut g: Game) {
    g.kings(7);
    let j = assert_undecided(&g);
    assert!(j.claimable.is_empty(), "{}", describe(&g, &j));
    g.kings(1);
    let j = assert_undecided(&g);
    assert_eq!(
        j.claimable
            .iter()
            .map(|c| (c.code, c.ply))
            .collect::<Vec<_>>(),
        vec![(DrawCode::Repetition, 8)],
        "{}",
        describe(&g, &j)
    );
    // The game goes on: the 4th and 5th occurrences do not end it either.
    g.kings(8);
    let j = assert_undecided(&g);
    assert_eq!(j.moves.len(), 16);
    assert_eq!(
        j.claimable
            .iter()
            .map(|c| (c.code, c.ply))
            .collect::<Vec<_>>(),
        vec![(DrawCode::Repetition, 8)]
    );
}

#[test]
fn czech_repetition_is_claimable_not_automatic() {
    assert_claimable_repetition(Game::new(
        "czech",
        Notation::Algebraic('x'),
        White,
        &["Ka1", "e1", "g1"],
        &["Ka3", "b8", "d8"],
        &["a1", "c3"],
        &["a3", "c1"],
    ));
}

#[test]
fn czech_blocking_the_last_piece_on_the_30th_ply_wins() {
    // Black (lone king) moves first; White has a king and men c3, d4 (Czech men capture
    // forward only, so c3 never takes a king on b2; d4 behind c3 stops any capture of c3
    // along the main road).
    //   Black's king: 3-cycle a3 -> c1 (through b2) -> b2 -> a3, every line of which is
    //     x+y=2, x-y=+-2 or the main road below c3.
    //   White's king: 4-cycle g7 f6 h8 e5 on the main road above d4, out of Black's reach.
    //   lcm(3, 4) = 12: no position occurs three times before ply 48.
    // Plies 1-25: cycles (Black on c1, White on g7). 26: g7-f8. 27: c1-b2. 28: f8-a3 (path
    // e7-d6-c5-b4). 29: b2-a1. 30: a3-b2 -- Black's king on a1 is shut in (b2 taken, c3
    // behind it occupied): Black has no legal move and loses, although the 30th ply also
    // completes NO_PROGRESS_15 (no legal move is judged first).
    let mut g = Game::new(
        "czech",
        Notation::Algebraic('x'),
        Black,
        &["Kg7", "c3", "d4"],
        &["Ka3"],
        &["g7", "f6", "h8", "e5"],
        &["a3", "c1", "b2"],
    );
    g.kings(25)
        .mv("g7", "f8")
        .kings(1)
        .mv("f8", "a3")
        .mv("b2", "a1");
    let mut blocked = g.clone();
    blocked.mv("a3", "b2");
    assert_win(&blocked, Verdict::WhiteWins, 30);
    // The same game with a 30th ply that leaves b2 free: drawn by NO_PROGRESS_15.
    let mut free = g.clone();
    free.mv("a3", "c1");
    assert_draw_exactly(&free, DrawCode::NoProgress15, 30);
}

// Portuguese (a1 light): the same layout mirrored left-right (file x -> 7 - x). The main road
// becomes the rio h1-a8 (squares 1-32).
//   White king, 5-cycle on the rio:  h1 f3 e4 d5 a8
//   Black king, edge orbit:          h3 f1 a6 c8
//   Men: White d1 b1, Black g8 e8; parked black king a4 (sacrifice a4-c6, taken by e4xa8).

const W_RIO: &[&str] = &["h1", "f3", "e4", "d5", "a8"];
const B_EDGE_PT: &[&str] = &["h3", "f1", "a6", "c8"];

fn portuguese(white: &[&str], black: &[&str]) -> Game {
    Game::new(
        "portuguese",
        Notation::Portuguese,
        White,
        white,
        black,
        W_RIO,
        B_EDGE_PT,
    )
}

#[test]
fn portuguese_no_progress_20_after_40_plies() {
    let mut g = portuguese(&["Kh1", "d1", "b1"], &["Kh3", "g8", "e8"]);
    g.kings(40);
    assert_draw_exactly(&g, DrawCode::NoProgress20, 40);
}

#[test]
fn portuguese_no_progress_20_is_not_reset_by_a_man_move() {
    // A man move at ply 21 (b1-a2) changes nothing: still drawn after ply 40.
    let mut g = portuguese(&["Kh1", "d1", "b1"], &["Kh3", "g8", "e8"]);
    g.kings(20).mv("b1", "a2").kings(19);
    assert_draw_exactly(&g, DrawCode::NoProgress20, 40);
}

#[test]
fn portuguese_no_progress_20_reset_by_a_capture() {
    let mut g = portuguese(&["Kh1", "d1", "b1"], &["Kh3", "Ka4", "g8", "e8"]);
    g.kings(13)
        .mv("a4", "c6")
        .cap("e4", "a8")
        .now_at(White, "a8")
        .kings(40);
    assert_draw_exactly(&g, DrawCode::NoProgress20, 55);
}

#[test]
fn portuguese_no_progress_20_reset_by_a_promotion() {
    // White's man h7 crowns on g8 at ply 21 (g8 is an edge square and stays put). Without
    // the promotion the game would have been drawn at ply 40.
    let mut g = portuguese(&["Kh1", "h7", "b1"], &["Kh3", "e8"]);
    g.kings(20).mv("h7", "g8").kings(40);
    assert_draw_exactly(&g, DrawCode::NoProgress20, 61);
}

#[test]
fn portuguese_three_kings_on_the_rio_12() {
    // Three kings (h1 cycling on the rio, d1 and b1 parked) against one: 24 plies.
    let mut g = portuguese(&["Kh1", "Kd1", "Kb1"], &["Kh3"]);
    g.kings(24);
    assert_draw_exactly(&g, DrawCode::ThreeKingsRio12, 24);
}

#[test]
fn portuguese_repetition_is_claimable_not_automatic() {
    assert_claimable_repetition(Game::new(
        "portuguese",
        Notation::Portuguese,
        White,
        &["Kh1", "d1", "b1"],
        &["Kh3", "g8", "e8"],
        &["h1", "f3"],
        &["h3", "f1"],
    ));
}

#[test]
fn thai_has_no_no_progress_rule_only_repetition() {
    // Thai numbering, Black first, men on the edge. 79 king-only plies: no draw (any
    // no-progress rule of the other rule sets would have fired); the start position occurs
    // for the third time after ply 80.
    let mut g = board8(
        "thai",
        Notation::Thai,
        Black,
        &["Ka1", "e1", "g1"],
        &["Ka3", "b8", "d8"],
    );
    g.kings(80);
    assert_draw_exactly(&g, DrawCode::Repetition, 80);
}

#[test]
fn antidraughts_has_no_no_progress_rule_only_repetition() {
    // KINGS_25 would have drawn at ply 50 in International draughts.
    let mut g = intl_full("antidraughts");
    g.kings(80);
    assert_draw_exactly(&g, DrawCode::Repetition, 80);
}

// ---------------------------------------------------------------------------------------------
// Short kings (English, anti checkers; Italian mirrored).
//
// English board (a1 dark, standard numbering), kings move one square:
//   White king, 6-ring: a3 b2 c1 d2 c3 b4          (files a-d, ranks 1-4)
//   Black king, 8-ring: e7 f8 g7 h6 g5 f4 e5 d6    (around f6)
//   No square of one ring is diagonally adjacent to a square of the other (closest pairs:
//   d2/f4, c3/e5, b4/d6 are two files apart), so a short king can never capture.
//   Men: White g1 (neighbours f2, h2), Black a7 (neighbours b8, b6): far from both rings.
//   Safe man move: a7-b6 (b6 touches neither ring). Parked white king h2 (for a capture).
//   lcm(6, 8) = 24: a third occurrence needs 96 plies.

const W_RING: &[&str] = &["a3", "b2", "c1", "d2", "c3", "b4"];
const B_RING: &[&str] = &["e7", "f8", "g7", "h6", "g5", "f4", "e5", "d6"];

fn english(white: &[&str], black: &[&str]) -> Game {
    Game::new(
        "english",
        Notation::Standard,
        Black,
        white,
        black,
        W_RING,
        B_RING,
    )
}

#[test]
fn english_repetition_is_claimable_not_automatic() {
    assert_claimable_repetition(Game::new(
        "english",
        Notation::Standard,
        Black,
        &["Ka3", "g1"],
        &["Ke7", "a7"],
        &["a3", "b2"],
        &["e7", "f8"],
    ));
}

#[test]
fn english_no_progress_40_after_80_plies() {
    let mut g = english(&["Ka3", "g1"], &["Ke7", "a7"]);
    g.kings(80);
    assert_draw_exactly(&g, DrawCode::NoProgress40, 80);
}

#[test]
fn english_no_progress_40_reset_by_a_man_move() {
    // Black (first to move) plays a7-b6 at ply 41; 80 more king plies: draw at 121.
    let mut g = english(&["Ka3", "g1"], &["Ke7", "a7"]);
    g.kings(40).mv("a7", "b6").kings(80);
    assert_draw_exactly(&g, DrawCode::NoProgress40, 121);
}

#[test]
fn english_no_progress_40_reset_by_a_king_capture() {
    // After 25 plies Black's king is on f4 (its 13th move). White's parked king plays h2-g3
    // (ply 26) and Black's king must take it, f4xh2 (ply 27). Black's king walks back h2-g3
    // (ply 29), g3-f4 (ply 31) and resumes its ring. Draw at 27 + 80 = 107; without the
    // capture the game would have been drawn at ply 80.
    let mut g = english(&["Ka3", "Kh2", "g1"], &["Ke7", "a7"]);
    g.kings(25)
        .mv("h2", "g3")
        .cap("f4", "h2")
        .kings(1)
        .mv("h2", "g3")
        .kings(1)
        .mv("g3", "f4")
        .now_at(Black, "f4")
        .kings(76);
    assert_draw_exactly(&g, DrawCode::NoProgress40, 107);
}

#[test]
fn anti_checkers_has_no_no_progress_rule_only_repetition() {
    // English moves, White first: 95 king-only plies are not drawn (NO_PROGRESS_40 would
    // have drawn at 80); the start position occurs for the third time after ply 96.
    let mut g = Game::new(
        "anti-checkers",
        Notation::Standard,
        White,
        &["Ka3", "g1"],
        &["Ke7", "a7"],
        W_RING,
        B_RING,
    );
    g.kings(96);
    assert_draw_exactly(&g, DrawCode::Repetition, 96);
}

// Italian (a1 light, Italian numbering): the English layout mirrored left-right.
//   White king, 6-ring: h3 g2 f1 e2 f3 g4;  Black king, 8-ring: d7 c8 b7 a6 b5 c4 d5 e6.
//   Men: White b1, Black h7; safe man move b1-a2; parked white king a2 for a capture.

const W_RING_IT: &[&str] = &["h3", "g2", "f1", "e2", "f3", "g4"];
const B_RING_IT: &[&str] = &["d7", "c8", "b7", "a6", "b5", "c4", "d5", "e6"];

fn italian(white: &[&str], black: &[&str]) -> Game {
    Game::new(
        "italian",
        Notation::Italian,
        White,
        white,
        black,
        W_RING_IT,
        B_RING_IT,
    )
}

#[test]
fn italian_repetition_on_the_fourth_occurrence_not_the_third() {
    // h3-g2 d7-c8 g2-h3 c8-d7: the start position again after plies 4, 8 and 12.
    let mut g = Game::new(
        "italian",
        Notation::Italian,
        White,
        &["Kh3", "b1"],
        &["Kd7", "h7"],
        &["h3", "g2"],
        &["d7", "c8"],
    );
    g.kings(12);
    // Third occurrence (ply 8): not a draw, and not merely claimable either.
    let j = assert_undecided(&g.first(8));
    assert!(j.claimable.is_empty(), "{:?}", j.claimable);
    assert_draw_exactly(&g, DrawCode::Repetition, 12);
}

#[test]
fn italian_no_progress_40_after_80_plies() {
    let mut g = italian(&["Kh3", "b1"], &["Kd7", "h7"]);
    g.kings(80);
    assert_draw_exactly(&g, DrawCode::NoProgress40, 80);
}

#[test]
fn italian_no_progress_40_reset_by_a_man_move() {
    let mut g = italian(&["Kh3", "b1"], &["Kd7", "h7"]);
    g.kings(40).mv("b1", "a2").kings(80);
    assert_draw_exactly(&g, DrawCode::NoProgress40, 121);
}

#[test]
fn italian_no_progress_40_reset_by_a_king_capture() {
    // Black's king is on c4 after ply 26; White's parked king plays a2-b3 (ply 27), Black
    // takes it, c4xa2 (ply 28), and walks back a2-b3, b3-c4. Draw at 28 + 80 = 108.
    let mut g = italian(&["Kh3", "Ka2", "b1"], &["Kd7", "h7"]);
    g.kings(26)
        .mv("a2", "b3")
        .cap("c4", "a2")
        .kings(1)
        .mv("a2", "b3")
        .kings(1)
        .mv("b3", "c4")
        .now_at(Black, "c4")
        .kings(76);
    assert_draw_exactly(&g, DrawCode::NoProgress40, 108);
}

// Frisian: kings also capture orthogonally, so the layout keeps the kings on different
// ranks, files and diagonals (edge squares only share diagonals, never a capture):
//   White king, 3-cycle a3 -> c1 (through b2) -> b2 -> a3 (ranks 1-3, files a-c);
//   Black king, 2-cycle j8 <-> h10 (through i9); White's second king parked on i1.
//   lcm(3, 2) = 6: a third occurrence needs 24 plies.

#[test]
fn frisian_two_kings_against_one_7_moves() {
    let mut g = Game::new(
        "frisian",
        Notation::Ten,
        White,
        &["Ka3", "Ki1"],
        &["Kj8"],
        &["a3", "c1", "b2"],
        &["j8", "h10"],
    );
    g.kings(14);
    assert_draw_exactly(&g, DrawCode::Frisian2v1, 14);
}

#[test]
fn frisian_one_king_against_one_2_moves() {
    let mut g = Game::new(
        "frisian",
        Notation::Ten,
        White,
        &["Ka3"],
        &["Kj8"],
        &["a3", "c1", "b2"],
        &["j8", "h10"],
    );
    g.kings(4);
    assert_draw_exactly(&g, DrawCode::Frisian1v1, 4);
}

// ---------------------------------------------------------------------------------------------
// Endgame counts that a change inside the configuration must not restart, and one that must.

#[test]
fn international_endgame_16_not_restarted_by_a_promotion_inside_the_configuration() {
    // King and two men (a9 on the edge, g1) against a lone king. The a9 man crowns on b10
    // (both edge squares) at ply 21: 1K+2M becomes 2K+1M, still a 6.3 configuration, so the
    // 16-move count goes on from the start: draw at ply 32 (a restart would give 53).
    let mut g = intl("international", &["Ka1", "a9", "g1"], &["Ka3"]);
    g.kings(20).mv("a9", "b10").kings(11);
    assert_draw_exactly(&g, DrawCode::Endgame16, 32);
}

#[test]
fn russian_two_vs_one_5_not_restarted_by_a_promotion_inside_the_configuration() {
    // King and man (a7) against a lone king; a7-b8 crowns at ply 5: king+man becomes two
    // kings, still 7.2.8 material: draw at ply 10.
    let mut g = russian(&["Ka1", "a7"], &["Ka3"]);
    g.kings(4).mv("a7", "b8").kings(5);
    assert_draw_exactly(&g, DrawCode::TwoVsOne5, 10);
}

#[test]
fn russian_three_kings_15_with_four_kings() {
    // "Three kings (or more)": four kings (a1 cycling; e1, g1, h2 parked on edge squares that
    // lie on none of Black's lines) against a lone king: still 30 plies.
    let mut g = russian(&["Ka1", "Ke1", "Kg1", "Kh2"], &["Ka3"]);
    g.kings(30);
    assert_draw_exactly(&g, DrawCode::ThreeKings15, 30);
}

#[test]
fn portuguese_three_kings_rio_count_restarts_when_the_rio_is_left() {
    // White's cycling king (the only strong king on the rio) reaches d5 at ply 5, leaves the
    // rio d5-g8 at ply 7 (g8: edge square, on none of Black's lines) and comes back g8-d5 at
    // ply 9. The rio is held again from the position after ply 9: draw at 9 + 24 = 33
    // (without the excursion: 24).
    let mut g = portuguese(&["Kh1", "Kd1", "Kb1"], &["Kh3"]);
    g.kings(6)
        .mv("d5", "g8")
        .kings(1)
        .mv("g8", "d5")
        .now_at(White, "d5")
        .kings(24);
    assert_draw_exactly(&g, DrawCode::ThreeKingsRio12, 33);
}

#[test]
fn russian_main_road_5_needs_the_lone_king_alone_on_the_main_road() {
    // FMJD-64 7.2.7 as lidraughts counts it: MAIN_ROAD_5 runs while the lone king is the only
    // piece on the main road (lidraughts: `board.piecesOnLongDiagonal == 1`). Here White's
    // king h8 and man g7 also stand on the main road, so the rule does not apply.
    //   Black's lone king shuttles a1 <-> c3 (through b2); from either square it sees g7 with
    //     h8 behind it (no capture), and its other line (x+y=4: a5-b4-d2-e1) stays empty.
    //   White's king walks the edge orbit a7 g1 h2 b8 (lines x+y in {6,8}, x-y = +-6: none of
    //     Black's squares; its paths cross the main road on d4 and e5, always empty).
    //   The white man g7 (men capture backwards too) has no black neighbour ever.
    //   2-cycle against 4-cycle: the start position occurs for the third time at ply 16.
    // 14 plies: no rule applies (KINGS_15 needs 30, the 4-piece balance rule 60).
    let mut g = Game::new(
        "russian",
        Notation::Algebraic(':'),
        White,
        &["Ka7", "Kh8", "g7"],
        &["Ka1"],
        &["a7", "g1", "h2", "b8"],
        &["a1", "c3"],
    );
    g.kings(14);
    assert_undecided(&g);
}

#[test]
fn international_repetition_needs_the_same_side_to_move() {
    // White's king walks a 3-cycle a1 -> c3 -> e5 -> a1 on the long diagonal, Black's a
    // 2-cycle a3 <-> h10 (edge to edge along x-y=-2): the start placement comes back with
    // Black to move after plies 5 and 17 and with White to move after plies 12 and 24. Only
    // the latter count (the same side to move): third occurrence at ply 24, not 12.
    let mut g = Game::new(
        "international",
        Notation::Ten,
        White,
        &with(&["Ka1"], W_MEN10),
        &with(&["Ka3"], B_MEN10),
        &["a1", "c3", "e5"],
        &["a3", "h10"],
    );
    g.kings(24);
    assert_draw_exactly(&g, DrawCode::Repetition, 24);
}

#[test]
fn frisian_repetition_in_a_king_only_ending() {
    // Two kings each (no Frisian endgame rule): White a3 -> c1 -> b2 -> a3 (i1 parked),
    // Black j8 <-> h10 (f10 parked, on no rank, file or diagonal of a White square). The
    // start position occurs for the third time after 24 plies.
    let mut g = Game::new(
        "frisian",
        Notation::Ten,
        White,
        &["Ka3", "Ki1"],
        &["Kj8", "Kf10"],
        &["a3", "c1", "b2"],
        &["j8", "h10"],
    );
    g.kings(24);
    assert_draw_exactly(&g, DrawCode::Repetition, 24);
}

#[test]
fn russian_main_road_5_with_three_kings() {
    // Same as `russian_main_road_5` with a third king on e1 instead of the man (its lines
    // x+y=4 and x-y=4 cross the main road on c3 only, where the lone king never stops):
    // MAIN_ROAD_5 at ply 10 comes long before THREE_KINGS_15 (30).
    let mut g = Game::new(
        "russian",
        Notation::Algebraic(':'),
        White,
        &["Ka3", "Ka5", "Ke1"],
        &["Ka1"],
        &["a3", "c1", "h6", "f8"],
        &["a1", "h8"],
    );
    g.kings(10);
    assert_draw_exactly(&g, DrawCode::MainRoad5, 10);
}

#[test]
fn frisian_two_kings_against_one_counted_from_the_capture() {
    // Two kings each until Black's parked king f10 goes to c7 (ply 6, path e9-d8) where
    // White's i1 king must take it along the diagonal i1-a9 (i1xa9, ply 7; a9 is on no rank,
    // file or diagonal of Black's remaining squares). Two kings against one from the position
    // after ply 7: draw after 7 more moves each, at ply 21.
    let mut g = Game::new(
        "frisian",
        Notation::Ten,
        White,
        &["Ka3", "Ki1"],
        &["Kj8", "Kf10"],
        &["a3", "c1", "b2"],
        &["j8", "h10"],
    );
    g.kings(5).mv("f10", "c7").cap("i1", "a9").kings(14);
    assert_draw_exactly(&g, DrawCode::Frisian2v1, 21);
}

#[test]
fn checkers_and_paraszt_use_the_wcdf_no_progress_rule() {
    // English moves with White first (WCDF's draw rules for BrainKing Dame and paraszt too).
    for id in ["checkers", "paraszt"] {
        let mut g = Game::new(
            id,
            Notation::Standard,
            White,
            &["Ka3", "g1"],
            &["Ke7", "a7"],
            W_RING,
            B_RING,
        );
        g.kings(80);
        assert_draw_exactly(&g, DrawCode::NoProgress40, 80);
    }
}
