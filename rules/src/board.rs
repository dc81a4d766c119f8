//! Board geometry as data: cells, their coordinates and names, and the direction links between
//! them.
//!
//! Every board is a graph: a set of cells, each with up to [`DIRS`] named neighbours. A jump is
//! "over the next cell, onto the one after, in the same direction", so move generators never
//! look at coordinates, only at the link tables built here. Square boards are the common case
//! and are built by [`Board::checkered`] / [`Board::full`]; irregular boards can be built from
//! an explicit list of cells and links with [`Board::from_links`].

use crate::bits::{Bits, MAX_CELLS};

/// Number of direction slots per cell.
pub const DIRS: usize = 8;
/// Marker for "no cell" in the link tables.
pub const NONE: u8 = u8::MAX;

/// A direction on the board, named from White's side (north = towards Black).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Dir {
    NorthEast = 0,
    NorthWest = 1,
    SouthEast = 2,
    SouthWest = 3,
    North = 4,
    South = 5,
    East = 6,
    West = 7,
}

impl Dir {
    pub const ALL: [Dir; DIRS] = [
        Dir::NorthEast,
        Dir::NorthWest,
        Dir::SouthEast,
        Dir::SouthWest,
        Dir::North,
        Dir::South,
        Dir::East,
        Dir::West,
    ];

    /// The direction pointing the other way.
    pub const fn opposite(self) -> Dir {
        match self {
            Dir::NorthEast => Dir::SouthWest,
            Dir::NorthWest => Dir::SouthEast,
            Dir::SouthEast => Dir::NorthWest,
            Dir::SouthWest => Dir::NorthEast,
            Dir::North => Dir::South,
            Dir::South => Dir::North,
            Dir::East => Dir::West,
            Dir::West => Dir::East,
        }
    }

    /// The same direction seen from the other side of the board (north and south swapped).
    pub const fn flipped(self) -> Dir {
        match self {
            Dir::NorthEast => Dir::SouthEast,
            Dir::NorthWest => Dir::SouthWest,
            Dir::SouthEast => Dir::NorthEast,
            Dir::SouthWest => Dir::NorthWest,
            Dir::North => Dir::South,
            Dir::South => Dir::North,
            d => d,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Dir::NorthEast => "north-east",
            Dir::NorthWest => "north-west",
            Dir::SouthEast => "south-east",
            Dir::SouthWest => "south-west",
            Dir::North => "north",
            Dir::South => "south",
            Dir::East => "east",
            Dir::West => "west",
        }
    }

    const fn unit(self) -> (i32, i32) {
        match self {
            Dir::NorthEast => (1, 1),
            Dir::NorthWest => (-1, 1),
            Dir::SouthEast => (1, -1),
            Dir::SouthWest => (-1, -1),
            Dir::North => (0, 1),
            Dir::South => (0, -1),
            Dir::East => (1, 0),
            Dir::West => (-1, 0),
        }
    }
}

/// A set of directions, as a bit mask over [`Dir`] indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct DirSet(pub u8);

impl DirSet {
    pub const NONE: DirSet = DirSet(0);
    pub const DIAGONAL: DirSet = DirSet(0b0000_1111);
    pub const ORTHOGONAL: DirSet = DirSet(0b1111_0000);
    pub const ALL: DirSet = DirSet(0xff);
    pub const DIAGONAL_NORTH: DirSet = DirSet(0b0000_0011);
    pub const DIAGONAL_SOUTH: DirSet = DirSet(0b0000_1100);

    pub const fn of(dirs: &[Dir]) -> DirSet {
        let mut m = 0u8;
        let mut i = 0;
        while i < dirs.len() {
            m |= 1 << dirs[i] as u8;
            i += 1;
        }
        DirSet(m)
    }

    pub const fn union(self, o: DirSet) -> DirSet {
        DirSet(self.0 | o.0)
    }

