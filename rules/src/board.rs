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
    pub fn iter(self) -> impl Iterator<Item = Dir> {
        let m = self.0;
        Dir::ALL
            .into_iter()
            .filter(move |d| m & (1 << *d as u8) != 0)
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

/// Which squares of a rectangular board are playable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Squares {
    /// The dark squares, a1 dark (the long diagonal starts at each player's left).
    DarkA1,
    /// The dark squares, a1 light (mirrored boards: Italian, Portuguese).
    LightA1,
    /// Every square.
    All,
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
    /// (x, y) of each cell, with a1 = (0, 0), x to the right and y up as seen by White.
    coords: Vec<(u8, u8)>,
    /// `next[cell][dir]`: the neighbouring cell in that direction, or [`NONE`].
    next: Vec<[u8; DIRS]>,
    /// Flattened rays: `rays[ray_at[cell][dir] ..]`, `ray_len[cell][dir]` cells long.
    rays: Vec<u8>,
    ray_at: Vec<[u16; DIRS]>,
    ray_len: Vec<[u8; DIRS]>,
    /// Cell at each (x, y), or [`NONE`].
    by_xy: Vec<u8>,
    all: Bits,
}

impl Board {
    /// A W×H board whose playable squares are chosen by `squares`. On checkered boards the
    /// orthogonal neighbour of a square is two squares away (the next square of the same
    /// colour), on full boards it is adjacent.
    pub fn checkered(width: u8, height: u8, squares: Squares) -> Board {
        let playable = |x: i32, y: i32| match squares {
            Squares::DarkA1 => (x + y) % 2 == 0,
            Squares::LightA1 => (x + y) % 2 == 1,
            Squares::All => true,
        };
        let ortho = if squares == Squares::All { 1 } else { 2 };
        let mut cells = Vec::new();
        for y in 0..height as i32 {
            for x in 0..width as i32 {
                if playable(x, y) {
                    cells.push((x as u8, y as u8));
                }
            }
        }
        let lookup = |x: i32, y: i32| -> Option<usize> {
            if x < 0 || y < 0 || x >= width as i32 || y >= height as i32 || !playable(x, y) {
                return None;
            }
            cells.iter().position(|&c| c == (x as u8, y as u8))
        };
        let mut links = Vec::new();
        for (i, &(x, y)) in cells.iter().enumerate() {
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
        Board::from_links(width, height, cells, &links)
    }

    /// A W×H board on which every square is playable.
    pub fn full(width: u8, height: u8) -> Board {
        Board::checkered(width, height, Squares::All)
    }

    /// A board given as a graph: cells with coordinates (used for names and display only) and
    /// directed links `(from, direction, to)`.
    ///
    /// # Panics
    /// If there are more than [`MAX_CELLS`] cells or a link names a cell that does not exist.
    /// Boards are built from the catalogue, never from client input.
    pub fn from_links(
        width: u8,
        height: u8,
        coords: Vec<(u8, u8)>,
        links: &[(usize, Dir, usize)],
    ) -> Board {
        let n = coords.len();
        assert!(n <= MAX_CELLS && n < NONE as usize, "board too large");
        let mut next = vec![[NONE; DIRS]; n];
        for &(a, d, b) in links {
            assert!(a < n && b < n, "link to a missing cell");
            next[a][d as usize] = b as u8;
        }
        let mut rays = Vec::new();
        let mut ray_at = vec![[0u16; DIRS]; n];
        let mut ray_len = vec![[0u8; DIRS]; n];
        for c in 0..n {
            for d in 0..DIRS {
                ray_at[c][d] = rays.len() as u16;
                let mut cur = next[c][d];
                let mut len = 0u8;
                while cur != NONE && len < n as u8 {
                    rays.push(cur);
                    len += 1;
                    cur = next[cur as usize][d];
                }
                ray_len[c][d] = len;
            }
        }
        let mut by_xy = vec![NONE; width as usize * height as usize];
        for (i, &(x, y)) in coords.iter().enumerate() {
            by_xy[y as usize * width as usize + x as usize] = i as u8;
        }
        Board {
            width,
            height,
            all: (0..n).collect(),
            coords,
            next,
            rays,
            ray_at,
            ray_len,
            by_xy,
        }
    }

    pub fn width(&self) -> u8 {
        self.width
    }

    pub fn height(&self) -> u8 {
        self.height
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.coords.len()
    }

    pub fn is_empty(&self) -> bool {
        self.coords.is_empty()
    }

    /// All cells of the board.
    pub fn cells(&self) -> Bits {
        self.all
    }

    /// The neighbour of `cell` in direction `d`, or [`NONE`].
    #[inline(always)]
    pub fn next(&self, cell: usize, d: Dir) -> u8 {
        self.next[cell][d as usize]
    }

    /// The cells met going from `cell` in direction `d`, nearest first (not including `cell`).
    #[inline(always)]
    pub fn ray(&self, cell: usize, d: Dir) -> &[u8] {
        let at = self.ray_at[cell][d as usize] as usize;
        &self.rays[at..at + self.ray_len[cell][d as usize] as usize]
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
        (0..self.len()).filter(|&c| self.coords[c].1 == y).collect()
    }

    /// Algebraic name of a cell: file letter and rank number from White's side (`a1`).
    pub fn algebraic(&self, cell: usize) -> String {
        let (x, y) = self.coords[cell];
        format!("{}{}", (b'a' + x) as char, y as u32 + 1)
    }

    /// Numeric names for every cell: 1.. along the rows, starting at `origin` as seen by White.
    pub fn numbering(&self, origin: Corner) -> Vec<u16> {
        let mut order: Vec<usize> = (0..self.len()).collect();
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
        let mut names = vec![0u16; self.len()];
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
