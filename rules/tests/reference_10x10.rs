//! A second, independent move generator for the 10×10 variants, written from the rules text
//! (FMJD rules; Frisian, Frysk! and Breakthrough as lidraughts plays them; Killer as Scan
//! does) and sharing nothing with the engine: a plain 10×10 array, pieces taken off the board
//! only after the whole capture, every capture sequence enumerated, then filtered by
//! precedence and collapsed by (from, to, captured set).
//!
//! It is the second count unpublished perft figures (Frysk!, Breakthrough) need before they
//! go into `tests/data/perft.txt`, and it checks the engine move by move along random games of
//! Frysk!, Frisian, Breakthrough, Killer and International, whose kings come into play in a
//! way no start-position perft reaches.

use std::collections::BTreeSet;

use arbiter_rules::{perft, variant, Position, Variant};

/// A piece: its owner (0 = White, 1 = Black) and whether it is a king.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Piece {
    black: bool,
    king: bool,
}

/// What a variant of the family changes.
#[derive(Clone, Copy)]
struct Rules {
    /// Frisian: men and kings also capture along files and ranks.
    orthogonal: bool,
    /// Frisian precedence: highest value (man 100, king 199), then a capture by a king;
    /// otherwise the most pieces.
    frisian_value: bool,
    /// Frisian: while a side has men, the same king makes at most 3 quiet moves in a row.
    king_quiet_limit: bool,
    /// Breakthrough: a side that owns a king has won; the position has no moves.
    first_king_wins: bool,
    /// Killer: a king whose last captured piece is a king stops right behind it.
    killer: bool,
}

const INTERNATIONAL: Rules = Rules {
    orthogonal: false,
    frisian_value: false,
    king_quiet_limit: false,
    first_king_wins: false,
    killer: false,
};
const FRISIAN: Rules = Rules {
    orthogonal: true,
    frisian_value: true,
    king_quiet_limit: true,
    ..INTERNATIONAL
};
const BREAKTHROUGH: Rules = Rules {
    first_king_wins: true,
    ..INTERNATIONAL
};
const KILLER: Rules = Rules {
    killer: true,
    ..INTERNATIONAL
};

/// Square `(x, y)`, a1 = (0, 0); dark squares have `x + y` even.
type Sq = (i32, i32);

fn number(sq: Sq) -> u32 {
    let (x, y) = sq;
    let row = 9 - y; // 0 = the top row, Black's back row
    (row * 5 + x / 2 + 1) as u32
}

fn square(n: u32) -> Sq {
    let row = (n as i32 - 1) / 5;
    let col = (n as i32 - 1) % 5;
    let x = 2 * col + if row % 2 == 0 { 1 } else { 0 };
    (x, 9 - row)
}

fn on_board((x, y): Sq) -> bool {
    (0..10).contains(&x) && (0..10).contains(&y)
}

#[derive(Clone, PartialEq, Eq, Debug)]
struct Pos {
    cells: [[Option<Piece>; 10]; 10],
    black_to_move: bool,
    /// Per side: the square of the king that made the last quiet moves, and how many.
    runs: [(Sq, u32); 2],
}

impl Pos {
    fn at(&self, (x, y): Sq) -> Option<Piece> {
        self.cells[x as usize][y as usize]
    }

    fn set(&mut self, (x, y): Sq, p: Option<Piece>) {
        self.cells[x as usize][y as usize] = p;
    }

    /// `W:W31-50:B1-20`, `B:WK3,7:BK46` (numbers, ranges, K for kings).
    fn from_fen(fen: &str) -> Pos {
        let mut p = Pos {
            cells: [[None; 10]; 10],
            black_to_move: fen.starts_with('B'),
            runs: [((-1, -1), 0); 2],
        };
        for field in fen.split(':').skip(1) {
            let black = field.starts_with('B');
            for item in field[1..].split(',').filter(|s| !s.is_empty()) {
                let king = item.starts_with('K');
                let item = item.trim_start_matches('K');
                let (a, b) = match item.split_once('-') {
                    Some((a, b)) => (a.parse().unwrap(), b.parse().unwrap()),
                    None => (item.parse().unwrap(), item.parse().unwrap()),
                };
                for n in a..=b {
                    p.set(square(n), Some(Piece { black, king }));
                }
            }
        }
        p
    }

    fn pieces(&self, black: bool) -> Vec<(Sq, Piece)> {
        let mut out = Vec::new();
        for x in 0..10 {
            for y in 0..10 {
                if let Some(p) = self.cells[x as usize][y as usize] {
                    if p.black == black {
                        out.push(((x, y), p));
                    }
                }
            }
        }
        out
    }