    pub const fn contains(self, d: Dir) -> bool {
        self.0 & (1 << d as u8) != 0
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The set seen from the other side of the board.
    pub fn flipped(self) -> DirSet {
        DirSet(self.iter().fold(0, |m, d| m | 1 << d.flipped() as u8))
    }

    #[inline(always)]
    pub fn iter(self) -> DirIter {
        DirIter(self.0)
    }

    /// Human-readable list of the directions.
    pub fn describe(self) -> String {
        if self == DirSet::DIAGONAL {
            return "all four diagonals".into();
        }
        if self == DirSet::ALL {
            return "all eight directions (diagonal and orthogonal)".into();
        }
        self.iter().map(Dir::name).collect::<Vec<_>>().join(", ")
    }
}

/// Iterator over the directions of a [`DirSet`].
pub struct DirIter(u8);

impl Iterator for DirIter {
    type Item = Dir;

    #[inline(always)]
    fn next(&mut self) -> Option<Dir> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(Dir::ALL[i])
    }
}

/// Which squares of a rectangular board are playable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Squares {
    /// The dark squares, a1 dark (the long diagonal starts at each player's left).
    DarkA1,
    /// The dark squares, a1 light (mirrored boards: Italian, Portuguese).
    LightA1,
    /// Every square.
    All,
    /// The squares of each rank from a first to a last file: `ranks[y] = (first, last)`,
    /// files counted from 0 (a square board with its corners cut, like the Camelot boards).
    /// Neighbours are adjacent, as on a full board.
    Ranks(&'static [(u8, u8)]),
}

/// Where square 1 lies, as seen by White, for numeric square names. Numbering always runs
/// along the rows (horizontally), away from that corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Corner {
    TopLeft,
    TopRight,
    BottomLeft,
    BottomRight,
}

/// Board geometry: cells, coordinates, names and link tables.
#[derive(Clone, Debug)]
pub struct Board {
    width: u8,
    height: u8,
    /// (x, y) of each cell id, with a1 = (0, 0), x to the right and y up as seen by White;
    /// `(NONE, NONE)` for unused ids.
    coords: Vec<(u8, u8)>,
    /// Number of cells.
    count: usize,
    shifts: Option<[i16; DIRS]>,
    /// `next[cell][dir]`: the neighbouring cell in that direction, or [`NONE`].
    next: Box<[[u8; DIRS]; 256]>,
    /// `jump[cell][dir]`: the neighbour and the cell after it, or [`NONE`]s.
    jump: Box<[[[u8; 2]; DIRS]; 256]>,
    /// Flattened rays: `rays[ray_at[cell][dir] ..]`, `ray_len[cell][dir]` cells long.
    rays: Vec<u8>,
    ray_at: Box<[[u16; DIRS]; 256]>,
    ray_len: Box<[[u8; DIRS]; 256]>,
    /// Cell at each (x, y), or [`NONE`].
    by_xy: Vec<u8>,
    all: Bits,
    /// Step-only links (Seth's arc): pairs of cells a step may join but no capture uses.
    step_only: Vec<(u8, u8)>,
}

