//! The endgame tables: the value of a position with few pieces under best play, and of each
//! of its moves (in the shape of the lichess tablebase's answer); and the probe the judge
//! adjudicates with.
//!
//! Two values: the game-theoretic one (the result with best play from both sides and the
//! plies to the end of the game, the winner hurrying and the loser delaying; play that never
//! ends is a draw), and the value under the variant's counting rules, from the counts the
//! client gives (the FEN's half-move clock, the `counts` parameter): a win that a count draws
//! before it comes is a draw there. The tables come from the service's [`TableStore`]:
//! prebuilt files, or small tables computed on first use.

use std::cell::RefCell;

use arbiter_rules::draws::Reset;
use arbiter_rules::tables::{material_of, RuleValue, TableValue, Tables, Value};
use arbiter_rules::{Budget, DrawClock, DrawKind, Position, Variant};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::moves::UNITS_PER_LISTED_MOVE;
use super::{parse_position_counters, Side};
use crate::problem::ApiError;
use crate::tables::{under_rules, Available, TableStore, TablesError};

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
    #[allow(clippy::type_complexity)]
    pub fn probe(
        &self,
    ) -> impl FnMut(
        &'static Variant,
        &Position,
        &DrawClock,
        &Budget,
    ) -> Result<Option<TableValue>, String>
           + '_ {
        move |v, pos, clock, budget| match self.store {
            Some(s) => s.probe_game(v, pos, clock, budget).map_err(|e| {
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
    /// The value of the position after the move under the counting rules, for its side to
    /// move, with the counts the move leaves.
    pub rules: MoveRules,
}

/// A value under the counting rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MoveRules {
    /// The result for the side to move when the counted draw rules run: a win that a count
    /// draws before it comes is a `draw`.
    #[schema(example = "win")]
    pub category: Category,
    /// For a win or a loss: the plies the binding count must still allow, that is the plies
    /// to the next move that restarts it (a capture, a man move, a promotion) or ends the
    /// game, the winner hurrying and the loser delaying (the DTZ of chess tables); null for
    /// a draw.
    #[schema(example = 15)]
    pub plies: Option<u16>,
}

/// How the value under the counting rules differs from the game-theoretic one (as the
/// lichess tablebase names them for chess's 50-move rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Difference {
    /// A game-theoretic win that a count draws before it comes: a draw under the rules.
    CursedWin,
    /// A game-theoretic loss that a count saves: a draw under the rules.
    BlessedLoss,
}

/// The value of the position under the counting rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RulesValue {
    /// The result for the side to move when the counted draw rules run, from the counts
    /// given.
    #[schema(example = "draw")]
    pub category: Category,
    /// For a win or a loss: the plies the binding count must still allow (see the moves'
    /// `rules.plies`); null for a draw.
    #[schema(example = json!(null))]
    pub plies: Option<u16>,
    /// `cursed-win` or `blessed-loss` where a counted rule turns the game-theoretic result
    /// into a draw; null where both values agree.
    #[schema(example = "cursed-win")]
    pub differs: Option<Difference>,
    /// The counted rule that draws (`FRISIAN_2V1_7`, `KINGS_25`...) where `differs` is set:
    /// the count that binds in the position, or the first that runs along best play.
    #[schema(example = "FRISIAN_2V1_7")]
    pub drawn_by: Option<String>,
    /// Whether the value was searched rather than read from the tables: the tables hold the
    /// counts a game reaches from the start of each material, and other counts are searched
    /// on demand.
    #[schema(example = false)]
    pub searched: bool,
}

