//! The drop games (Vilbergen in the Hungarian booklet's and in Salo's rules, Lahti, Hageby)
//! as the oracle plays them, written from the rules text alone: points in a list with their
//! lines, two hands, the drop phase, then steps and capture sequences along the lines with
//! the jumped stones taken off at once, and the end rules.
//!
//! - While the side to move holds stones it drops one on any empty point (its only moves).
//! - Otherwise it captures if it can (a jump over an adjacent enemy stone along a line onto
//!   the empty point beyond; the jumped stone leaves at once; the sequence goes on while a
//!   jump is left; any sequence may be chosen), else steps to an adjacent empty point.
//! - A side with no stone on the board and none in hand has lost; a side that has just moved
//!   its last stone onto the goal has won (a lone stone already there must move onto it
//!   again). A side that cannot move loses, except in Hageby, where it passes, and a position
//!   in which neither side can move (but pass) is drawn.

use std::collections::BTreeSet;

use super::oracle::{Rules, Val};

/// One of the games.
pub struct Drops {
    pub id: &'static str,
    /// Point names.
    pub names: Vec<String>,
    /// Each point's neighbours along the lines, with the point a jump over it lands on.
    pub lines: Vec<Vec<(usize, Option<usize>)>>,
    pub stones: u8,
    pub goal: usize,
    pub passes: bool,
}

/// A state: each point 0 (empty), 1 (White) or 2 (Black); stones in hand; the side to move
/// (0 White, 1 Black).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct St {
    pub points: Vec<u8>,
    pub hand: [u8; 2],
    pub side: usize,
}

/// Hageby's 13 points, from Salo's rules file: each point's neighbours, and in brackets where
/// a jump over that neighbour lands, when the line goes on.
const HAGEBY: &str = "\
A3: B3 C3, A2, B2 C1
B3: C3 D3, A3, B2 B1, C2 D1
C3: D3, B3 A3, C2 C1, D2 E1
D3: C3 B3, D2 D1, E2
A2: B2 C2, A3, B1
B2: C2 D2, A2, B3, B1, A3, C1
C2: D2 E2, B2 A2, C3, C1, B3, D1
D2: E2, C2 B2, D3, D1, C3, E1
E2: D2 C2, E1, D3
B1: C1 D1, B2 B3, A2
C1: D1 E1, B1, C2 C3, B2 A3
D1: E1, C1 B1, D2 D3, C2 B3
E1: D1 C1, E2, D2 C3";

impl Drops {
    /// A `width`×`height` grid, with the diagonals or not.
    fn grid(
        id: &'static str,
        width: i32,
        height: i32,
        diagonal: bool,
        stones: u8,
        goal: &str,
    ) -> Drops {
        let mut dirs = vec![(1, 0), (-1, 0), (0, 1), (0, -1)];
        if diagonal {
            dirs.extend([(1, 1), (1, -1), (-1, 1), (-1, -1)]);
        }
        let at = |x: i32, y: i32| {
            (0 <= x && x < width && 0 <= y && y < height).then_some((y * width + x) as usize)
        };
        let mut names = Vec::new();
        let mut lines = Vec::new();
        for y in 0..height {
            for x in 0..width {
                names.push(format!("{}{}", (b'a' + x as u8) as char, y + 1));
                lines.push(
                    dirs.iter()
                        .filter_map(|&(dx, dy)| {
                            at(x + dx, y + dy).map(|n| (n, at(x + 2 * dx, y + 2 * dy)))
                        })
                        .collect(),
                );
            }
        }
        let goal = names.iter().position(|n| n == goal).unwrap();
        Drops {
            id,
            names,
            lines,
            stones,
            goal,
            passes: false,
        }
    }

    pub fn lahti() -> Drops {
        Drops::grid("lahti", 5, 2, true, 4, "c2")
    }

    pub fn vilbergen() -> Drops {
        Drops::grid("vilbergen", 4, 3, true, 4, "d2")
    }

    pub fn vilbergen_salo() -> Drops {
        Drops::grid("vilbergen-salo", 4, 3, false, 5, "d2")
    }

    pub fn hageby() -> Drops {
        let rows: Vec<(String, &str)> = HAGEBY
            .lines()
            .map(|l| l.split_once(':').unwrap())
            .map(|(a, b)| (a.trim().to_lowercase(), b))
            .collect();
        let names: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
        let ix = |n: &str| names.iter().position(|x| *x == n.to_lowercase()).unwrap();
        let lines = rows
            .iter()
            .map(|(_, list)| {
                list.split(',')
                    .map(|item| {
                        let mut w = item.split_whitespace();
                        let n = ix(w.next().unwrap());
                        (n, w.next().map(ix))
                    })
                    .collect()
            })
            .collect();
        let goal = ix("d2");
        Drops {
            id: "hageby",
            names,
            lines,
            stones: 5,
            goal,
            passes: true,
        }
    }

    pub fn start(&self) -> St {
        St {
            points: vec![0; self.names.len()],
            hand: [self.stones; 2],
            side: 0,
        }
    }