impl Board {
    /// A W×H board whose playable squares are chosen by `squares`. On checkered boards the
    /// orthogonal neighbour of a square is two squares away (the next square of the same
    /// colour), on full boards it is adjacent.
    ///
    /// Cells are numbered in a padded row-major layout (with unused "ghost" ids past the end
    /// of each row) so that every direction is a constant id offset; move generators use that
    /// to move whole sets of men at once (see [`Board::shifts`]).
    pub fn checkered(width: u8, height: u8, squares: Squares) -> Board {
        let playable = |x: i32, y: i32| match squares {
            Squares::DarkA1 => (x + y) % 2 == 0,
            Squares::LightA1 => (x + y) % 2 == 1,
            Squares::All => true,
            Squares::Ranks(ranks) => ranks
                .get(y as usize)
                .is_some_and(|&(first, last)| (first as i32..=last as i32).contains(&x)),
        };
        let adjacent = matches!(squares, Squares::All | Squares::Ranks(_));
        let ortho = if adjacent { 1 } else { 2 };
        let (w, h) = (width as i32, height as i32);
        // Padded ids: three ghost columns on checkered boards (so that a two-column orthogonal
        // step off the edge lands on a ghost), one on full boards.
        let padded = |x: i32, y: i32| -> i32 {
            match squares {
                Squares::DarkA1 => ((w + 3) * y + x) / 2,
                Squares::LightA1 => ((w + 3) * y + x + 1) / 2,
                Squares::All | Squares::Ranks(_) => (w + 1) * y + x,
            }
        };
        let use_padding = (adjacent || width % 2 == 0)
            && (padded(w - 1, h - 1) as usize) < MAX_CELLS.min(NONE as usize);
        let mut coords: Vec<Option<(u8, u8)>> = Vec::new();
        for y in 0..h {
            for x in 0..w {
                if playable(x, y) {
                    let id = if use_padding {
                        padded(x, y) as usize
                    } else {
                        coords.len()
                    };
                    if coords.len() <= id {
                        coords.resize(id + 1, None);
                    }
                    coords[id] = Some((x as u8, y as u8));
                }
            }
        }
        let lookup = |x: i32, y: i32| -> Option<usize> {
            if x < 0 || y < 0 || x >= w || y >= h || !playable(x, y) {
                return None;
            }
            coords.iter().position(|&c| c == Some((x as u8, y as u8)))
        };
        let mut links = Vec::new();
        for (i, c) in coords.iter().enumerate() {
            let Some((x, y)) = *c else { continue };
            for d in Dir::ALL {
                let (mut dx, mut dy) = d.unit();
                if dx == 0 || dy == 0 {
                    dx *= ortho;
                    dy *= ortho;
                }
                if let Some(j) = lookup(x as i32 + dx, y as i32 + dy) {
                    links.push((i, d, j));
                }
            }
        }
        Board::from_links(width, height, coords, &links)
    }

    /// A W×H board on which every square is playable.
    pub fn full(width: u8, height: u8) -> Board {
        Board::checkered(width, height, Squares::All)
    }

    /// A board given as a graph: the coordinates of each cell id (`None` for an unused id;
    /// coordinates serve names and display only) and directed links `(from, direction, to)`.
    ///
    /// # Panics
    /// If there are more than [`MAX_CELLS`] ids or a link names a cell that does not exist.
    /// Boards are built from the catalogue, never from client input.
    pub fn from_links(
        width: u8,
        height: u8,
        coords: Vec<Option<(u8, u8)>>,
        links: &[(usize, Dir, usize)],
    ) -> Board {
        let n = coords.len();
        assert!(n <= MAX_CELLS && n < NONE as usize, "board too large");
        let all: Bits = (0..n).filter(|&c| coords[c].is_some()).collect();
        let mut next = Box::new([[NONE; DIRS]; 256]);
        for &(a, d, b) in links {
            assert!(all.contains(a) && all.contains(b), "link to a missing cell");
            next[a][d as usize] = b as u8;
        }
        let mut rays = Vec::new();
        let mut ray_at = Box::new([[0u16; DIRS]; 256]);
        let mut ray_len = Box::new([[0u8; DIRS]; 256]);
        for c in all.iter() {
            for d in 0..DIRS {
                ray_at[c][d] = rays.len() as u16;
                let mut cur = next[c][d];
                let mut len = 0u8;
                while cur != NONE && (len as usize) < n {
                    rays.push(cur);
                    len += 1;
                    cur = next[cur as usize][d];
                }
                ray_len[c][d] = len;
            }
        }
        let mut jump = Box::new([[[NONE; 2]; DIRS]; 256]);
        for c in all.iter() {
            for d in 0..DIRS {
                let over = next[c][d];
                if over != NONE && next[over as usize][d] != NONE {
                    jump[c][d] = [over, next[over as usize][d]];
                }
            }
        }
        // Constant id offsets per direction, if the ids allow them.
        let mut shifts = [i16::MAX; DIRS];
        let mut consistent = true;
        for d in 0..DIRS {
            let off = all
                .iter()
                .find(|&c| next[c][d] != NONE)
                .map(|c| next[c][d] as i32 - c as i32);
            let Some(off) = off else { continue };
            shifts[d] = off as i16;
            for c in all.iter() {
                let target = c as i32 + off;
                let expected = if target >= 0
                    && all.contains(target as usize % MAX_CELLS)
                    && (target as usize) < MAX_CELLS
                {
                    target as u8
                } else {
                    NONE
                };
                if next[c][d] != expected {
                    consistent = false;
                }
            }
        }
        let mut by_xy = vec![NONE; width as usize * height as usize];
        for (i, c) in coords.iter().enumerate() {
            if let Some((x, y)) = *c {
                by_xy[y as usize * width as usize + x as usize] = i as u8;
            }
        }
        Board {
            width,
            height,
            all,
            count: all.len() as usize,
            coords: coords
                .into_iter()
                .map(|c| c.unwrap_or((NONE, NONE)))
                .collect(),
            next,
            jump,
            rays,
            ray_at,
            ray_len,
            by_xy,
            shifts: consistent.then_some(shifts),
            step_only: Vec::new(),
        }
    }

