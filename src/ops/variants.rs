//! The catalogue: every variant, and one variant's board, start, rules and sources in a form
//! a client reads.

use arbiter_rules::tables::{start_value, Value};
use arbiter_rules::Variant;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::endgame::Category;
use super::Side;

/// How squares are named.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SquareNames {
    /// Squares are numbered (PDN numeric notation, `32-28`).
    Numeric,
    /// Squares are named by file and rank (`c3-d4`).
    Algebraic,
}

/// The board of a variant.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct BoardInfo {
    /// Number of files.
    #[schema(example = 10)]
    pub width: u8,
    /// Number of ranks.
    #[schema(example = 10)]
    pub height: u8,
    /// How squares are written in moves and FENs.
    #[schema(example = "numeric")]
    pub squares: SquareNames,
    /// Which squares are played on: `checkered` (the dark squares of the grid), `full`
    /// (every square, or every square of `ranks` where the grid has its corners cut) or
    /// `graph` (the points of a point-and-line board).
    #[schema(example = "checkered")]
    pub layout: String,
    /// Number of playable squares (or points).
    #[schema(example = 50)]
    pub cells: usize,
    /// Graph boards only (`layout` = `graph`): every point with its name and drawing
    /// coordinates. A grid is drawn from `width`, `height` and `layout`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(example = json!([{"name": "a1", "x": 0, "y": 0}, {"name": "b1", "x": 1, "y": 0}]))]
    pub points: Option<Vec<BoardPoint>>,
    /// Graph boards only: every line between two neighbouring points (`kind` = `line`: steps
    /// and jumps follow it) and every step-only link (`kind` = `step-only`: a step may use it,
    /// a capture never does, e.g. Seth's arc).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(example = json!([{"from": "a1", "to": "b1", "kind": "line"}, {"from": "a1", "to": "a5", "kind": "step-only"}]))]
    pub lines: Option<Vec<BoardLine>>,
    /// The goal points of each side, where the variant has them (Seth: occupying one wins).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal_points: Option<GoalPoints>,
    /// Grids with squares cut away only (the Camelot family): the first and last square of
    /// each rank, from rank 1 up; the squares between them are on the board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(example = json!([["d1", "d1"], ["c2", "e2"], ["b3", "f3"]]))]
    pub ranks: Option<Vec<[String; 2]>>,
    /// The castle squares of each side, where the variant has castles (the Camelot family).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(example = json!({"white": ["d1"], "black": ["d13"]}))]
    pub castles: Option<GoalPoints>,
}

/// A point of a graph board.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct BoardPoint {
    /// Its name in moves and FENs.
    #[schema(example = "c3")]
    pub name: String,
    /// Drawing coordinates: file (0 = a) and rank (0 = 1), as seen by White.
    #[schema(example = 2)]
    pub x: u8,
    #[schema(example = 2)]
    pub y: u8,
}

/// A line (or step-only link) between two points of a graph board.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct BoardLine {
    #[schema(example = "a1")]
    pub from: String,
    #[schema(example = "b2")]
    pub to: String,
    /// `line` or `step-only`.
    #[schema(example = "line")]
    pub kind: String,
}

/// The goal points (or castle squares) of each side.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct GoalPoints {
    #[schema(example = json!(["c5"]))]
    pub white: Vec<String>,
    #[schema(example = json!(["c1"]))]
    pub black: Vec<String>,
}

/// The drawing of a graph board: its points and lines (`None` for grids).
fn geometry(v: &Variant) -> (Option<Vec<BoardPoint>>, Option<Vec<BoardLine>>) {
    let arbiter_rules::BoardShape::Graph(g) = &v.spec().board else {
        return (None, None);
    };
    let b = v.board();
    let name = |i: usize| {
        v.square_name(
            b.at(g.points[i].0 as i32, g.points[i].1 as i32)
                .unwrap_or(i),
        )
    };
    let points = g
        .points
        .iter()
        .enumerate()
        .map(|(i, &(x, y))| BoardPoint {
            name: name(i),
            x,
            y,
        })
        .collect();
    let mut lines: Vec<BoardLine> = g
        .lines
        .iter()
        .map(|&(a, _, c)| BoardLine {
            from: name(a),
            to: name(c),
            kind: "line".into(),
        })
        .collect();
    lines.extend(g.step_only.iter().map(|&(a, c)| BoardLine {
        from: name(a),
        to: name(c),
        kind: "step-only".into(),
    }));
    (Some(points), Some(lines))
}

