//! A second, independent move generator for Alquerque ("Dámajátékok Hétpróbára"), written
//! from the rules text and sharing nothing with the engine: a 5×5 array, lines along ranks and
//! files and diagonals through the points of even parity, every capture sequence enumerated
//! with the jumped stones taken off at once, then collapsed by (from, to, captured set).
//!
//! It reproduces the published Hungarian-rules perft (1-6: 4, 5, 6, 12, 23, 100), and is the
//! second count for BrainKing's rules (sequences, the first jump along a moving direction, the
//! no-return rule), which have no published figures.

use std::collections::BTreeSet;

use arbiter_rules::{perft, variant, Budget};

#[derive(Clone, Copy)]
struct Game {
    /// Capture sequences (BrainKing) or one jump a move (Hungarian seed).
    sequences: bool,
    /// The first jump only in a moving direction (BrainKing).
    first_jump_forward: bool,
    /// A stone may not go back to where it came from on its side's previous move (BrainKing).
    no_return: bool,
}

const HU: Game = Game {
    sequences: false,
    first_jump_forward: false,
    no_return: false,
};
const BRAINKING: Game = Game {
    sequences: true,
    first_jump_forward: true,
    no_return: true,
};

/// 0 empty, 1 White, 2 Black; index y * 5 + x, a1 = 0.
#[derive(Clone, Debug)]
struct Pos {
    points: [u8; 25],
    side: usize,
    /// Each side's last move (from, to).
    last: [Option<(usize, usize)>; 2],
}

#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct Mv {
    from: usize,
    to: usize,
    captured: BTreeSet<usize>,
}

const ALL: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, 1),
    (1, -1),
    (-1, -1),
];

fn at(x: i32, y: i32) -> Option<usize> {
    ((0..5).contains(&x) && (0..5).contains(&y)).then_some((y * 5 + x) as usize)
}

fn xy(i: usize) -> (i32, i32) {
    (i as i32 % 5, i as i32 / 5)
}

/// The neighbour of `i` along a drawn line in direction `d`: diagonals only from even points.
fn step(i: usize, (dx, dy): (i32, i32)) -> Option<usize> {
    let (x, y) = xy(i);
    if dx != 0 && dy != 0 && (x + y) % 2 != 0 {
        return None;
    }
    at(x + dx, y + dy)
}

/// The moving directions of a side: forward, diagonally forward, sideways.
fn forward(side: usize) -> Vec<(i32, i32)> {
    let f = if side == 0 { 1 } else { -1 };
    vec![(0, f), (1, f), (-1, f), (1, 0), (-1, 0)]
}

fn start() -> Pos {
    let mut points = [0; 25];
    for (i, p) in points.iter_mut().enumerate() {
        let (x, y) = xy(i);
        *p = if y < 2 || (y == 2 && x > 2) {
            1
        } else if y > 2 || (y == 2 && x < 2) {
            2
        } else {
            0
        };
    }
    Pos {
        points,
        side: 0,
        last: [None; 2],
    }
}

impl Game {
    fn moves(&self, p: &Pos) -> Vec<Mv> {
        let me = p.side as u8 + 1;
        let banned = |m: &Mv| {
            self.no_return && p.last[p.side].is_some_and(|(f, t)| m.from == t && m.to == f)
        };
        let mut caps = BTreeSet::new();
        for from in (0..25).filter(|&i| p.points[i] == me) {
            let mut board = p.points;
            board[from] = 0;
            self.jumps(p.side, &mut board, from, from, &mut Vec::new(), &mut caps);
        }
        let caps: Vec<Mv> = caps.into_iter().filter(|m| !banned(m)).collect();
        if !caps.is_empty() {
            return caps;
        }
        let far = if p.side == 0 { 4 } else { 0 };
        let mut out = Vec::new();
        for from in (0..25).filter(|&i| p.points[i] == me && xy(i).1 != far) {
            for d in forward(p.side) {
                if let Some(to) = step(from, d) {
                    let m = Mv {
                        from,
                        to,
                        captured: BTreeSet::new(),
                    };
                    if p.points[to] == 0 && !banned(&m) {
                        out.push(m);
                    }
                }
            }
        }
        out
    }

    fn jumps(
        &self,
        side: usize,
        board: &mut [u8; 25],
        from: usize,
        at: usize,
        taken: &mut Vec<usize>,
        out: &mut BTreeSet<Mv>,
    ) {
        let me = side as u8 + 1;
        let dirs = if taken.is_empty() && self.first_jump_forward {
            forward(side)
        } else {
            ALL.to_vec()
        };
        let mut any = false;
        if taken.is_empty() || self.sequences {
            for d in dirs {
                let Some(over) = step(at, d) else { continue };
                let Some(to) = step(over, d) else { continue };
                if board[over] == 0 || board[over] == me || board[to] != 0 {
                    continue;
                }
                any = true;
                let enemy = board[over];
                board[over] = 0;
                taken.push(over);
                self.jumps(side, board, from, to, taken, out);
                taken.pop();
                board[over] = enemy;
            }
        }
        if !any && !taken.is_empty() {
            out.insert(Mv {
                from,
                to: at,
                captured: taken.iter().copied().collect(),
            });
        }
    }

