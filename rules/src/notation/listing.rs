//! The legal moves of a position written out: each with its canonical notation (short when
//! no other legal move has the same start and end, long otherwise: PDN 3.0 capture
//! disambiguation), its route and its captured squares, in the documented order.

use crate::budget::{Budget, GenError};
use crate::moves::{pdn_squares_onto, Move};
use crate::position::Position;
use crate::variant::{Found, Variant};

/// A legal move with everything needed to show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DescribedMove {
    pub mv: Move,
    /// Canonical notation: short form when no other legal move has the same start and end.
    pub notation: String,
    /// Long form (every intermediate square of the canonical route).
    pub long: String,
    /// The canonical route: start, intermediate squares (PDN 3.0 capture disambiguation) and end.
    pub route: Vec<usize>,
    /// Captured cells, in the order of the canonical route.
    pub captured: Vec<usize>,
}

/// The legal moves of a position with their texts and squares
/// ([`Variant::list_moves`]): what [`DescribedMove`]s hold, kept in three buffers
/// (one allocation each, whatever the number of moves) instead of two strings and two lists
/// per move. [`MoveList::iter`] reads each move as a [`MoveView`].
#[derive(Clone, Debug, Default)]
pub struct MoveList {
    entries: Vec<Entry>,
    /// Every move's texts, one after the other.
    text: String,
    /// Every move's route, then its captured squares, one move after the other.
    squares: Vec<usize>,
}

/// One move of a [`MoveList`]: its texts in `text`, its squares in `squares`.
#[derive(Clone, Debug)]
struct Entry {
    mv: Move,
    notation: std::ops::Range<u32>,
    long: std::ops::Range<u32>,
    route: std::ops::Range<u32>,
    captured: std::ops::Range<u32>,
}

/// A move of a [`MoveList`]: the fields of a [`DescribedMove`], borrowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveView<'a> {
    pub mv: Move,
    /// Canonical notation: short form when no other legal move has the same start and end.
    pub notation: &'a str,
    /// Long form (every intermediate square of the canonical route).
    pub long: &'a str,
    /// The canonical route: start, intermediate squares and end.
    pub route: &'a [usize],
    /// Captured cells, in the order of the canonical route.
    pub captured: &'a [usize],
}

impl MoveView<'_> {
    /// The move as a [`DescribedMove`] (owned strings and lists).
    pub fn to_described(&self) -> DescribedMove {
        DescribedMove {
            mv: self.mv,
            notation: self.notation.to_string(),
            long: self.long.to_string(),
            route: self.route.to_vec(),
            captured: self.captured.to_vec(),
        }
    }
}

impl MoveList {
    /// The number of moves.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there is no move.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The `i`th move, in the order of the list.
    pub fn get(&self, i: usize) -> Option<MoveView<'_>> {
        let e = self.entries.get(i)?;
        let text = |r: &std::ops::Range<u32>| &self.text[r.start as usize..r.end as usize];
        let squares = |r: &std::ops::Range<u32>| &self.squares[r.start as usize..r.end as usize];
        Some(MoveView {
            mv: e.mv,
            notation: text(&e.notation),
            long: text(&e.long),
            route: squares(&e.route),
            captured: squares(&e.captured),
        })
    }

    /// The moves, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = MoveView<'_>> + '_ {
        (0..self.len()).map(|i| self.get(i).expect("within the list"))
    }
}

/// Whether a move of `found` shares its start and end with another (it is then written
/// long): one sort of the (start, end) pairs, not a scan per move.
fn shared_ends(found: &[Found]) -> impl Fn(&Found) -> bool {
    let mut ends: Vec<(u8, u8)> = found.iter().map(|f| (f.mv.from(), f.mv.to())).collect();
    ends.sort_unstable();
    move |f: &Found| {
        let key = (f.mv.from(), f.mv.to());
        let i = ends.partition_point(|e| *e < key);
        ends.get(i + 1) == Some(&key)
    }
}

