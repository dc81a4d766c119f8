//! Stand-in for the service's endgame-table store (replaced by the real store).

use arbiter_rules::tables::Value;
use arbiter_rules::{Position, Variant};

/// Why the tables could not be probed.
#[derive(Debug)]
pub struct TablesError(pub String);

impl std::fmt::Display for TablesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The endgame tables of the process.
#[derive(Debug, Default)]
pub struct TableStore {
    _tables: (),
}

impl TableStore {
    /// The value of `pos` for its side to move; `Ok(None)` when it is not in the tables.
    pub fn probe(
        &self,
        _variant: &'static Variant,
        _pos: &Position,
    ) -> Result<Option<Value>, TablesError> {
        Ok(None)
    }
}