/// The first and last square of each rank of a grid with squares cut away.
fn ranks(v: &Variant) -> Option<Vec<[String; 2]>> {
    let arbiter_rules::BoardShape::Grid(arbiter_rules::Squares::Ranks(ranks)) = &v.spec().board
    else {
        return None;
    };
    let name = |x: u8, y: usize| format!("{}{}", (b'a' + x) as char, y + 1);
    Some(
        ranks
            .iter()
            .enumerate()
            .map(|(y, &(first, last))| [name(first, y), name(last, y)])
            .collect(),
    )
}

/// The castle squares of each side.
fn castles(v: &Variant) -> Option<GoalPoints> {
    v.rules().castles.map(|c| GoalPoints {
        white: c.squares[0].iter().map(|s| s.to_string()).collect(),
        black: c.squares[1].iter().map(|s| s.to_string()).collect(),
    })
}

/// The goal points the variant's end rules name.
fn goal_points(v: &Variant) -> Option<GoalPoints> {
    v.rules().ends.iter().find_map(|e| match e.kind {
        arbiter_rules::EndKind::Occupies([w, b]) => Some(GoalPoints {
            white: vec![w.to_string()],
            black: vec![b.to_string()],
        }),
        arbiter_rules::EndKind::LastStoneArrives(g) => Some(GoalPoints {
            white: vec![g.to_string()],
            black: vec![g.to_string()],
        }),
        _ => None,
    })
}

/// A draw rule of a variant.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct DrawRuleInfo {
    /// Stable reason code, as `/judge` reports it.
    #[schema(example = "KINGS_25")]
    pub code: String,
    /// `automatic` (the judge ends the game) or `claimable` (a player may claim the draw; the
    /// judge reports it in `claimable_draws` and the game goes on).
    #[schema(example = "automatic")]
    pub mode: String,
    /// The rule's limit, in `limit_unit`.
    #[schema(example = 50)]
    pub limit: u16,
    /// `occurrences` (repetition) or `plies` (the counted rules: N moves each is 2N plies).
    #[schema(example = "plies")]
    pub limit_unit: String,
    /// What triggers the rule.
    #[schema(example = "25 moves each (50 plies) without a man move or a capture")]
    pub description: String,
    /// The rule as its federation or source states it, with the reading chosen where sources
    /// differ.
    #[schema(
        example = "FMJD 6.2: 25 successive moves each with only kings moved, without capture."
    )]
    pub source: String,
}

/// An end rule of a variant: a rule that decides the game on the position, beside "no
/// legal move".
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct EndRuleInfo {
    /// Stable reason code, as `/judge` reports it.
    #[schema(example = "KING_CROWNED")]
    pub code: String,
    /// What decides the game, and how.
    #[schema(
        example = "the first side to crown a king (a man whose move ends on the far row) wins"
    )]
    pub description: String,
    /// Where the rule comes from, with the reading chosen where sources differ.
    pub source: String,
}

/// A variant of the catalogue and its rules.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct VariantInfo {
    /// The id used in URLs.
    #[schema(example = "international")]
    pub id: String,
    /// Full name.
    #[schema(example = "International draughts (FMJD), 10×10")]
    pub name: String,
    pub board: BoardInfo,
    /// The side that moves first from the start position.
    #[schema(example = "white")]
    pub first_mover: Side,
    /// The start position as FEN.
    #[schema(example = "W:W31-50:B1-20")]
    pub start_position: String,
    /// The PDN `GameType` tag value, if the variant has a standard number.
    #[schema(example = "20,W,10,10,N2,0")]
    pub pdn_game_type: Option<String>,
    /// The rule parameters in readable form (name → description).
    #[schema(example = json!({"end_of_game": "the side to move with no legal move loses"}))]
    pub rules: serde_json::Map<String, serde_json::Value>,
    /// The end rules, in the order the judge applies them (before "no legal move"); empty
    /// for most variants.
    pub end_rules: Vec<EndRuleInfo>,
    /// The draw rules, in the order the judge applies them; empty when no position is drawn
    /// by rule.
    pub draw_rules: Vec<DrawRuleInfo>,
    /// Rule decisions worth stating (readings chosen where sources disagree).
    pub notes: Vec<String>,
    /// Where the rules come from.
    pub sources: Vec<String>,
    /// Whether the rules are provisional (not yet confirmed by a primary source).
    #[schema(example = false)]
    pub provisional: bool,
    /// Why the variant is provisional; null when it is not.
    #[schema(example = json!(null))]
    pub provisional_reason: Option<String>,
    /// Drop games: the stones each side holds in hand at the start (the FEN's `S` field
    /// counts those still in hand); null for games without drops.
    #[schema(example = json!(null))]
    pub stones_in_hand: Option<u8>,
    /// The value of the start position under best play, for the games the endgame tables
    /// solve whole (the drop games: every position of a game from the start is in the
    /// tables); null for the other variants.
    #[schema(example = json!(null))]
    pub solved: Option<SolvedGame>,
}