/// Where [`Variant::move_parts`] put a move's parts: the length of its route (its captured
/// squares follow), and where its canonical text starts when it is not the long one.
struct MoveParts {
    route_len: usize,
    short_at: Option<usize>,
}

impl Variant {
    /// Every legal move of `pos` with its canonical notation and route, charged to `budget`.
    pub fn describe_moves(
        &self,
        pos: &Position,
        budget: &Budget,
    ) -> Result<Vec<DescribedMove>, GenError> {
        let found = self.generate_described(pos, budget, None)?;
        Ok(self.describe(&found))
    }

    /// Every legal move of `pos` with its canonical notation and route, charged to `budget`,
    /// as a [`MoveList`]: the moves of [`Variant::describe_moves`], in the same order,
    /// without a string or a list of its own for each.
    pub fn list_moves(&self, pos: &Position, budget: &Budget) -> Result<MoveList, GenError> {
        let found = self.generate_described(pos, budget, None)?;
        Ok(self.list_found(&found))
    }

    /// Sorts legal moves of one position in the documented order of move lists (see
    /// [`Variant::describe`]), the order of [`Variant::list_moves`], without writing them
    /// out: for a front end that lists moves first and writes out only those it shows.
    pub fn sort_legal_moves(&self, moves: &mut [Move]) {
        moves.sort_by(|a, b| self.order_cmp(a, b));
    }

    /// Sorts described moves in the documented order (see [`Variant::describe`]).
    pub fn sort_moves(&self, moves: &mut [DescribedMove]) {
        moves.sort_by_cached_key(|d| self.order_key(&d.mv));
    }

    /// Describes every move of `found`, in the documented order of move lists: by start
    /// square, then end square ([`Variant::square_order`]), then the captured squares in
    /// that order (the fewest first when one set begins the other), then a move that crowns
    /// after one that does not; a pass comes last.
    pub(crate) fn describe(&self, found: &[Found]) -> Vec<DescribedMove> {
        let shared = shared_ends(found);
        let mut out: Vec<DescribedMove> = found
            .iter()
            .map(|f| self.describe_found(f, shared(f)))
            .collect();
        self.sort_moves(&mut out);
        out
    }

    /// The moves of `found` as a [`MoveList`], in the order of [`Variant::describe`].
    fn list_found(&self, found: &[Found]) -> MoveList {
        let shared = shared_ends(found);
        let mut list = MoveList {
            entries: Vec::with_capacity(found.len()),
            text: String::with_capacity(found.len() * 8),
            squares: Vec::with_capacity(found.len() * 3),
        };
        for f in found {
            self.list_one(f, shared(f), &mut list);
        }
        self.sort_entries(&mut list.entries);
        list
    }

    /// Sorts a list's entries in the order of `order_key` (stably, as
    /// `sort_by(order_cmp)` would): by a number of the start and end squares and the entry's
    /// place, then each run of entries sharing their start and end (moves that differ in
    /// what they capture or whether they crown) by `order_cmp`. Entries are moved once,
    /// not at every comparison.
    fn sort_entries(&self, entries: &mut Vec<Entry>) {
        if entries.len() < 2 {
            return;
        }
        let square = |c| u64::from(self.order_square(c));
        let mut keys: Vec<u64> = entries
            .iter()
            .enumerate()
            .map(|(i, e)| (square(e.mv.from()) << 48) | (square(e.mv.to()) << 32) | i as u64)
            .collect();
        keys.sort_unstable();
        let index = |k: &u64| (k & u64::from(u32::MAX)) as usize;
        // Moves with the same start and end, in place order: a stable sort keeps equal moves
        // as they came.
        for run in keys.chunk_by_mut(|a, b| a >> 32 == b >> 32) {
            if run.len() > 1 {
                run.sort_by(|a, b| self.order_cmp(&entries[index(a)].mv, &entries[index(b)].mv));
            }
        }
        if keys.iter().enumerate().all(|(i, k)| index(k) == i) {
            return; // in order already
        }
        let sorted: Vec<Entry> = keys.iter().map(|k| entries[index(k)].clone()).collect();
        *entries = sorted;
    }

