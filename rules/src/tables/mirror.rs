//! The colour symmetry of a variant: a map of the board that turns White's pieces, moves,
//! promotion squares and goals into Black's. Where a variant has one, a material's values
//! follow from those of its mirror (two white kings against a black king from a white king
//! against two black kings), so only one of the two is solved.

use crate::bits::Bits;
use crate::board::{Dir, DirSet, NONE};
use crate::material::Material;
use crate::position::{Color, Kind, KingRun, Position, KINDS};
use crate::variant::Variant;

use super::numbering::Numbering;
use super::table::{Packed, RuleCodes, Table};

/// A cell map that exchanges the two sides' roles.
#[derive(Clone)]
pub(crate) struct Mirror {
    cell: Vec<u8>,
}

impl Mirror {
    /// The variant's colour symmetry, if it has one: the board turned upside down (north and
    /// south exchanged) or turned half round, whichever carries every link, step-only link,
    /// move and capture direction, promotion square and goal of White onto Black's.
    pub(crate) fn of(variant: &Variant) -> Option<Mirror> {
        let board = variant.board();
        let (w, h) = (i32::from(board.width()), i32::from(board.height()));
        // Upside down (north and south exchanged), then half round.
        for half_turn in [false, true] {
            let dir = |d: Dir| if half_turn { d.opposite() } else { d.flipped() };
            let mut cell = vec![NONE; board.id_bound()];
            let mut whole = true;
            for c in board.cells().iter() {
                let (x, y) = board.xy(c);
                let (x, y) = (i32::from(x), i32::from(y));
                let x = if half_turn { w - 1 - x } else { x };
                match board.at(x, h - 1 - y) {
                    Some(m) => cell[c] = m as u8,
                    None => whole = false,
                }
            }
            let m = Mirror { cell };
            if whole && m.carries(variant, &dir) {
                return Some(m);
            }
        }
        None
    }

    fn carries(&self, variant: &Variant, dir: &dyn Fn(Dir) -> Dir) -> bool {
        let board = variant.board();
        let f = |c: u8| {
            if c == NONE {
                NONE
            } else {
                self.cell[c as usize]
            }
        };
        let links = board.cells().iter().all(|c| {
            Dir::ALL
                .into_iter()
                .all(|d| board.next(f(c as u8) as usize, dir(d)) == f(board.next(c, d)))
        });
        let mut pairs: Vec<(u8, u8)> = board
            .step_only()
            .iter()
            .map(|&(a, b)| (a.min(b), a.max(b)))
            .collect();
        let mut mapped: Vec<(u8, u8)> = board
            .step_only()
            .iter()
            .map(|&(a, b)| (f(a).min(f(b)), f(a).max(f(b))))
            .collect();
        pairs.sort_unstable();
        mapped.sort_unstable();
        let dirs = |s: DirSet| DirSet(s.iter().fold(0, |m, d| m | 1 << dir(d) as u8));
        let pieces = Kind::ALL.into_iter().all(|k| {
            let pr = variant.rules().piece(k);
            dirs(pr.moves[0]) == pr.moves[1] && dirs(pr.captures[0]) == pr.captures[1]
        });
        let promotion =
            self.cells(variant.promotion(Color::White)) == variant.promotion(Color::Black);
        let goals = variant
            .end_cells()
            .iter()
            .all(|[a, b]| self.cells(*a) == *b && self.cells(*b) == *a);
        links && pairs == mapped && pieces && promotion && goals
    }

    fn cells(&self, b: Bits) -> Bits {
        b.iter().map(|c| self.cell[c] as usize).collect()
    }

    /// The table of `material` read off the table of its mirror, index by index in order:
    /// each group's ranks are mapped once to the mirror's (times its stride), so an index's
    /// mirror is a sum.
    pub(crate) fn table(
        &self,
        variant: &'static Variant,
        material: Material,
        numbering: Numbering,
        of: &Table,
    ) -> Table {
        let (Some(indexer), Some(of_ix)) = (numbering.pieces(), of.numbering.pieces()) else {
            return self.table_by_positions(variant, material, numbering, of);
        };
        if indexer.has_runs() {
            return self.table_by_positions(variant, material, numbering, of);
        }
        const BARRED: u64 = u64::MAX;
        let n = indexer.groups();
        let maps: Vec<Vec<u64>> = (0..n)
            .map(|g| {
                let (color, kind) = indexer.group_key(g);
                let Some(h) = of_ix.group(color.opponent(), kind) else {
                    return vec![BARRED; indexer.group_size(g) as usize];
                };
                let stride = of_ix.stride(h);
                (0..indexer.group_size(g))
                    .map(|r| {
                        let cells = self.cells(indexer.group_cells(g, r));
                        of_ix.rank(h, cells).map_or(BARRED, |r| r * stride)
                    })
                    .collect()
            })
            .collect();
        let mut codes: Vec<u16> = Vec::with_capacity(indexer.size() as usize);
        let mut digits = vec![0usize; n];
        loop {
            let mut base = 0u64;
            for g in 0..n {
                let m = maps[g][digits[g]];
                if m == BARRED {
                    base = BARRED;
                    break;
                }
                base += m;
            }
            for side in 0..2u64 {
                // White to move here is Black to move in the mirror.
                codes.push(if base == BARRED {
                    0
                } else {
                    of.code(base + (1 - side)) as u16
                });
            }
            // The next digits, the last group fastest (the index's own order).
            let mut g = n;
            loop {
                if g == 0 {
                    return Table::from_codes(variant, material, numbering, &codes);
                }
                g -= 1;
                digits[g] += 1;
                if (digits[g] as u64) < indexer.group_size(g) {
                    break;
                }
                digits[g] = 0;
            }
        }
    }
}