    /// The same board with step-only links (undirected pairs of cells): a non-capturing
    /// move may go along them, a capture never does.
    ///
    /// # Panics
    /// If a pair names a cell that does not exist (boards are catalogue data).
    pub fn with_step_only(mut self, pairs: &[(usize, usize)]) -> Board {
        for &(a, b) in pairs {
            assert!(
                self.all.contains(a) && self.all.contains(b),
                "link to a missing cell"
            );
            self.step_only.push((a as u8, b as u8));
        }
        if !pairs.is_empty() {
            // Whole-set steps along the directions would miss these links.
            self.shifts = None;
        }
        self
    }

    /// The step-only links, as undirected pairs of cells.
    pub fn step_only(&self) -> &[(u8, u8)] {
        &self.step_only
    }

    /// The cells a step-only link joins to `cell`.
    pub fn step_only_from(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        self.step_only.iter().filter_map(move |&(a, b)| {
            if a as usize == cell {
                Some(b as usize)
            } else if b as usize == cell {
                Some(a as usize)
            } else {
                None
            }
        })
    }

    /// Constant id offsets per direction (`i16::MAX` for a direction without links), when
    /// every link of the board follows them: `next(c, d) == c + shift[d]` whenever that is a
    /// cell, and no link otherwise. Sets of cells can then be moved with one shift.
    #[inline(always)]
    pub fn shifts(&self) -> Option<&[i16; DIRS]> {
        self.shifts.as_ref()
    }

    pub fn width(&self) -> u8 {
        self.width
    }

