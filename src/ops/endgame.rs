//! The endgame tables: the value of a position with few pieces under best play, and of each
//! of its moves (in the shape of the lichess tablebase's answer); and the probe the judge
//! adjudicates with.
//!
//! The value is game-theoretic: the result with best play from both sides and the plies to
//! the end of the game (the winner hurries, the loser delays); play that never ends is a
//! draw. The variant's draw rules (repetition, move counts) are not part of it: they depend on
//! the game's history, and the judge applies them. The tables come from the service's
//! [`TableStore`]: prebuilt files, or small tables computed on first use.

use std::cell::RefCell;

use arbiter_rules::tables::{material_of, Value};
use arbiter_rules::{Budget, Position, Variant};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::moves::UNITS_PER_LISTED_MOVE;
use super::{parse_position_counters, Side};
use crate::problem::ApiError;
use crate::tables::{TableStore, TablesError};

/// Probes the service's endgame tables for the judgements of one request. A probe may build
/// a table: use it where engine work runs. A table still
/// being computed when the store stops waiting is kept, so that the request is answered 503
/// `endgame-building` (retry later) rather than with a judgement that would depend on what
/// this replica has built so far; any other failure is the game's `tables-unavailable`
/// warning.
pub struct TableProbe<'a> {
    store: Option<&'a TableStore>,
    building: RefCell<Option<(&'static Variant, TablesError)>>,
}

impl<'a> TableProbe<'a> {
    pub fn new(store: Option<&'a TableStore>) -> TableProbe<'a> {
        TableProbe {
            store,
            building: RefCell::new(None),
        }
    }

    /// The probe to hand to the judge (no store: no position is in the tables).
    pub fn probe(
        &self,
    ) -> impl FnMut(&'static Variant, &Position) -> Result<Option<Value>, String> + '_ {
        move |v, pos| match self.store {
            Some(s) => s.probe(v, pos).map_err(|e| {
                let text = e.to_string();
                if matches!(e, TablesError::Building { .. }) {
                    self.building.replace(Some((v, e)));
                }
                text
            }),
            None => Err("this server has no endgame tables".into()),
        }
    }

    /// After judging: the 503 `endgame-building` problem when a table was being computed.
    pub fn finish(&self) -> Result<(), ApiError> {
        match (self.building.take(), self.store) {
            (Some((v, e)), Some(store)) => Err(ApiError::tables(&e, v.id(), store.available(v))),
            _ => Ok(()),
        }
    }
}

/// The result of a position for its side to move under best play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    Win,
    Draw,
    Loss,
}

impl From<Value> for Category {
    fn from(v: Value) -> Category {
        match v {
            Value::Win(_) => Category::Win,
            Value::Draw => Category::Draw,
            Value::Loss(_) => Category::Loss,
        }
    }
}

/// A legal move and the value of the position it leads to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct EndgameMove {
    /// The move in canonical notation (as `/moves` gives it).
    #[serde(rename = "move")]
    #[schema(example = "5-1")]
    pub notation: String,
    /// The value of the position after the move for ITS side to move, the opponent (as the
    /// lichess tablebase gives it): `loss` is a winning move, `win` a losing one.
    #[schema(example = "win")]
    pub category: Category,
    /// The plies from the position after the move to the end of the game under best play
    /// (null for a draw); the mover's game ends one ply later.
    #[schema(example = 15)]
    pub plies: Option<u16>,
    /// How many pieces the move captures.
    #[schema(example = 0)]
    pub captures: usize,
    /// Whether the moving man is crowned.
    #[schema(example = false)]
    pub promotion: bool,
    /// FEN of the position after the move.
    #[schema(example = "W:WK14,K18:BK1")]
    pub resulting_position: String,
}