    /// Every state with at most `stones[0]` White and `stones[1]` Black stones, on the board
    /// and in hand together, each split between board and hand, either side to move.
    pub fn all(&self, stones: [u8; 2]) -> Vec<St> {
        fn go(stones: [u8; 2], i: usize, on: [u8; 2], points: &mut Vec<u8>, out: &mut Vec<St>) {
            if i == points.len() {
                for hw in 0..=stones[0] - on[0] {
                    for hb in 0..=stones[1] - on[1] {
                        for side in 0..2 {
                            out.push(St {
                                points: points.clone(),
                                hand: [hw, hb],
                                side,
                            });
                        }
                    }
                }
                return;
            }
            for v in 0..3u8 {
                let mut on = on;
                if v > 0 {
                    on[v as usize - 1] += 1;
                    if on[v as usize - 1] > stones[v as usize - 1] {
                        continue;
                    }
                }
                points[i] = v;
                go(stones, i + 1, on, points, out);
            }
            points[i] = 0;
        }
        let mut out = Vec::new();
        go(
            stones,
            0,
            [0, 0],
            &mut vec![0u8; self.names.len()],
            &mut out,
        );
        out
    }

    /// The state's FEN, as the engine reads it.
    pub fn fen(&self, s: &St) -> String {
        let list = |c: u8| {
            let v: Vec<&str> = (0..s.points.len())
                .filter(|&i| s.points[i] == c)
                .map(|i| self.names[i].as_str())
                .collect();
            v.join(",")
        };
        format!(
            "{}:W{}:B{}:S{},{}",
            if s.side == 0 { 'W' } else { 'B' },
            list(1),
            list(2),
            s.hand[0],
            s.hand[1]
        )
    }

    fn on_board(&self, s: &St, side: usize) -> Vec<usize> {
        (0..s.points.len())
            .filter(|&i| s.points[i] == side as u8 + 1)
            .collect()
    }

    /// The states the captures of `side` lead to, if it has any, else those its steps lead
    /// to (the side to move of the states given is not changed).
    fn movement(&self, s: &St, side: usize) -> Vec<Vec<u8>> {
        let me = side as u8 + 1;
        let mut captures: BTreeSet<Vec<u8>> = BTreeSet::new();
        for from in self.on_board(s, side) {
            let mut board = s.points.clone();
            board[from] = 0;
            self.jumps(&mut board, me, from, false, &mut captures);
        }
        if !captures.is_empty() {
            return captures.into_iter().collect();
        }
        let mut out = Vec::new();
        for from in self.on_board(s, side) {
            for &(to, _) in &self.lines[from] {
                if s.points[to] == 0 {
                    let mut b = s.points.clone();
                    b[from] = 0;
                    b[to] = me;
                    out.push(b);
                }
            }
        }
        out
    }

    /// The boards at the ends of the capture sequences of the stone (lifted off `board`) now
    /// on `at`: `jumped` once it has jumped.
    fn jumps(
        &self,
        board: &mut Vec<u8>,
        me: u8,
        at: usize,
        jumped: bool,
        out: &mut BTreeSet<Vec<u8>>,
    ) {
        let mut went_on = false;
        for &(over, beyond) in &self.lines[at] {
            let Some(to) = beyond else { continue };
            if board[over] == 0 || board[over] == me || board[to] != 0 {
                continue;
            }
            went_on = true;
            let enemy = board[over];
            board[over] = 0;
            self.jumps(board, me, to, true, out);
            board[over] = enemy;
        }
        if !went_on && jumped {
            let mut b = board.clone();
            b[at] = me;
            out.insert(b);
        }
    }
}

impl Rules for Drops {
    type State = St;

    fn decided(&self, s: &St) -> Option<Val> {
        let me = s.side;
        let mover = 1 - me;
        // All captured: the side to move, then the mover.
        if s.hand[me] == 0 && self.on_board(s, me).is_empty() {
            return Some(Val::Loss(0));
        }
        if s.hand[mover] == 0 && self.on_board(s, mover).is_empty() {
            return Some(Val::Win(0));
        }
        // The mover's last stone has just arrived on the goal.
        if s.hand[mover] == 0 && self.on_board(s, mover) == [self.goal] {
            return Some(Val::Loss(0));
        }
        let can_move = |side: usize| {
            (s.hand[side] > 0 && s.points.contains(&0)) || !self.movement(s, side).is_empty()
        };
        if self.passes {
            if !can_move(0) && !can_move(1) {
                return Some(Val::Draw);
            }
            return None;
        }
        if !can_move(me) {
            return Some(Val::Loss(0));
        }
        None
    }

    fn children(&self, s: &St) -> Vec<St> {
        let me = s.side;
        let next = |points: Vec<u8>, hand: [u8; 2]| St {
            points,
            hand,
            side: 1 - me,
        };
        if s.hand[me] > 0 {
            return (0..s.points.len())
                .filter(|&i| s.points[i] == 0)
                .map(|i| {
                    let mut b = s.points.clone();
                    b[i] = me as u8 + 1;
                    let mut h = s.hand;
                    h[me] -= 1;
                    next(b, h)
                })
                .collect();
        }
        let moves = self.movement(s, me);
        if moves.is_empty() {
            // Hageby: a pass.
            return vec![next(s.points.clone(), s.hand)];
        }
        moves.into_iter().map(|b| next(b, s.hand)).collect()
    }
}