    fn has_men(&self, black: bool) -> bool {
        self.pieces(black).iter().any(|(_, p)| !p.king)
    }
}

/// A move by its identity (numbers), plus what precedence needs.
#[derive(Clone, Debug)]
struct Mv {
    from: Sq,
    to: Sq,
    captured: Vec<Sq>,
    value: u32,
    by_king: bool,
    /// Kings captured (for the end position only).
    crowned: bool,
}

impl Mv {
    fn identity(&self) -> (u32, u32, BTreeSet<u32>) {
        (
            number(self.from),
            number(self.to),
            self.captured.iter().map(|&s| number(s)).collect(),
        )
    }
}

fn capture_dirs(r: &Rules) -> Vec<Sq> {
    let mut d = vec![(1, 1), (-1, 1), (1, -1), (-1, -1)];
    if r.orthogonal {
        // The next dark square along a file or a rank is two squares away.
        d.extend([(0, 2), (0, -2), (2, 0), (-2, 0)]);
    }
    d
}

struct Search<'a> {
    pos: &'a Pos,
    rules: Rules,
    origin: Sq,
    piece: Piece,
    out: Vec<Mv>,
}

impl Search<'_> {
    /// Empty for the capture: no piece, or the capturer's own start square.
    fn empty(&self, sq: Sq) -> bool {
        sq == self.origin || self.pos.at(sq).is_none()
    }

    /// The captures available from `cur`: (victim, landing squares).
    fn jumps(&self, cur: Sq, captured: &[Sq]) -> Vec<(Sq, Vec<Sq>)> {
        let mut out = Vec::new();
        for (dx, dy) in capture_dirs(&self.rules) {
            let mut s = (cur.0 + dx, cur.1 + dy);
            if self.piece.king {
                while on_board(s) && self.empty(s) {
                    s = (s.0 + dx, s.1 + dy);
                }
            }
            if !on_board(s) || self.empty(s) {
                continue;
            }
            // The first piece met: an enemy not yet jumped (jumped pieces stay and block).
            let victim = s;
            let enemy = self
                .pos
                .at(victim)
                .is_some_and(|p| p.black != self.piece.black);
            if !enemy || captured.contains(&victim) {
                continue;
            }
            let mut lands = Vec::new();
            let mut l = (victim.0 + dx, victim.1 + dy);
            while on_board(l) && self.empty(l) {
                lands.push(l);
                if !self.piece.king {
                    break;
                }
                l = (l.0 + dx, l.1 + dy);
            }
            if !lands.is_empty() {
                out.push((victim, lands));
            }
        }
        out
    }

    fn walk(&mut self, cur: Sq, captured: &mut Vec<Sq>) {
        for (victim, lands) in self.jumps(cur, captured) {
            captured.push(victim);
            // A capture goes on while it can: land where the capture goes on, if it can anywhere.
            let going_on: Vec<Sq> = lands
                .iter()
                .copied()
                .filter(|&l| !self.jumps(l, captured).is_empty())
                .collect();
            let lands = if !going_on.is_empty() {
                going_on
            } else if self.rules.killer && self.pos.at(victim).is_some_and(|p| p.king) {
                // The last piece taken is a king: stop right behind it.
                vec![lands[0]]
            } else {
                lands
            };
            for l in lands {
                if self.jumps(l, captured).is_empty() {
                    self.record(l, captured);
                } else {
                    self.walk(l, captured);
                }
            }
            captured.pop();
        }
    }

    fn record(&mut self, to: Sq, captured: &[Sq]) {
        let value = captured
            .iter()
            .map(|&s| {
                if self.pos.at(s).is_some_and(|p| p.king) {
                    199
                } else {
                    100
                }
            })
            .sum();
        let far = if self.piece.black { 0 } else { 9 };
        self.out.push(Mv {
            from: self.origin,
            to,
            captured: captured.to_vec(),
            value,
            by_king: self.piece.king,
            crowned: !self.piece.king && to.1 == far,
        });
    }
}