/// A position's value under best play, and its moves'.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "variant": "english",
    "position": "B:WK14,K18:BK5",
    "side_to_move": "black",
    "material": "KKvK",
    "category": "loss",
    "plies": 16,
    "no_legal_moves": false,
    "moves": [
        {"move": "5-1", "category": "win", "plies": 15, "captures": 0, "promotion": false,
         "resulting_position": "W:WK14,K18:BK1"},
        {"move": "5-9", "category": "win", "plies": 1, "captures": 0, "promotion": false,
         "resulting_position": "W:WK14,K18:BK9"}
    ]
}))]
pub struct EndgameResponse {
    /// The variant id.
    #[schema(example = "english")]
    pub variant: String,
    /// The position, as canonical FEN.
    #[schema(example = "B:WK14,K18:BK5")]
    pub position: String,
    /// The side to move.
    #[schema(example = "black")]
    pub side_to_move: Side,
    /// The material of the table: White's pieces, `v`, Black's; `K` a king, `M` a man, `P` a
    /// parachutist, `N` a knight. In the drop games, whose tables solve the game whole, the
    /// stones in hand count too, as men (`MMMMvMMMM` at Lahti's start).
    #[schema(example = "KKvK")]
    pub material: String,
    /// The result for the side to move under best play: `win`, `draw` (play that never ends
    /// included) or `loss`. The variant's draw rules, which depend on the game's history, are
    /// not applied: `/judge` does that.
    #[schema(example = "loss")]
    pub category: Category,
    /// Plies to the end of the game under best play (the winner hurries, the loser delays);
    /// null for a draw, 0 when the game is over in this position.
    #[schema(example = 16)]
    pub plies: Option<u16>,
    /// Whether the side to move has no legal move (the game is over: `plies` is 0).
    #[schema(example = false)]
    pub no_legal_moves: bool,
    /// Every legal move with the value of the position it leads to for the opponent, best
    /// first for the mover: the fastest wins (`loss` for the opponent, fewest plies first),
    /// then the draws, then the losses, slowest first; moves of equal value in the order of
    /// `/moves`.
    pub moves: Vec<EndgameMove>,
}

/// The order of a move for its mover, from the value of the position it leads to: the
/// fastest win first, then draws, then the slowest loss first.
fn rank(after: Value) -> (u8, i32) {
    match after {
        Value::Loss(n) => (0, i32::from(n)),
        Value::Draw => (1, 0),
        Value::Win(n) => (2, -i32::from(n)),
    }
}

/// The endgame answer for `pos`, whose value is `value`, charged to `budget`: the moves
/// are listed and the position after each is looked up (the probe of `pos` put their tables
/// in memory).
pub fn answer_endgame(
    store: &TableStore,
    v: &'static Variant,
    pos: &Position,
    value: Value,
    budget: &Budget,
) -> Result<EndgameResponse, ApiError> {
    let listed = v
        .list_moves(pos, budget)
        .map_err(|e| ApiError::engine(&e))?;
    budget
        .charge(listed.len() as u64 * UNITS_PER_LISTED_MOVE)
        .map_err(|e| ApiError::engine(&e))?;
    let mut moves = Vec::with_capacity(listed.len());
    for view in listed.iter() {
        let child = v.play(pos, &view.mv);
        let after = store.lookup(v, &child).ok_or_else(|| {
            let material = material_of(v, &child).name();
            ApiError::endgame_not_in_tables(
                v.id(),
                &material,
                Some(format!(
                    "the position after {} ({material}) is not in the endgame tables of this \
                     replica",
                    view.notation
                )),
                store.available(v),
            )
        })?;
        moves.push((
            rank(after),
            EndgameMove {
                notation: view.notation.to_string(),
                category: after.into(),
                plies: after.plies(),
                captures: if view.mv.is_removal() {
                    0
                } else {
                    view.captured.len()
                },
                promotion: view.mv.is_promotion(),
                resulting_position: v.fen(&child),
            },
        ));
    }
    // Stable: moves of equal value keep the order of `/moves`.
    moves.sort_by_key(|(r, _)| *r);
    Ok(EndgameResponse {
        variant: v.id().to_string(),
        position: v.fen(pos),
        side_to_move: pos.side().into(),
        material: material_of(v, pos).name(),
        category: value.into(),
        plies: value.plies(),
        no_legal_moves: listed.is_empty(),
        moves: moves.into_iter().map(|(_, m)| m).collect(),
    })
}

/// The endgame answer for the position `fen` of `v`, from `store`, charged to `budget`: the
/// work of the endgame endpoint. The probe may wait for a table being computed (at most the
/// store's build wait, then the 503 `endgame-building` problem): run it where waiting is
/// allowed.
pub fn evaluate(
    store: &TableStore,
    v: &'static Variant,
    fen: &str,
    budget: &Budget,
) -> Result<EndgameResponse, ApiError> {
    store
        .check(v)
        .map_err(|e| ApiError::tables(&e, v.id(), store.available(v)))?;
    let (pos, _) = parse_position_counters(v, "position", Some(fen))?;
    let value = match store.probe(v, &pos) {
        Ok(Some(value)) => value,
        Ok(None) => {
            return Err(ApiError::endgame_not_in_tables(
                v.id(),
                &material_of(v, &pos).name(),
                None,
                store.available(v),
            ))
        }
        Err(e) => return Err(ApiError::tables(&e, v.id(), store.available(v))),
    };
    answer_endgame(store, v, &pos, value, budget)
}
