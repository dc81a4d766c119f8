//! The material of a position: its pieces counted by colour and kind (`KKvK`), as the
//! endgame tables ([`crate::tables`]) are built and the judge ([`crate::outcome`]) reports
//! them.

use std::fmt;

use crate::position::{Color, Kind, Position, KINDS};

/// Largest number of pieces of one colour and kind a material may count: the endgame tables
/// number the positions of each such group of pieces up to this size.
pub const MAX_GROUP: usize = 8;

/// The pieces of a position, counted by colour and kind: `counts[color][kind]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    pub counts: [[u8; KINDS]; 2],
}

/// The letter of each kind in a material's name, in the order they are written.
const LETTERS: [(Kind, char); KINDS] = [
    (Kind::King, 'K'),
    (Kind::Man, 'M'),
    (Kind::Parachutist, 'P'),
    (Kind::Knight, 'N'),
];

impl Material {
    /// The material of a position.
    pub fn of(pos: &Position) -> Material {
        let mut counts = [[0u8; KINDS]; 2];
        for c in Color::BOTH {
            for k in Kind::ALL {
                counts[c as usize][k as usize] = pos.count(c, k) as u8;
            }
        }
        Material { counts }
    }

    /// Number of pieces on the board.
    pub fn pieces(&self) -> u32 {
        self.counts.iter().flatten().map(|&n| u32::from(n)).sum()
    }

    /// Number of pieces of one side.
    pub fn side(&self, color: Color) -> u32 {
        self.counts[color as usize]
            .iter()
            .map(|&n| u32::from(n))
            .sum()
    }

    /// Number of pieces that are not kings (men, parachutists): a promotion lowers it.
    pub(crate) fn unpromoted(&self) -> u32 {
        self.pieces() - self.count(Color::White, Kind::King) - self.count(Color::Black, Kind::King)
    }

    pub fn count(&self, color: Color, kind: Kind) -> u32 {
        u32::from(self.counts[color as usize][kind as usize])
    }

    /// The name: White's pieces, `v`, Black's; `K` a king, `M` a man, `P` a parachutist,
    /// kings first ("KKvK", "KMvK").
    pub fn name(&self) -> String {
        let mut s = String::new();
        for c in Color::BOTH {
            if c == Color::Black {
                s.push('v');
            }
            for (k, letter) in LETTERS {
                for _ in 0..self.count(c, k) {
                    s.push(letter);
                }
            }
        }
        s
    }

    /// Reads a name written like [`Material::name`] (the letters of a side in any order).
    pub fn parse(s: &str) -> Option<Material> {
        let (white, black) = s.split_once('v')?;
        let mut counts = [[0u8; KINDS]; 2];
        for (c, text) in [(Color::White, white), (Color::Black, black)] {
            for ch in text.chars() {
                let (k, _) = LETTERS.iter().find(|(_, l)| *l == ch)?;
                let n = &mut counts[c as usize][*k as usize];
                *n = n.checked_add(1)?;
                if usize::from(*n) > MAX_GROUP {
                    return None;
                }
            }
        }
        Some(Material { counts })
    }

    /// The material with the colours exchanged.
    pub fn mirrored(&self) -> Material {
        Material {
            counts: [self.counts[1], self.counts[0]],
        }
    }

    /// Build order: fewer pieces first, then fewer men (a promotion leads to a material with
    /// one man fewer and the same number of pieces).
    pub(crate) fn order_key(&self) -> (u32, u32, String) {
        (self.pieces(), self.unpromoted(), self.name())
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}
