//! BrainKing's Alquerque as the oracle plays it, written from the rules text alone (BrainKing's
//! rules page, and the catalogue's reading of its no-return rule):
//!
//! - 25 points a1-e5; lines along ranks and files everywhere, diagonals through the points
//!   whose coordinates sum to an even number.
//! - A pawn steps along a line to an adjacent empty point forward, diagonally forward or
//!   sideways (White's forward is up the board, Black's down), never backward; a pawn on the
//!   opponent's base row makes no more steps, only captures.
//! - A capture jumps an adjacent enemy pawn along a line onto the empty point beyond; the
//!   first jump goes in a direction the pawn may step in, the later ones in any direction;
//!   the jumped pawn leaves at once; the sequence goes on while it can; captures are
//!   compulsory, with free choice among them.
//! - The pawn a side moved on its previous turn may not go from where that move ended straight
//!   back to where it started, by a step or a capture; such a capture is no move, so it
//!   obliges nothing. A pawn captured is no longer bound by its last move.
//! - A side without pawns, or without a legal move, loses. No promotion.

use std::collections::BTreeSet;

use super::oracle::{Rules, Val};

/// A state: each point (index `y * 5 + x`) 0, 1 (White) or 2 (Black); each side's last move
/// (from, to), if it binds; the side to move (0 White).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct St {
    pub points: [u8; 25],
    pub last: [Option<(usize, usize)>; 2],
    pub side: usize,
}

pub struct Alquerque;

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

/// The point one step from `p` in direction `d` along a line, if any.
fn along(p: usize, d: (i32, i32)) -> Option<usize> {
    let (x, y) = ((p % 5) as i32, (p / 5) as i32);
    if d.0 != 0 && d.1 != 0 && (x + y) % 2 != 0 {
        return None;
    }
    let (nx, ny) = (x + d.0, y + d.1);
    ((0..5).contains(&nx) && (0..5).contains(&ny)).then_some((ny * 5 + nx) as usize)
}

pub fn name(p: usize) -> String {
    format!("{}{}", (b'a' + (p % 5) as u8) as char, p / 5 + 1)
}

impl Alquerque {
    /// The directions `side` steps in: forward, diagonally forward, sideways.
    fn forward(side: usize) -> Vec<(i32, i32)> {
        let f = if side == 0 { 1 } else { -1 };
        vec![(0, f), (1, f), (-1, f), (1, 0), (-1, 0)]
    }

    /// The moves of the side to move, as (from, to, the board after), the no-return rule
    /// applied; captures if there are any.
    fn moves(&self, s: &St) -> Vec<(usize, usize, [u8; 25])> {
        let me = s.side as u8 + 1;
        let back = |from: usize, to: usize| s.last[s.side] == Some((to, from));
        let mut captures = BTreeSet::new();
        for from in 0..25 {
            if s.points[from] != me {
                continue;
            }
            let mut board = s.points;
            board[from] = 0;
            self.jumps(&mut board, me, from, from, true, &mut captures);
        }
        let captures: Vec<_> = captures
            .into_iter()
            .filter(|&(from, to, _)| !back(from, to))
            .collect();
        if !captures.is_empty() {
            return captures;
        }
        let mut out = Vec::new();
        let far = if s.side == 0 { 4 } else { 0 };
        for from in 0..25 {
            if s.points[from] != me || from / 5 == far {
                continue;
            }
            for d in Alquerque::forward(s.side) {
                if let Some(to) = along(from, d) {
                    if s.points[to] == 0 && !back(from, to) {
                        let mut b = s.points;
                        b[from] = 0;
                        b[to] = me;
                        out.push((from, to, b));
                    }
                }
            }
        }
        out
    }

    /// Capture sequences of the pawn lifted from `from`, now on `at`.
    fn jumps(
        &self,
        board: &mut [u8; 25],
        me: u8,
        from: usize,
        at: usize,
        first: bool,
        out: &mut BTreeSet<(usize, usize, [u8; 25])>,
    ) {
        let dirs = if first {
            Alquerque::forward(me as usize - 1)
        } else {
            ALL.to_vec()
        };
        let mut went_on = false;
        for d in dirs {
            let Some(over) = along(at, d) else { continue };
            let Some(to) = along(over, d) else { continue };
            if board[over] == 0 || board[over] == me || board[to] != 0 {
                continue;
            }
            went_on = true;
            let enemy = board[over];
            board[over] = 0;
            self.jumps(board, me, from, to, false, out);
            board[over] = enemy;
        }
        if !went_on && !first {
            let mut b = *board;
            b[at] = me;
            out.insert((from, at, b));
        }
    }

    /// Every placement of `white` and `black` pawns, either side to move, no last moves.
    pub fn placements(&self, white: usize, black: usize) -> Vec<St> {
        let mut out = Vec::new();
        let mut points = [0u8; 25];
        fn go(i: usize, left: [usize; 2], points: &mut [u8; 25], out: &mut Vec<St>) {
            if i == 25 {
                if left == [0, 0] {
                    for side in 0..2 {
                        out.push(St {
                            points: *points,
                            last: [None, None],
                            side,
                        });
                    }
                }
                return;
            }
            go(i + 1, left, points, out);
            for c in 0..2 {
                if left[c] > 0 {
                    let mut l = left;
                    l[c] -= 1;
                    points[i] = c as u8 + 1;
                    go(i + 1, l, points, out);
                    points[i] = 0;
                }
            }
        }
        go(0, [white, black], &mut points, &mut out);
        out
    }

    pub fn fen(&self, s: &St) -> String {
        let list = |c: u8| {
            let v: Vec<String> = (0..25).filter(|&i| s.points[i] == c).map(name).collect();
            v.join(",")
        };
        let last = |l: Option<(usize, usize)>| {
            l.map_or("-".to_string(), |(f, t)| format!("{}-{}", name(f), name(t)))
        };
        format!(
            "{}:W{}:B{}:L{},{}",
            if s.side == 0 { 'W' } else { 'B' },
            list(1),
            list(2),
            last(s.last[0]),
            last(s.last[1])
        )
    }
}

impl Rules for Alquerque {
    type State = St;

    fn decided(&self, s: &St) -> Option<Val> {
        let has = |c: u8| s.points.contains(&c);
        if !has(s.side as u8 + 1) {
            return Some(Val::Loss(0));
        }
        if !has(2 - s.side as u8) {
            return Some(Val::Win(0));
        }
        if self.moves(s).is_empty() {
            return Some(Val::Loss(0));
        }
        None
    }

    fn children(&self, s: &St) -> Vec<St> {
        let them = 1 - s.side;
        self.moves(s)
            .into_iter()
            .map(|(from, to, points)| {
                let mut last = s.last;
                last[s.side] = Some((from, to));
                if let Some((_, t)) = last[them] {
                    if points[t] != them as u8 + 1 {
                        last[them] = None;
                    }
                }
                St {
                    points,
                    last,
                    side: them,
                }
            })
            .collect()
    }
}
