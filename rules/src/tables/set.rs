//! The tables of one variant, held by material, and probing them.

use std::collections::HashMap;
use std::sync::Arc;

use crate::material::Material;
use crate::position::{Color, Position};
use crate::variant::Variant;

use super::mirror::Mirror;
use super::table::{decided_value, supported, Table, Unsupported, Value};

/// The tables of one variant, by material (a clone shares the tables).
#[derive(Clone)]
pub struct Tables {
    pub(super) variant: &'static Variant,
    pub(super) map: HashMap<Material, Arc<Table>>,
    /// The variant's colour symmetry, if any: a material is then read off its mirror when
    /// that one is held.
    pub(super) mirror: Option<Mirror>,
}

impl Tables {
    /// An empty set of tables for `variant`.
    pub fn new(variant: &'static Variant) -> Result<Tables, Unsupported> {
        supported(variant)?;
        Ok(Tables {
            variant,
            map: HashMap::new(),
            mirror: Mirror::of(variant),
        })
    }

    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    /// Whether the variant has a colour symmetry, so that a material and its mirror share one
    /// solution.
    pub fn symmetric(&self) -> bool {
        self.mirror.is_some()
    }

    /// Adds a table of this variant (a table of another variant is ignored).
    pub fn insert(&mut self, table: Arc<Table>) {
        if table.variant.id() == self.variant.id() {
            self.map.insert(table.material, table);
        }
    }

    pub fn get(&self, m: &Material) -> Option<&Arc<Table>> {
        self.map.get(m)
    }

    /// The materials held, in build order.
    pub fn materials(&self) -> Vec<Material> {
        let mut v: Vec<Material> = self.map.keys().copied().collect();
        v.sort_by_key(|m| m.order_key());
        v
    }

    /// Memory the held tables take, in bytes.
    pub fn bytes(&self) -> usize {
        self.map.values().map(|t| t.bytes()).sum()
    }

    /// The value of `pos` for its side to move: from its material's table, or at once when the
    /// game is already over (an end rule decides it, a side has no piece). `None` when the
    /// table of its material is missing.
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        let m = super::material_of(self.variant, pos);
        if m.side(Color::White) == 0 || m.side(Color::Black) == 0 || self.variant.decided(pos) {
            return Some(decided_value(self.variant, pos));
        }
        self.map.get(&m)?.probe(pos)
    }
}