/// The value of a game's start position under best play: the game solved whole by the
/// endgame tables.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"category": "win", "winner": "white", "plies": 25}))]
pub struct SolvedGame {
    /// The result for the side that moves first (`first_mover`): `win`, `draw` (play that
    /// never ends included) or `loss`.
    pub category: Category,
    /// The side that wins with best play; null for a draw.
    pub winner: Option<Side>,
    /// The length of the game under best play, in plies from the start (the winner hurrying,
    /// the loser delaying, drops included); null for a draw.
    pub plies: Option<u16>,
}

impl SolvedGame {
    fn of(v: &Variant) -> Option<SolvedGame> {
        let value = start_value(v)?;
        let first = v.first_mover();
        Some(SolvedGame {
            category: value.into(),
            winner: match value {
                Value::Win(_) => Some(first.into()),
                Value::Loss(_) => Some(first.opponent().into()),
                Value::Draw => None,
            },
            plies: value.plies(),
        })
    }
}

impl VariantInfo {
    /// Describes a variant of the engine's catalogue.
    pub fn of(v: &Variant) -> VariantInfo {
        let spec = v.spec();
        let (points, lines) = geometry(v);
        VariantInfo {
            id: v.id().to_string(),
            name: v.name().to_string(),
            board: BoardInfo {
                width: spec.width,
                height: spec.height,
                squares: if spec.algebraic {
                    SquareNames::Algebraic
                } else {
                    SquareNames::Numeric
                },
                layout: spec.board.layout().to_string(),
                cells: v.board().len(),
                points,
                lines,
                goal_points: goal_points(v),
                ranks: ranks(v),
                castles: castles(v),
            },
            first_mover: spec.first.into(),
            start_position: v.fen(&v.start()),
            pdn_game_type: spec.game_type.map(String::from),
            rules: v
                .parameters()
                .into_iter()
                .map(|(k, val)| (k.to_string(), serde_json::Value::String(val)))
                .collect(),
            end_rules: v
                .rules()
                .ends
                .iter()
                .map(|e| EndRuleInfo {
                    code: e.code.code().to_string(),
                    description: e.trigger().to_string(),
                    source: e.text.to_string(),
                })
                .collect(),
            draw_rules: v
                .rules()
                .draws
                .iter()
                .map(|d| {
                    let (limit, unit) = d.limit();
                    DrawRuleInfo {
                        code: d.code.code().to_string(),
                        mode: if d.claim { "claimable" } else { "automatic" }.to_string(),
                        limit,
                        limit_unit: unit.to_string(),
                        description: d.trigger(),
                        source: d.text.to_string(),
                    }
                })
                .collect(),
            notes: spec.notes.iter().map(|s| s.to_string()).collect(),
            sources: spec.sources.iter().map(|s| s.to_string()).collect(),
            provisional: spec.provisional.is_some(),
            provisional_reason: spec.provisional.map(String::from),
            stones_in_hand: (v.rules().stones_in_hand != 0).then_some(v.rules().stones_in_hand),
            solved: SolvedGame::of(v),
        }
    }
}

/// The catalogue.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct VariantList {
    /// Every variant, in a stable order.
    pub variants: Vec<VariantInfo>,
}

/// The catalogue: every variant, in a stable order.
pub fn catalogue() -> VariantList {
    VariantList {
        variants: arbiter_rules::variants()
            .iter()
            .map(VariantInfo::of)
            .collect(),
    }
}