/// Where a counted draw rule's count stands in the position: what the value under the rules
/// starts from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RuleCount {
    /// The rule's code (`KINGS_25`, `ENDGAME_16`, `FRISIAN_2V1_7`...).
    #[schema(example = "FRISIAN_2V1_7")]
    pub rule: String,
    /// Plies counted so far.
    #[schema(example = 0)]
    pub count: u16,
    /// The count at which the rule draws, in plies.
    #[schema(example = 14)]
    pub limit: u16,
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
    "counts": [{"rule": "NO_PROGRESS_40", "count": 0, "limit": 80}],
    "rules": {"category": "loss", "plies": 16, "differs": null, "drawn_by": null,
              "searched": false},
    "moves": [
        {"move": "5-1", "category": "win", "plies": 15, "captures": 0, "promotion": false,
         "resulting_position": "W:WK14,K18:BK1", "rules": {"category": "win", "plies": 15}},
        {"move": "5-9", "category": "win", "plies": 1, "captures": 0, "promotion": false,
         "resulting_position": "W:WK14,K18:BK9", "rules": {"category": "win", "plies": 1}}
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
    /// The game-theoretic result for the side to move under best play: `win`, `draw` (play
    /// that never ends included) or `loss`, with no counted draw rule (`rules` applies them).
    #[schema(example = "loss")]
    pub category: Category,
    /// Plies to the end of the game under best play (the winner hurries, the loser delays);
    /// null for a draw, 0 when the game is over in this position.
    #[schema(example = 16)]
    pub plies: Option<u16>,
    /// Whether the side to move has no legal move (the game is over: `plies` is 0).
    #[schema(example = false)]
    pub no_legal_moves: bool,
    /// The counted draw rules that run in the position, and their counts (from the FEN's
    /// half-move clock and the `counts` parameter; 0 where not given).
    pub counts: Vec<RuleCount>,
    /// The value under the variant's counting rules, with those counts.
    pub rules: RulesValue,
    /// Every legal move with the value of the position it leads to for the opponent, best
    /// first for the mover under the counting rules (the fastest win, then the draws, then
    /// the slowest loss), then by the game-theoretic value; moves of equal value in the order
    /// of `/moves`.
    pub moves: Vec<EndgameMove>,
}

/// The order of a value for the side whose value it is: the fastest win first, then draws,
/// then the slowest loss.
fn rank_for_mover(v: Value) -> (u8, i32) {
    match v {
        Value::Win(n) => (0, i32::from(n)),
        Value::Draw => (1, 0),
        Value::Loss(n) => (2, -i32::from(n)),
    }
}

/// The counts of `clock` for the counted rules running in `pos`.
fn counts_of(v: &Variant, pos: &Position, clock: &DrawClock) -> Vec<RuleCount> {
    v.rules()
        .draws
        .iter()
        .enumerate()
        .filter_map(|(i, d)| {
            clock.count(v, i, pos).map(|count| RuleCount {
                rule: d.code.code().to_string(),
                count,
                limit: d.limit().0,
            })
        })
        .collect()
}

/// The counts of a game at `pos`: every counted rule of `v` at 0 (its endgame rules running
/// where their configuration holds), the half-move clock `halfmoves` for the rules that
/// count plies since a man move or a capture, and the counts of the `counts` parameter
/// (`CODE:N,CODE:N`, the rules' codes): 400 `invalid-query` for an unknown code, a
/// repetition rule, a rule that does not run in the position or a count that disagrees with
/// the half-move clock.
pub fn parse_counts(
    v: &Variant,
    pos: &Position,
    halfmoves: Option<u32>,
    counts: Option<&str>,
) -> Result<DrawClock, ApiError> {
    let mut clock = DrawClock::start(v, pos);
    if let Some(h) = halfmoves {
        clock = clock.with_halfmoves(h);
    }
    let Some(text) = counts.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(clock);
    };
    let rules = &v.rules().draws;
    let mut seen = Vec::new();
    for part in text.split(',') {
        let bad = |why: String| ApiError::invalid_query(format!("counts: '{part}': {why}"));
        let (code, n) = part
            .split_once(':')
            .ok_or_else(|| bad("expected CODE:PLIES".into()))?;
        let (code, n) = (code.trim(), n.trim());
        let i = rules
            .iter()
            .position(|d| d.code.code().eq_ignore_ascii_case(code))
            .ok_or_else(|| {
                let known: Vec<&str> = rules
                    .iter()
                    .filter(|d| !matches!(d.kind, DrawKind::Repetition { .. }))
                    .map(|d| d.code.code())
                    .collect();
                bad(format!(
                    "{} has no such counted draw rule (its counted rules: {})",
                    v.id(),
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                ))
            })?;
        if seen.contains(&i) {
            return Err(bad("the rule is given twice".into()));
        }
        seen.push(i);
        let n: u16 = n
            .parse()
            .map_err(|_| bad("the count is not a whole number of plies up to 65535".into()))?;
        if let Some(h) = halfmoves {
            let by_fen = matches!(
                rules[i].kind,
                DrawKind::NoProgress {
                    reset: Reset::ManMoveOrCapture,
                    ..
                }
            );
            if by_fen && u32::from(n) != h {
                return Err(bad(format!(
                    "the FEN's half-move clock says {h} plies for this count"
                )));
            }
        }
        clock
            .set_count(v, i, pos, n)
            .map_err(|why| bad(why.to_string()))?;
    }
    Ok(clock)
}