fn legal(pos: &Pos, rules: Rules) -> Vec<Mv> {
    let any_king = [false, true]
        .iter()
        .any(|&b| pos.pieces(b).iter().any(|(_, p)| p.king));
    if rules.first_king_wins && any_king {
        // Someone has crowned: the game is over.
        return Vec::new();
    }
    let me = pos.black_to_move;
    let mut caps = Vec::new();
    for (sq, piece) in pos.pieces(me) {
        let mut s = Search {
            pos,
            rules,
            origin: sq,
            piece,
            out: Vec::new(),
        };
        s.walk(sq, &mut Vec::new());
        caps.extend(s.out);
    }
    let mut moves = if caps.is_empty() {
        quiet(pos, rules)
    } else {
        let key = |m: &Mv| {
            if rules.frisian_value {
                (m.value, m.by_king as u32)
            } else {
                (m.captured.len() as u32, 0)
            }
        };
        let best = caps.iter().map(key).max().unwrap();
        caps.into_iter().filter(|m| key(m) == best).collect()
    };
    // One move per (from, to, captured set).
    let mut seen = BTreeSet::new();
    moves.retain(|m| seen.insert(m.identity()));
    moves
}

fn quiet(pos: &Pos, rules: Rules) -> Vec<Mv> {
    let me = pos.black_to_move;
    let (run_sq, run_n) = pos.runs[me as usize];
    let mut out = Vec::new();
    for (sq, piece) in pos.pieces(me) {
        let dirs: Vec<Sq> = if piece.king {
            vec![(1, 1), (-1, 1), (1, -1), (-1, -1)]
        } else if me {
            vec![(1, -1), (-1, -1)]
        } else {
            vec![(1, 1), (-1, 1)]
        };
        if piece.king && rules.king_quiet_limit && pos.has_men(me) && run_n >= 3 && run_sq == sq {
            continue;
        }
        for (dx, dy) in dirs {
            let mut t = (sq.0 + dx, sq.1 + dy);
            while on_board(t) && pos.at(t).is_none() {
                out.push(Mv {
                    from: sq,
                    to: t,
                    captured: Vec::new(),
                    value: 0,
                    by_king: piece.king,
                    crowned: !piece.king && t.1 == if me { 0 } else { 9 },
                });
                if !piece.king {
                    break;
                }
                t = (t.0 + dx, t.1 + dy);
            }
        }
    }
    out
}

fn play(pos: &Pos, m: &Mv) -> Pos {
    let mut p = pos.clone();
    let me = pos.black_to_move as usize;
    let mut piece = p.at(m.from).unwrap();
    p.set(m.from, None);
    for &c in &m.captured {
        p.set(c, None);
    }
    let quiet_king = piece.king && m.captured.is_empty();
    if m.crowned {
        piece.king = true;
    }
    p.set(m.to, Some(piece));
    if quiet_king && p.has_men(pos.black_to_move) {
        let (sq, n) = p.runs[me];
        p.runs[me] = (m.to, if sq == m.from && n > 0 { n + 1 } else { 1 });
    } else {
        p.runs[me] = ((-1, -1), 0);
    }
    if m.captured.contains(&p.runs[1 - me].0) {
        p.runs[1 - me] = ((-1, -1), 0);
    }
    p.black_to_move = !pos.black_to_move;
    p
}

fn reference_perft(pos: &Pos, rules: Rules, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal(pos, rules);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| reference_perft(&play(pos, m), rules, depth - 1))
        .sum()
}

fn engine_moves(v: &Variant, pos: &Position) -> BTreeSet<(u32, u32, BTreeSet<u32>)> {
    v.legal_moves(pos, &arbiter_rules::Budget::unlimited())
        .unwrap()
        .iter()
        .map(|m| {
            (
                v.square_number(m.from() as usize) as u32,
                v.square_number(m.to() as usize) as u32,
                m.captured()
                    .iter()
                    .map(|c| v.square_number(c) as u32)
                    .collect(),
            )
        })
        .collect()
}