    pub fn height(&self) -> u8 {
        self.height
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// One more than the largest cell id.
    pub fn id_bound(&self) -> usize {
        self.coords.len()
    }

    /// All cells of the board.
    pub fn cells(&self) -> Bits {
        self.all
    }

    /// The neighbour of `cell` in direction `d`, or [`NONE`].
    #[inline(always)]
    pub fn next(&self, cell: usize, d: Dir) -> u8 {
        self.next[cell as u8 as usize][d as usize]
    }

    /// The neighbour of `cell` in direction `d` and the cell after it, or `[NONE, NONE]`
    /// when either does not exist.
    #[inline(always)]
    pub fn jump(&self, cell: usize, d: Dir) -> [u8; 2] {
        self.jump[cell as u8 as usize][d as usize]
    }

    /// The cells met going from `cell` in direction `d`, nearest first (not including `cell`).
    #[inline(always)]
    pub fn ray(&self, cell: usize, d: Dir) -> &[u8] {
        let c = cell as u8 as usize;
        let at = self.ray_at[c][d as usize] as usize;
        &self.rays[at..at + self.ray_len[c][d as usize] as usize]
    }

    /// (x, y) of a cell, a1 = (0, 0).
    pub fn xy(&self, cell: usize) -> (u8, u8) {
        self.coords[cell]
    }

    /// The cell at (x, y), if it is playable.
    pub fn at(&self, x: i32, y: i32) -> Option<usize> {
        if x < 0 || y < 0 || x >= self.width as i32 || y >= self.height as i32 {
            return None;
        }
        match self.by_xy[y as usize * self.width as usize + x as usize] {
            NONE => None,
            c => Some(c as usize),
        }
    }

    /// The direction leading from `a` to `b` along a straight line of links, if any.
    pub fn direction(&self, a: usize, b: usize) -> Option<Dir> {
        Dir::ALL
            .into_iter()
            .find(|&d| self.ray(a, d).contains(&(b as u8)))
    }

    /// The cells of a row (rank), counted from White's side (0 = rank 1).
    pub fn rank(&self, y: u8) -> Bits {
        self.all.iter().filter(|&c| self.coords[c].1 == y).collect()
    }

    /// Algebraic name of a cell: file letter and rank number from White's side (`a1`).
    pub fn algebraic(&self, cell: usize) -> String {
        let (x, y) = self.coords[cell];
        format!("{}{}", (b'a' + x) as char, y as u32 + 1)
    }

    /// The cell with an algebraic name (`a1`, `j10`), if it is playable: the inverse of
    /// [`Board::algebraic`].
    pub fn parse_algebraic(&self, s: &str) -> Option<usize> {
        let mut chars = s.chars();
        let file = chars.next()?.to_ascii_lowercase();
        if !file.is_ascii_lowercase() {
            return None;
        }
        let rank = chars.as_str();
        if rank.is_empty() || rank.len() > 3 || !rank.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let y: i32 = rank.parse().ok()?;
        self.at(file as i32 - 'a' as i32, y - 1)
    }

    /// Numeric names for every cell: 1.. along the rows, starting at `origin` as seen by White.
    pub fn numbering(&self, origin: Corner) -> Vec<u16> {
        let mut order: Vec<usize> = self.all.iter().collect();
        let key = |c: &usize| {
            let (x, y) = self.coords[*c];
            let row = match origin {
                Corner::TopLeft | Corner::TopRight => self.height - 1 - y,
                Corner::BottomLeft | Corner::BottomRight => y,
            };
            let col = match origin {
                Corner::TopLeft | Corner::BottomLeft => x,
                Corner::TopRight | Corner::BottomRight => self.width - 1 - x,
            };
            (row, col)
        };
        order.sort_by_key(key);
        let mut names = vec![0u16; self.id_bound()];
        for (i, c) in order.into_iter().enumerate() {
            names[c] = i as u16 + 1;
        }
        names
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn international_geometry() {
        let b = Board::checkered(10, 10, Squares::DarkA1);
        assert_eq!(b.len(), 50);
        let names = b.numbering(Corner::TopLeft);
        let cell = |n: u16| names.iter().position(|&m| m == n).unwrap();
        assert_eq!(b.algebraic(cell(1)), "b10");
        assert_eq!(b.algebraic(cell(5)), "j10");
        assert_eq!(b.algebraic(cell(6)), "a9");
        assert_eq!(b.algebraic(cell(46)), "a1");
        assert_eq!(b.algebraic(cell(50)), "i1");
        // 28 -> 18 is "up" orthogonally on the dark squares (Frisian).
        assert_eq!(b.next(cell(28), Dir::North) as usize, cell(18));
        assert_eq!(b.ray(cell(46), Dir::NorthEast).len(), 9);
        assert_eq!(b.next(cell(46), Dir::SouthWest), NONE);
    }

    #[test]
    fn eight_by_eight_layouts() {
        let std = Board::checkered(8, 8, Squares::DarkA1);
        let n = std.numbering(Corner::TopLeft);
        let name = |b: &Board, names: &[u16], k: u16| {
            b.algebraic(names.iter().position(|&m| m == k).unwrap())
        };
        assert_eq!(name(&std, &n, 1), "b8");
        assert_eq!(name(&std, &n, 5), "a7");
        assert_eq!(name(&std, &n, 29), "a1");
        assert_eq!(name(&std, &n, 32), "g1");
        let it = Board::checkered(8, 8, Squares::LightA1);
        let n = it.numbering(Corner::TopLeft);
        assert_eq!(name(&it, &n, 1), "a8");
        assert_eq!(name(&it, &n, 32), "h1");
        let n = it.numbering(Corner::BottomRight);
        assert_eq!(name(&it, &n, 1), "h1");
        assert_eq!(name(&it, &n, 5), "g2");
        assert_eq!(name(&it, &n, 32), "a8");
    }
}