/// The endgame answer for `pos`, whose tables say `found` with the counts `clock`, charged
/// to `budget`: the moves are listed and the position after each is looked up in `tables`
/// (a snapshot taken after the probe of `pos`, which put their tables in memory).
fn answer(
    tables: &Tables,
    v: &'static Variant,
    pos: &Position,
    clock: &DrawClock,
    found: TableValue,
    budget: &Budget,
    available: &Available,
) -> Result<EndgameResponse, ApiError> {
    let listed = v
        .list_moves(pos, budget)
        .map_err(|e| ApiError::engine(&e))?;
    budget
        .charge(listed.len() as u64 * UNITS_PER_LISTED_MOVE)
        .map_err(|e| ApiError::engine(&e))?;
    let missing = |notation: &str, child: &Position| {
        let material = material_of(v, child).name();
        ApiError::endgame_not_in_tables(
            v.id(),
            &material,
            Some(format!(
                "the position after {notation} ({material}) is not in the endgame tables of \
                 this replica"
            )),
            available.clone(),
        )
    };
    let mut moves = Vec::with_capacity(listed.len());
    for view in listed.iter() {
        let child = v.play(pos, &view.mv);
        let mut c = *clock;
        c.step(v, pos, &view.mv, &child);
        let after = under_rules(tables, &child, &c, budget)
            .map_err(|e| ApiError::tables(&e, v.id(), available.clone()))?
            .ok_or_else(|| missing(view.notation, &child))?;
        let (gt, ru) = (after.value.before_move(), after.rules.value.before_move());
        moves.push((
            (rank_for_mover(ru), rank_for_mover(gt)),
            EndgameMove {
                notation: view.notation.to_string(),
                category: after.value.into(),
                plies: after.value.plies(),
                captures: if view.mv.is_removal() {
                    0
                } else {
                    view.captured.len()
                },
                promotion: view.mv.is_promotion(),
                resulting_position: v.fen(&child),
                rules: MoveRules {
                    category: after.rules.value.into(),
                    plies: after.rules.value.plies(),
                },
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
        category: found.value.into(),
        plies: found.value.plies(),
        no_legal_moves: listed.is_empty(),
        counts: counts_of(v, pos, clock),
        rules: rules_value(found.value, found.rules, found.drawn_by),
        moves: moves.into_iter().map(|(_, m)| m).collect(),
    })
}

/// The `rules` object of an answer.
fn rules_value(
    value: Value,
    rules: RuleValue,
    drawn_by: Option<arbiter_rules::DrawCode>,
) -> RulesValue {
    let differs = match (value, rules.value) {
        (Value::Win(_), Value::Draw) => Some(Difference::CursedWin),
        (Value::Loss(_), Value::Draw) => Some(Difference::BlessedLoss),
        _ => None,
    };
    RulesValue {
        category: rules.value.into(),
        plies: rules.value.plies(),
        differs,
        drawn_by: differs.and(drawn_by).map(|c| c.code().to_string()),
        searched: rules.searched,
    }
}

/// The endgame answer for the position `fen` of `v` with the counts `counts` (the
/// `counts` parameter; the FEN's half-move clock is read too), from `store`, charged to
/// `budget`: the work of the endgame endpoint. The probe may wait for a table being computed
/// (at most the store's build wait, then the 503 `endgame-building` problem): run it where
/// waiting is allowed.
pub fn evaluate(
    store: &TableStore,
    v: &'static Variant,
    fen: &str,
    counts: Option<&str>,
    budget: &Budget,
) -> Result<EndgameResponse, ApiError> {
    store
        .check(v)
        .map_err(|e| ApiError::tables(&e, v.id(), store.available(v)))?;
    let (pos, fen_counters) = parse_position_counters(v, "position", Some(fen))?;
    let clock = parse_counts(v, &pos, fen_counters.map(|c| c.halfmoves), counts)?;
    let tables_error = |e: TablesError| ApiError::tables(&e, v.id(), store.available(v));
    let not_in_tables = || {
        ApiError::endgame_not_in_tables(
            v.id(),
            &material_of(v, &pos).name(),
            None,
            store.available(v),
        )
    };
    if store.probe(v, &pos).map_err(tables_error)?.is_none() {
        return Err(not_in_tables());
    }
    let tables = store.snapshot(v).ok_or_else(not_in_tables)?;
    let found = under_rules(&tables, &pos, &clock, budget)
        .map_err(tables_error)?
        .ok_or_else(not_in_tables)?;
    answer(&tables, v, &pos, &clock, found, budget, &store.available(v))
}

/// The endgame tables a replica has for a variant: whether it has any, which materials it
/// computes on first use, and which it serves from prebuilt files.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "variant": "english", "supported": true, "reason": null, "builtin_pieces": 4,
    "builtin_max_positions": 50000000, "builtin_memory_bytes": 671088640,
    "builtin": ["KvK", "KvM", "MvK", "MvM", "KKvK"],
    "prebuilt": []
}))]
pub struct EndgameTables {
    /// The variant id.
    #[schema(example = "english")]
    pub variant: String,
    /// Whether the variant has endgame tables at all.
    #[schema(example = true)]
    pub supported: bool,
    /// Why not, for a variant without tables.
    #[schema(example = json!(null))]
    pub reason: Option<String>,
    /// Positions with at most this many pieces have their tables computed on first use (0:
    /// none are).
    #[schema(example = 4)]
    pub builtin_pieces: u32,
    /// ... when their table has at most this many positions.
    #[schema(example = 50000000)]
    pub builtin_max_positions: u64,
    /// ... and their build fits in this many bytes: the replica's memory budget for the
    /// tables it computes and the build computing them, together.
    #[schema(example = 671088640)]
    pub builtin_memory_bytes: u64,
    /// The materials computed on first use, by name (White's pieces, `v`, Black's; `K` a
    /// king, `M` a man, `P` a parachutist), smallest first.
    pub builtin: Vec<String>,
    /// The materials served from prebuilt files.
    pub prebuilt: Vec<String>,
}