    fn play(&self, p: &Pos, m: &Mv) -> Pos {
        let mut n = p.clone();
        n.points[m.to] = n.points[m.from];
        n.points[m.from] = 0;
        for &c in &m.captured {
            n.points[c] = 0;
        }
        n.points[m.to] = p.side as u8 + 1;
        if self.no_return {
            n.last[p.side] = Some((m.from, m.to));
        }
        n.side = 1 - p.side;
        n
    }

    fn perft(&self, p: &Pos, depth: u32) -> u64 {
        let moves = self.moves(p);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|m| self.perft(&self.play(p, m), depth - 1))
            .sum()
    }
}

fn name(i: usize) -> String {
    let (x, y) = xy(i);
    format!("{}{}", (b'a' + x as u8) as char, y + 1)
}

#[test]
fn the_reference_reproduces_the_published_hungarian_figures() {
    let want = [4, 5, 6, 12, 23, 100];
    for (d, w) in want.into_iter().enumerate() {
        assert_eq!(HU.perft(&start(), d as u32 + 1), w);
    }
    // BrainKing's rules give other figures, so the comparison below tests them.
    assert_ne!(BRAINKING.perft(&start(), 6), 100);
}

#[test]
fn brainking_perft_agrees_with_the_reference() {
    let v = variant("alquerque-brainking").unwrap();
    for depth in 1..=10 {
        assert_eq!(
            perft(v, &v.start(), depth).unwrap(),
            BRAINKING.perft(&start(), depth),
            "alquerque-brainking perft({depth})"
        );
    }
}

#[test]
fn brainking_random_games_agree_with_the_reference() {
    let v = variant("alquerque-brainking").unwrap();
    let mut rng: u64 = 0x2545_f491_4f6c_dd1d;
    let (mut compared, mut sequences, mut returns_banned) = (0, 0, 0);
    for _ in 0..400 {
        let mut p = start();
        let mut pos = v.start();
        for _ in 0..120 {
            let reference: BTreeSet<(String, String, BTreeSet<String>)> = BRAINKING
                .moves(&p)
                .iter()
                .map(|m| {
                    (
                        name(m.from),
                        name(m.to),
                        m.captured.iter().map(|&c| name(c)).collect(),
                    )
                })
                .collect();
            let engine: BTreeSet<(String, String, BTreeSet<String>)> = v
                .legal_moves(&pos, &Budget::unlimited())
                .unwrap()
                .iter()
                .map(|m| {
                    (
                        v.square_name(m.from() as usize),
                        v.square_name(m.to() as usize),
                        m.captured().iter().map(|c| v.square_name(c)).collect(),
                    )
                })
                .collect();
            assert_eq!(engine, reference, "{}", v.fen(&pos));
            compared += 1;
            let moves = BRAINKING.moves(&p);
            if moves.is_empty() {
                break;
            }
            if moves.iter().any(|m| m.captured.len() > 1) {
                sequences += 1;
            }
            if (Game {
                no_return: false,
                ..BRAINKING
            })
            .moves(&p)
            .len()
                > moves.len()
            {
                returns_banned += 1;
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let m = &moves[(rng % moves.len() as u64) as usize];
            p = BRAINKING.play(&p, m);
            let text = if m.captured.is_empty() {
                format!("{}-{}", name(m.from), name(m.to))
            } else {
                // The engine reads the short form when it names one move, else this route.
                format!("{}x{}", name(m.from), name(m.to))
            };
            let found = v
                .matching_moves(&pos, &text, &arbiter_rules::Budget::unlimited())
                .unwrap();
            let d = found
                .iter()
                .find(|d| {
                    d.mv.captured()
                        .iter()
                        .map(name_of(v))
                        .collect::<BTreeSet<_>>()
                        == m.captured.iter().map(|&c| name(c)).collect()
                })
                .expect("the reference's move is the engine's");
            pos = v.play(&pos, &d.mv);
        }
    }
    eprintln!(
        "{compared} positions, {sequences} with sequences, {returns_banned} with a return banned"
    );
    assert!(compared > 5000 && sequences > 50 && returns_banned > 50);
}

fn name_of(v: &arbiter_rules::Variant) -> impl Fn(usize) -> String + '_ {
    move |c| v.square_name(c)
}

#[test]
#[ignore = "a few seconds in release mode"]
fn brainking_deep_perft_agrees_with_the_reference() {
    let v = variant("alquerque-brainking").unwrap();
    for depth in 11..=13 {
        let r = BRAINKING.perft(&start(), depth);
        eprintln!("alquerque-brainking perft({depth}) = {r}");
        assert_eq!(perft(v, &v.start(), depth).unwrap(), r);
    }
}