/// Plays `games` random games of at most `plies` plies with the engine, comparing the legal
/// moves of every position with the reference's. Returns (positions compared, king moves seen).
fn compare_random_games(id: &str, rules: Rules, fen: &str, games: u64, plies: usize) -> (u64, u64) {
    let v = variant(id).unwrap();
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64 ^ games;
    let mut next = move || {
        // xorshift64*
        seed ^= seed >> 12;
        seed ^= seed << 25;
        seed ^= seed >> 27;
        seed.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    let (mut compared, mut king_moves) = (0, 0);
    for g in 0..games {
        let mut pos = v.parse_fen(fen).unwrap();
        let mut r = Pos::from_fen(fen);
        for ply in 0..plies {
            let want: BTreeSet<_> = legal(&r, rules).iter().map(Mv::identity).collect();
            let got = engine_moves(v, &pos);
            assert_eq!(
                got,
                want,
                "{id} game {g} ply {ply}: engine vs reference at {}",
                v.fen(&pos)
            );
            compared += 1;
            if got.is_empty() {
                break;
            }
            let moves = v
                .legal_moves(&pos, &arbiter_rules::Budget::unlimited())
                .unwrap();
            let m = moves[(next() % moves.len() as u64) as usize];
            if m.piece() == arbiter_rules::Kind::King {
                king_moves += 1;
            }
            let id_of = (
                v.square_number(m.from() as usize) as u32,
                v.square_number(m.to() as usize) as u32,
                m.captured()
                    .iter()
                    .map(|c| v.square_number(c) as u32)
                    .collect::<BTreeSet<u32>>(),
            );
            let rm = legal(&r, rules)
                .into_iter()
                .find(|x| x.identity() == id_of)
                .unwrap();
            r = play(&r, &rm);
            pos = v.play(&pos, &m);
        }
    }
    (compared, king_moves)
}

#[test]
fn the_reference_reproduces_published_figures() {
    // A reference that cannot reproduce published counts proves nothing about new ones.
    let start = Pos::from_fen("W:W31-50:B1-20");
    assert_eq!(reference_perft(&start, INTERNATIONAL, 4), 4265); // dctl board_10x10.cpp
    assert_eq!(reference_perft(&start, FRISIAN, 4), 3874); // dctl board_10x10.cpp
    let random178 = Pos::from_fen("B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24");
    assert_eq!(reference_perft(&random178, KILLER, 4), 5165); // dctl killer/letouzey.cpp
    assert_eq!(reference_perft(&random178, KILLER, 5), 84326);
    // Without the killer rule the count differs, so the figure above tests the rule.
    assert_ne!(reference_perft(&random178, INTERNATIONAL, 5), 84326);
}

#[test]
fn frysk_perft_agrees_with_the_reference() {
    // Worked out by hand: 9 and 81.
    let start = Pos::from_fen("W:W46-50:B1-5");
    assert_eq!(reference_perft(&start, FRISIAN, 1), 9);
    assert_eq!(reference_perft(&start, FRISIAN, 2), 81);
    let v = variant("frysk").unwrap();
    for depth in 1..=6 {
        assert_eq!(
            perft(v, &v.start(), depth).unwrap(),
            reference_perft(&start, FRISIAN, depth),
            "frysk perft({depth})"
        );
    }
}

#[test]
fn breakthrough_perft_agrees_with_the_reference() {
    // Before a man can reach the far row the figures are International's.
    let v = variant("breakthrough").unwrap();
    assert_eq!(perft(v, &v.start(), 5).unwrap(), 27117);
    // A position where crowning is one move away for both sides: the crowning moves have no
    // children, so the counts differ from International's from depth 2.
    let fen = "W:W7,9,31,32,33:B17,18,42,44";
    let pos = v.parse_fen(fen).unwrap();
    let international = variant("international").unwrap();
    let intl = perft(international, &international.parse_fen(fen).unwrap(), 3).unwrap();
    for depth in 1..=4 {
        assert_eq!(
            perft(v, &pos, depth).unwrap(),
            reference_perft(&Pos::from_fen(fen), BREAKTHROUGH, depth),
            "breakthrough perft({depth}) of {fen}"
        );
    }
    assert_ne!(perft(v, &pos, 3).unwrap(), intl);
}

#[test]
fn random_games_agree_with_the_reference() {
    for (id, rules, fen) in [
        ("frysk", FRISIAN, "W:W46-50:B1-5"),
        ("frisian", FRISIAN, "W:W31-50:B1-20"),
        ("breakthrough", BREAKTHROUGH, "W:W31-50:B1-20"),
        ("killer", KILLER, "W:W31-50:B1-20"),
        ("killer", KILLER, "W:W31-40:B11-20"),
        ("international", INTERNATIONAL, "W:W31-50:B1-20"),
    ] {
        let (compared, king_moves) = compare_random_games(id, rules, fen, 300, 200);
        eprintln!("{id} from {fen}: {compared} positions, {king_moves} king moves");
        assert!(compared > 1000, "{id}: only {compared} positions");
        if id != "breakthrough" {
            assert!(
                king_moves > 20,
                "{id} from {fen}: kings never moved ({king_moves})"
            );
        }
    }
}

#[test]
#[ignore = "the reference is slow: about a minute in release mode"]
fn frysk_deep_perft_agrees_with_the_reference() {
    let start = Pos::from_fen("W:W46-50:B1-5");
    let v = variant("frysk").unwrap();
    for depth in 7..=9 {
        let r = reference_perft(&start, FRISIAN, depth);
        eprintln!("frysk perft({depth}) = {r}");
        assert_eq!(
            perft(v, &v.start(), depth).unwrap(),
            r,
            "frysk perft({depth})"
        );
    }
}