    /// `order_key(a).cmp(&order_key(b))`, without a list unless `a` and `b` have the same
    /// start and end but not the same captured pieces.
    fn order_cmp(&self, a: &Move, b: &Move) -> std::cmp::Ordering {
        let square = |c| self.order_square(c);
        (square(a.from()), square(a.to()))
            .cmp(&(square(b.from()), square(b.to())))
            .then_with(|| {
                if a.captured() == b.captured() {
                    std::cmp::Ordering::Equal
                } else {
                    self.order_key(a).2.cmp(&self.order_key(b).2)
                }
            })
            .then(a.is_promotion().cmp(&b.is_promotion()))
    }

    /// Where a move comes in the documented order of move lists (see [`Variant::describe`]).
    fn order_key(&self, mv: &Move) -> (u16, u16, Vec<u16>, bool) {
        let square = |c| self.order_square(c);
        let mut captured: Vec<u16> = mv.captured().iter().map(|c| square(c as u8)).collect();
        captured.sort_unstable();
        (
            square(mv.from()),
            square(mv.to()),
            captured,
            mv.is_promotion(),
        )
    }

    /// Where a cell comes in move lists' order ([`Variant::square_order`]); no cell (a pass's
    /// ends) comes last.
    fn order_square(&self, c: u8) -> u16 {
        if c == crate::board::NONE {
            u16::MAX
        } else {
            self.square_order(c as usize)
        }
    }

    /// Describes `found[i]` (the others decide whether its short form is ambiguous).
    pub(super) fn describe_one(&self, found: &[Found], i: usize) -> DescribedMove {
        let f = &found[i];
        let shared = found
            .iter()
            .filter(|o| o.mv.from() == f.mv.from() && o.mv.to() == f.mv.to())
            .count()
            > 1;
        self.describe_found(f, shared)
    }

    /// Describes a move; `shared`: another legal move has the same start and end.
    fn describe_found(&self, f: &Found, shared: bool) -> DescribedMove {
        let route_len = f.route.as_ref().map_or(2, |r| r.jumps.len() + 1);
        let mut squares = Vec::with_capacity(2 * route_len);
        let mut long = String::with_capacity(4 * route_len);
        let parts = self.move_parts(f, shared, &mut squares, &mut long);
        let captured = squares.split_off(parts.route_len);
        let notation = match parts.short_at {
            Some(at) => long.split_off(at),
            None => long.clone(),
        };
        DescribedMove {
            mv: f.mv,
            notation,
            long,
            route: squares,
            captured,
        }
    }

    /// Appends a move to `list` (`shared`: another legal move has the same start and end).
    fn list_one(&self, f: &Found, shared: bool, list: &mut MoveList) {
        let (text_from, squares_from) = (list.text.len() as u32, list.squares.len() as u32);
        let parts = self.move_parts(f, shared, &mut list.squares, &mut list.text);
        let (text_end, squares_end) = (list.text.len() as u32, list.squares.len() as u32);
        let route_end = squares_from + parts.route_len as u32;
        let (long, notation) = match parts.short_at {
            Some(at) => {
                let at = text_from + at as u32;
                (text_from..at, at..text_end)
            }
            None => (text_from..text_end, text_from..text_end),
        };
        list.entries.push(Entry {
            mv: f.mv,
            notation,
            long,
            route: squares_from..route_end,
            captured: route_end..squares_end,
        });
    }

