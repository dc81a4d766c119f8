//! Stand-in for the service's endgame-table store (replaced by the real store): tables of up
//! to [`BUILTIN_PIECES`] pieces, built on first use and kept in memory.

use std::collections::HashMap;
use std::sync::Mutex;

use arbiter_rules::tables::{Material, Tables, Value};
use arbiter_rules::{Position, Variant};

/// Most pieces of a table built on first use.
pub const BUILTIN_PIECES: u32 = 4;

/// Why the tables could not be probed.
#[derive(Debug)]
pub struct TablesError(pub String);

impl std::fmt::Display for TablesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The endgame tables of the process, by variant id.
#[derive(Default)]
pub struct TableStore {
    tables: Mutex<HashMap<&'static str, Tables>>,
}

impl std::fmt::Debug for TableStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableStore").finish_non_exhaustive()
    }
}

impl TableStore {
    /// The value of `pos` for its side to move, building its table on first use (blocking);
    /// `Ok(None)` when it has more than [`BUILTIN_PIECES`] pieces.
    pub fn probe(
        &self,
        variant: &'static Variant,
        pos: &Position,
    ) -> Result<Option<Value>, TablesError> {
        let material = Material::of(pos);
        if material.pieces() > BUILTIN_PIECES {
            return Ok(None);
        }
        let mut all = self
            .tables
            .lock()
            .map_err(|_| TablesError("the table store is unusable".into()))?;
        let tables = match all.entry(variant.id()) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(Tables::new(variant).map_err(|u| TablesError(u.reason.to_string()))?)
            }
        };
        if let Some(value) = tables.probe(pos) {
            return Ok(Some(value));
        }
        tables
            .build(material, &mut |_| {})
            .map_err(|e| TablesError(e.to_string()))?;
        Ok(tables.probe(pos))
    }
}