/// What `store` has for `v`: the answer of `GET /v1/variants/{variant}/endgame/tables`. A
/// client (the board page) asks `/endgame` only for positions whose material is listed.
pub fn tables_info(store: &TableStore, v: &'static Variant) -> EndgameTables {
    let available = store.available(v);
    let (supported, reason) = match store.check(v) {
        Ok(()) => (true, None),
        Err(TablesError::Unsupported { reason, .. }) => (false, Some(reason.to_string())),
        Err(e) => (false, Some(e.to_string())),
    };
    // As the store decides (`TableStore::builds`): a drop game's materials, which count the
    // stones in hand, are bounded by their build cost only, unless built-in tables are off.
    let pieces = if !arbiter_rules::tables::whole_game(v) {
        available.builtin_pieces
    } else if available.builtin_pieces == 0 {
        0
    } else {
        2 * u32::from(v.rules().stones_in_hand)
    };
    let builtin = if supported {
        arbiter_rules::tables::materials_up_to(v, pieces)
            .into_iter()
            .filter(|m| store.builds(v, m))
            .map(|m| m.name())
            .collect()
    } else {
        Vec::new()
    };
    EndgameTables {
        variant: v.id().to_string(),
        supported,
        reason,
        builtin_pieces: available.builtin_pieces,
        builtin_max_positions: available.builtin_max_positions,
        builtin_memory_bytes: available.builtin_memory_bytes,
        builtin,
        prebuilt: available.prebuilt,
    }
}