    /// Writes what describes a move: its route then its captured squares appended to
    /// `squares`, its long text then, when it differs, its canonical text appended to `text`
    /// (`shared`: another legal move has the same start and end, so it is written long).
    fn move_parts(
        &self,
        f: &Found,
        shared: bool,
        squares: &mut Vec<usize>,
        text: &mut String,
    ) -> MoveParts {
        let m = &f.mv;
        let squares_from = squares.len();
        let text_from = text.len();
        // An opening removal, a pass, a drop: one text, one square at most.
        let single = if m.is_removal() {
            Some(("x", Some(m.from()), true))
        } else if m.is_pass() {
            Some(("pass", None, false))
        } else if m.is_drop() {
            Some(("*", Some(m.to()), false))
        } else {
            None
        };
        if let Some((lead, square, captured)) = single {
            text.push_str(lead);
            if let Some(c) = square {
                text.push_str(self.square_str(c as usize));
                squares.push(c as usize);
                if captured {
                    squares.push(c as usize);
                }
            }
            return MoveParts {
                route_len: usize::from(square.is_some()),
                short_at: None,
            };
        }
        // A route with canters (leaps over the mover's own pieces, which it does not
        // capture): each landing is written after the separator of its own leap.
        let canters = f.route.as_ref().is_some_and(|r| {
            r.jumps
                .iter()
                .any(|j| !m.captured().contains(j.over as usize))
        });
        let route_len = match &f.route {
            Some(r) => {
                pdn_squares_onto(self.board(), r.from as usize, &r.jumps, squares);
                squares.extend(
                    r.jumps
                        .iter()
                        .map(|j| j.over as usize)
                        .filter(|&c| m.captured().contains(c)),
                );
                r.jumps.len() + 1
            }
            None => {
                squares.extend([m.from() as usize, m.to() as usize]);
                2
            }
        };
        let route = squares_from..squares_from + route_len;
        match &f.route {
            Some(r) if canters => {
                text.push_str(self.square_str(r.from as usize));
                for j in &r.jumps {
                    text.push(if m.captured().contains(j.over as usize) {
                        self.spec().capture_separator
                    } else {
                        '-'
                    });
                    text.push_str(self.square_str(j.to as usize));
                }
            }
            _ => self.write_squares(&squares[route], m.is_capture(), text),
        }
        if shared || route_len == 2 {
            return MoveParts {
                route_len,
                short_at: None,
            };
        }
        let short_at = text.len() - text_from;
        self.write_squares(&[m.from() as usize, m.to() as usize], m.is_capture(), text);
        MoveParts {
            route_len,
            short_at: Some(short_at),
        }
    }

    /// Writes squares as move text: their names joined by `-`, or by the capture separator.
    fn write_squares(&self, squares: &[usize], capture: bool, out: &mut String) {
        let sep = if capture {
            self.spec().capture_separator
        } else {
            '-'
        };
        for (i, &c) in squares.iter().enumerate() {
            if i > 0 {
                out.push(sep);
            }
            out.push_str(self.square_str(c));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::budget::Budget;

    /// [`Variant::sort_legal_moves`] puts the legal moves in the order of
    /// [`Variant::list_moves`], on the positions of a seeded random game of every variant.
    #[test]
    fn sorted_legal_moves_are_in_the_order_of_the_list() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut compared = 0;
        for v in crate::variants() {
            let mut pos = v.start();
            for _ in 0..80 {
                let budget = Budget::unlimited();
                let mut moves = v.legal_moves(&pos, &budget).unwrap();
                v.sort_legal_moves(&mut moves);
                let listed: Vec<_> = v
                    .list_moves(&pos, &budget)
                    .unwrap()
                    .iter()
                    .map(|d| d.mv)
                    .collect();
                assert_eq!(moves, listed, "{} {}", v.id(), v.fen(&pos));
                compared += 1;
                if moves.is_empty() {
                    break;
                }
                pos = v.play(&pos, &moves[(next() % moves.len() as u64) as usize]);
            }
        }
        assert!(compared > 1000, "{compared} positions compared");
    }
}