impl Mirror {
    /// The position `pos` mirrored: cells mapped, colours and side to move exchanged, each
    /// side's state (king runs, stones in hand, castle moves, last moves) given to the other.
    fn position(&self, pos: &Position) -> Position {
        let mut sets = [[Bits::EMPTY; KINDS]; 2];
        for c in Color::BOTH {
            for k in Kind::ALL {
                sets[1 - c as usize][k as usize] = self.cells(pos.pieces(c, k));
            }
        }
        let mut q = Position::of_pieces(pos.side().opponent(), sets);
        for c in Color::BOTH {
            let r = pos.king_run(c);
            if r.count > 0 {
                q.king_run[1 - c as usize] = KingRun {
                    cell: self.cell[r.cell as usize],
                    count: r.count,
                };
            }
            let o = 1 - c as usize;
            q.hand[o] = pos.hand(c);
            q.castle_moves[o] = pos.castle_moves(c);
            if let Some((from, to)) = pos.last_move(c) {
                q.last[o] = [self.cell[from], self.cell[to]];
            }
        }
        q
    }

    /// Whether the variant's draw rules are carried too: the squares an endgame rule names
    /// (FMJD-64's main road, the Portuguese rio) map onto themselves, so that the values
    /// under the counting rules of a material follow from its mirror's as well.
    pub(crate) fn carries_draws(&self, variant: &Variant) -> bool {
        variant
            .draw_cells()
            .iter()
            .all(|[a, b]| self.cells(*a) == *a && self.cells(*b) == *b)
    }

    /// The values under the counting rules of the material numbered by `numbering`, read off
    /// those of its mirror `of` (position by position; the digit of a conditional count is
    /// the same in both).
    pub(crate) fn rules(
        &self,
        variant: &Variant,
        numbering: &Numbering,
        of: &Table,
    ) -> Option<RuleCodes> {
        let theirs = of.rules.as_ref()?;
        let digits = theirs.digits;
        let mut codes = vec![0u16; (numbering.size() * digits) as usize];
        for i in 0..numbering.size() {
            let Some(pos) = numbering.position(variant, i) else {
                continue;
            };
            let j = of.numbering.index(&self.position(&pos))?;
            for d in 0..digits {
                codes[(i * digits + d) as usize] = theirs.packed.get(j * digits + d) as u16;
            }
        }
        Some(RuleCodes {
            digits,
            packed: Packed::of(&codes),
        })
    }

    /// [`Mirror::table`] for positions with more than pieces (king runs, stones in hand,
    /// castle moves, last moves): each index's position is mirrored (cells, colours, and
    /// each side's state given to the other) and looked up in `of`. Slower than the sums of
    /// ranks, and only those materials need it.
    fn table_by_positions(
        &self,
        variant: &'static Variant,
        material: Material,
        numbering: Numbering,
        of: &Table,
    ) -> Table {
        let codes: Vec<u16> = (0..numbering.size())
            .map(|i| {
                let Some(pos) = numbering.position(variant, i) else {
                    return 0;
                };
                of.numbering
                    .index(&self.position(&pos))
                    .map_or(0, |j| of.code(j) as u16)
            })
            .collect();
        Table::from_codes(variant, material, numbering, &codes)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{counted_rules, solve, Tables};
    use super::*;

    /// The table of `m` solved directly, with its values under the counting rules when the
    /// variant counts (as [`Tables::build`] gives them to a table it solves).
    fn solved(v: &'static Variant, m: Material, tables: &Tables) -> Table {
        let mut t = solve(v, m, tables, &mut |_| {}).unwrap();
        if counted_rules(v) {
            let ix = t.numbering.pieces().unwrap();
            let codes = super::super::counted::solve_rules(v, m, ix, tables, &mut |_| {});
            t.rules = Some(codes.unwrap());
            t.model = Some(super::super::clocks::Model::of(v, &m));
        }
        t
    }

    /// A table read off its mirror equals the one solved directly.
    #[test]
    fn mirrored_tables_are_the_solved_ones() {
        for (id, name) in [
            ("english", "KvKM"),
            ("international", "MvKM"),
            ("turkish", "MvKK"),
            ("alquerque", "MvMM"),
        ] {
            let v = crate::variant(id).unwrap();
            let mut tables = Tables::new(v).unwrap();
            assert!(tables.symmetric(), "{id}");
            let m = Material::parse(name).unwrap();
            tables.build(m, &mut |_| {}).unwrap();
            let solved = solved(v, m, &tables);
            let read = tables.get(&m).unwrap();
            assert_eq!(solved.to_bytes(), read.to_bytes(), "{id} {name}");
        }
        // With king runs: a white king and man against a king, then its mirror.
        let v = crate::variant("frisian").unwrap();
        let mut tables = Tables::new(v).unwrap();
        assert!(tables.symmetric());
        let m = Material::parse("KMvK").unwrap();
        tables.build(m, &mut |_| {}).unwrap();
        let built = tables.build(m.mirrored(), &mut |_| {}).unwrap();
        assert!(built.contains(&m.mirrored()));
        let solved = solved(v, m.mirrored(), &tables);
        let read = tables.get(&m.mirrored()).unwrap();
        assert_eq!(solved.stats(), read.stats());
        assert_eq!(solved.to_bytes(), read.to_bytes(), "frisian KvKM");
        // Not every variant is symmetric: one-way checkers' pieces all move one way.
        let v = crate::variant("one-way").unwrap();
        assert!(!Tables::new(v).unwrap().symmetric());
    }
}
