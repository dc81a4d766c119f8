//! Placeholder for the endgame tables (replaced by the real module).

use crate::position::{Color, Kind, Position, KINDS};
use crate::variant::Variant;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    pub counts: [[u8; KINDS]; 2],
}

impl Material {
    pub fn of(pos: &Position) -> Material {
        let mut counts = [[0u8; KINDS]; 2];
        for c in [Color::White, Color::Black] {
            for k in Kind::ALL {
                counts[c as usize][k as usize] = pos.pieces(c, k).len() as u8;
            }
        }
        Material { counts }
    }
    pub fn pieces(&self) -> u32 {
        self.counts.iter().flatten().map(|&n| n as u32).sum()
    }
    pub fn name(&self) -> String {
        let side = |c: usize| {
            let mut s = String::new();
            for (k, ch) in [(1, 'K'), (0, 'M'), (2, 'P')] {
                for _ in 0..self.counts[c][k] {
                    s.push(ch);
                }
            }
            s
        };
        format!("{}v{}", side(0), side(1))
    }
}

impl std::fmt::Display for Material {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Win(u16),
    Draw,
    Loss(u16),
}

impl Value {
    pub fn category(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Draw => "draw",
            Value::Loss(_) => "loss",
        }
    }
    pub fn plies(self) -> Option<u16> {
        match self {
            Value::Win(n) | Value::Loss(n) => Some(n),
            Value::Draw => None,
        }
    }
}

pub struct Unsupported {
    pub reason: &'static str,
}

pub fn supported(variant: &Variant) -> Result<(), Unsupported> {
    if variant.id() == "frisian" {
        return Err(Unsupported {
            reason: "placeholder",
        });
    }
    Ok(())
}
