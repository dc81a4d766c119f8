//! Positions, their legal moves, play: `Position` (immutable), `Move`, `LegalMoves` and
//! `Board` (a position with a move stack, `push`/`pop`), all on one shared node per position.
//!
//! A [`Node`] is a position of a variant with its move counters, and its legal moves made once
//! when first asked for: generated (`Variant::legal_moves`, enough to count them), and written
//! out (`Variant::list_moves`: notation, route, captured squares, in the documented order of
//! the HTTP API) when a move is looked at. A `Move` holds its node, so a move played on the
//! position it was listed for is legal by construction and is played without a second
//! generation; any other move is looked up among the legal moves of the position it is played
//! on, and refused with the problem `/play` gives for its text.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, OnceLock};

use arbiter::ops;
use arbiter::ops::moves::MoveInfo;
use arbiter::problem::{ApiError, ProblemCode};
use arbiter_rules::{Budget, Counters, GenError, MoveKind, MoveList, MoveView};
use pyo3::basic::CompareOp;
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::catalogue::{Compared, Variant, VariantArg};
use crate::convert::{plain, typed, OrRaise};

/// A position of a variant, with its legal moves made when first asked for.
pub struct Node {
    pub v: &'static arbiter_rules::Variant,
    pub pos: arbiter_rules::Position,
    /// lidraughts' move counters, when the FEN had them (carried on in every FEN after).
    pub counters: Option<Counters>,
    /// The legal moves in the documented order, once they are looked at.
    ordered: OnceLock<Result<Vec<arbiter_rules::Move>, GenError>>,
    /// The legal moves as generated, when only counted.
    generated: OnceLock<Result<Vec<arbiter_rules::Move>, GenError>>,
    /// The legal moves written out (notation, route, captured squares), in the same order as
    /// `ordered`, once a move's text or squares are asked for.
    /// (Boxed: a node is made for every move played, most never written out.)
    listed: OnceLock<Box<Result<MoveList, GenError>>>,
}

impl Node {
    pub fn new(
        v: &'static arbiter_rules::Variant,
        pos: arbiter_rules::Position,
        counters: Option<Counters>,
    ) -> Arc<Node> {
        Arc::new(Node {
            v,
            pos,
            counters,
            ordered: OnceLock::new(),
            generated: OnceLock::new(),
            listed: OnceLock::new(),
        })
    }

    /// The node of a FEN (`None`: the start position), or `InvalidPositionError`.
    pub fn of_fen(
        py: Python<'_>,
        v: &'static arbiter_rules::Variant,
        fen: Option<&str>,
    ) -> PyResult<Arc<Node>> {
        let (pos, counters) = ops::parse_position_counters(v, "position", fen).or_raise(py)?;
        Ok(Node::new(v, pos, counters))
    }

    /// The FEN, with the move counters when the position has them.
    pub fn fen(&self) -> String {
        self.v.fen_counters(&self.pos, self.counters)
    }

    /// The legal moves, one per move identity, in the documented order of move lists (the
    /// per-position capture bound applies).
    pub fn ordered(&self) -> Result<&[arbiter_rules::Move], GenError> {
        self.ordered
            .get_or_init(|| {
                let mut moves = match self.generated.get() {
                    Some(generated) => generated.clone()?,
                    None => self.generate()?,
                };
                self.v.sort_legal_moves(&mut moves);
                Ok(moves)
            })
            .as_deref()
            .map_err(|e| *e)
    }

    /// The legal moves as generated, in a list with room for most positions' moves.
    fn generate(&self) -> Result<Vec<arbiter_rules::Move>, GenError> {
        let mut moves = Vec::with_capacity(32);
        self.v
            .generate(&self.pos, &Budget::unlimited(), &mut moves)?;
        Ok(moves)
    }

    /// The legal moves written out, in the documented order.
    pub fn listed(&self) -> Result<&MoveList, GenError> {
        self.listed
            .get_or_init(|| Box::new(self.v.list_moves(&self.pos, &Budget::unlimited())))
            .as_ref()
            .as_ref()
            .map_err(|e| *e)
    }

    /// The number of legal moves.
    pub fn count(&self) -> Result<usize, GenError> {
        if let Some(ordered) = self.ordered.get() {
            return ordered.as_ref().map(Vec::len).map_err(|e| *e);
        }
        self.generated
            .get_or_init(|| self.generate())
            .as_ref()
            .map(Vec::len)
            .map_err(|e| *e)
    }

    /// The position after `mv` (a legal move of this one).
    pub fn child(&self, mv: &arbiter_rules::Move) -> Arc<Node> {
        Node::new(
            self.v,
            self.v.play(&self.pos, mv),
            self.counters.map(|c| c.after(self.v, self.pos.side(), mv)),
        )
    }

    /// The index of `mv` among the legal moves, if it is legal here.
    fn index_of(&self, mv: &arbiter_rules::Move) -> Result<Option<usize>, GenError> {
        Ok(self.ordered()?.iter().position(|m| m == mv))
    }

    /// Whether `other` is the same position (variant, pieces, side, state; not the counters).
    fn same_position(&self, other: &Node) -> bool {
        std::ptr::eq(self.v, other.v) && self.pos == other.pos
    }

    fn hash_key(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.v.id().hash(&mut h);
        self.pos.hash(&mut h);
        self.counters
            .map(|c| (c.halfmoves, c.fullmove))
            .hash(&mut h);
        h.finish()
    }
}

/// The move a text names in `node`, or the problem `/play` gives for it (with the legal
/// moves).
fn parse_in(py: Python<'_>, node: &Arc<Node>, text: &str) -> PyResult<Move> {
    let v = node.v;
    let budget = Budget::unlimited();
    let d = match v.parse_move(&node.pos, text, &budget) {
        Ok(d) => d,
        Err(e) => {
            let mut err = ApiError::bad_move(1, text, e);
            if let Ok(listed) = node.listed() {
                err = err.with_legal_moves(listed.iter().map(|d| d.notation.to_string()).collect());
            }
            return Err(crate::convert::problem(py, &err));
        }
    };
    let index = node
        .index_of(&d.mv)
        .or_raise(py)?
        .ok_or_else(|| crate::convert::problem(py, &ApiError::internal()))?;
    Ok(Move {
        node: node.clone(),
        index,
        mv: d.mv,
    })
}

/// A move to play: a `Move`, or move text.
fn resolve(py: Python<'_>, node: &Arc<Node>, arg: &Bound<'_, PyAny>) -> PyResult<Py<Move>> {
    if let Ok(m) = arg.cast::<Move>() {
        let mr = m.get();
        if Arc::ptr_eq(&mr.node, node) {
            return Ok(m.clone().unbind());
        }
        // Listed for another position: legal here only if it is one of this one's moves.
        if std::ptr::eq(mr.node.v, node.v) {
            if let Some(index) = node.index_of(&mr.mv).or_raise(py)? {
                return Py::new(
                    py,
                    Move {
                        node: node.clone(),
                        index,
                        mv: mr.mv,
                    },
                );
            }
        }
        if !std::ptr::eq(mr.node.v, node.v) {
            return Err(PyValueError::new_err(format!(
                "{} is a move of {}, not of {}",
                mr.written(py)?.notation,
                mr.node.v.id(),
                node.v.id()
            )));
        }
        // Its text here: the problem `/play` gives for it, or another move it names.
        let text = mr.written(py)?.long.to_string();
        parse_in(py, node, &text)?;
        let e = ApiError::new(
            422,
            ProblemCode::IllegalMove,
            "Illegal move",
            format!(
                "ply 1 ('{text}'): illegal move: {text} is a move of another position; here \
                 it names another move"
            ),
        );
        return Err(crate::convert::problem(py, &e));
    }
    if let Ok(text) = arg.extract::<&str>() {
        return Py::new(py, parse_in(py, node, text)?);
    }
    Err(PyTypeError::new_err(format!(
        "a move is a Move or move text, not {}",
        arg.get_type().name()?
    )))
}

/// A move in the words of `route`: the names of its squares.
fn names(v: &arbiter_rules::Variant, cells: &[usize]) -> Vec<String> {
    cells.iter().map(|&c| v.square_name(c)).collect()
}

/// A legal move of a position: its notation, route, captured squares, and the position after
/// it. Equal moves are the same move (start, end, captured pieces, what the piece becomes) of
/// the same variant; a move is hashable.
#[pyclass(frozen, module = "arbiter_draughts")]
pub struct Move {
    node: Arc<Node>,
    index: usize,
    mv: arbiter_rules::Move,
}

impl Move {
    /// The move written out: notation, route, captured squares. Writing out searches the
    /// captures again with their routes, within the same capture bound as the generation: a
    /// position at that bound raises `CaptureLimitError` here too.
    fn written(&self, py: Python<'_>) -> PyResult<MoveView<'_>> {
        let list = self.node.listed().or_raise(py)?;
        // The list is in the order of the legal moves (`sort_legal_moves`); the move is looked
        // for should it not be.
        match list.get(self.index) {
            Some(view) if view.mv == self.mv => Ok(view),
            _ => list
                .iter()
                .find(|view| view.mv == self.mv)
                .ok_or_else(|| crate::convert::problem(py, &ApiError::internal())),
        }
    }

    /// The canonical notation.
    pub fn notation(&self, py: Python<'_>) -> PyResult<String> {
        Ok(self.written(py)?.notation.to_string())
    }
}

#[pymethods]
impl Move {
    /// Canonical notation: the short form (`32-28`, `28x19`) unless another legal move has
    /// the same start and end, then the long form.
    #[getter(notation)]
    fn get_notation(&self, py: Python<'_>) -> PyResult<&str> {
        Ok(self.written(py)?.notation)
    }

    /// The long form: every square where the piece changes direction (`47x38x24x13x36`).
    #[getter]
    fn long(&self, py: Python<'_>) -> PyResult<&str> {
        Ok(self.written(py)?.long)
    }

    /// The start square (a drop: the point it fills; None for a pass).
    #[getter(from_square)]
    fn start_square(&self) -> Option<String> {
        (!self.mv.is_pass()).then(|| self.node.v.square_name(self.mv.from() as usize))
    }

    /// The end square (None for a pass).
    #[getter(to_square)]
    fn end_square(&self) -> Option<String> {
        (!self.mv.is_pass()).then(|| self.node.v.square_name(self.mv.to() as usize))
    }

    /// The canonical route: start, the squares where the piece changes direction, end (empty
    /// for a pass).
    #[getter]
    fn route(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        Ok(names(self.node.v, self.written(py)?.route))
    }

    /// The squares of the captured pieces, in the order of the route (an opening removal:
    /// the removed piece's square).
    #[getter]
    fn captured(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        Ok(names(self.node.v, self.written(py)?.captured))
    }

    /// How many pieces the move captures (an opening removal, which takes one of the mover's
    /// own pieces, counts 0).
    #[getter]
    fn captures(&self) -> usize {
        // The captured pieces of a move are its own (the route only orders them).
        if self.mv.is_removal() {
            0
        } else {
            self.mv.captured().len() as usize
        }
    }

    /// Whether the moving man is crowned.
    #[getter]
    fn promotion(&self) -> bool {
        self.mv.is_promotion()
    }

    /// `step`, `capture`, `drop`, `removal` or `pass`.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.mv.kind() {
            MoveKind::Step => "step",
            MoveKind::Capture => "capture",
            MoveKind::Drop => "drop",
            MoveKind::Removal => "removal",
            MoveKind::Pass => "pass",
        }
    }

    /// The position the move is played from.
    #[getter]
    fn position(&self) -> Position {
        Position {
            node: self.node.clone(),
        }
    }

    /// The position after the move.
    #[getter]
    fn after(&self) -> Position {
        Position {
            node: self.node.child(&self.mv),
        }
    }

    /// The variant.
    #[getter]
    fn variant(&self) -> Variant {
        Variant { v: self.node.v }
    }

    /// The move as the `/moves` answer lists it (a dict: notation, long, from, to, route,
    /// captured, captures, promotion, resulting_position).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let n = &self.node;
        plain(
            py,
            &MoveInfo::of(n.v, &n.pos, n.counters, self.written(py)?),
        )
    }

    fn __str__(&self, py: Python<'_>) -> PyResult<&str> {
        self.get_notation(py)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "<Move {} ({})>",
            self.written(py)?.notation,
            self.node.v.id()
        ))
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> Compared {
        let same = other
            .cast::<Move>()
            .map(|o| std::ptr::eq(o.get().node.v, self.node.v) && o.get().mv == self.mv)
            .ok();
        Compared::of(op, same)
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.node.v.id().hash(&mut h);
        self.mv.hash(&mut h);
        h.finish()
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (Position, String))> {
        let parse = py.get_type::<Position>().getattr("parse_move")?.unbind();
        Ok((
            parse,
            (
                Position {
                    node: self.node.clone(),
                },
                self.written(py)?.long.to_string(),
            ),
        ))
    }
}

/// The legal moves of a position: a sequence of `Move`s in the documented order (by start
/// square, then end square, then captured squares; a move that does not crown before one
/// that does; a pass last). `len()` counts them without writing them out.
#[pyclass(frozen, sequence, module = "arbiter_draughts")]
pub struct LegalMoves {
    node: Arc<Node>,
}

impl LegalMoves {
    fn listed(&self, py: Python<'_>) -> PyResult<&MoveList> {
        self.node.listed().or_raise(py)
    }

    fn ordered(&self, py: Python<'_>) -> PyResult<&[arbiter_rules::Move]> {
        self.node.ordered().or_raise(py)
    }
}

#[pymethods]
impl LegalMoves {
    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        self.node.count().or_raise(py)
    }

    fn __bool__(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.node.count().or_raise(py)? > 0)
    }

    fn __getitem__(&self, py: Python<'_>, index: isize) -> PyResult<Move> {
        let list = self.ordered(py)?;
        let len = list.len() as isize;
        let i = if index < 0 { index + len } else { index };
        if i < 0 || i >= len {
            return Err(PyIndexError::new_err("legal move index out of range"));
        }
        let i = i as usize;
        Ok(Move {
            node: self.node.clone(),
            index: i,
            mv: list[i],
        })
    }

    fn __iter__(&self, py: Python<'_>) -> PyResult<LegalMovesIter> {
        self.ordered(py)?;
        Ok(LegalMovesIter {
            node: self.node.clone(),
            next: 0,
        })
    }

    /// Whether a `Move` (or move text naming exactly one move) is legal here.
    fn __contains__(&self, py: Python<'_>, item: &Bound<'_, PyAny>) -> PyResult<bool> {
        if let Ok(m) = item.cast::<Move>() {
            let m = m.get();
            return Ok(std::ptr::eq(m.node.v, self.node.v) && self.ordered(py)?.contains(&m.mv));
        }
        if let Ok(text) = item.extract::<&str>() {
            return Ok(self
                .node
                .v
                .parse_move(&self.node.pos, text, &Budget::unlimited())
                .is_ok());
        }
        Ok(false)
    }

    /// The canonical notation of every move, in order.
    fn notations(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        Ok(self
            .listed(py)?
            .iter()
            .map(|d| d.notation.to_string())
            .collect())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let list = self.listed(py)?;
        let texts: Vec<&str> = list.iter().map(|d| d.notation).collect();
        Ok(format!(
            "<LegalMoves ({}): {}>",
            texts.len(),
            texts.join(", ")
        ))
    }
}

/// An iterator over legal moves.
#[pyclass(module = "arbiter_draughts")]
pub struct LegalMovesIter {
    node: Arc<Node>,
    next: usize,
}

#[pymethods]
impl LegalMovesIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(mut slf: PyRefMut<'_, Self>) -> Option<Move> {
        let i = slf.next;
        let mv = *slf
            .node
            .ordered
            .get()
            .and_then(|o| o.as_ref().ok())
            .and_then(|o| o.get(i))?;
        slf.next += 1;
        Some(Move {
            node: slf.node.clone(),
            index: i,
            mv,
        })
    }
}

/// A position of a variant: its pieces, the side to move and the state its rules keep
/// (stones in hand, king runs, castle moves, last moves), with lidraughts' move counters when
/// its FEN had them. Immutable and hashable: two positions are equal when their FENs are.
#[pyclass(frozen, module = "arbiter_draughts")]
pub struct Position {
    pub node: Arc<Node>,
}

impl Position {
    pub fn start(v: &'static arbiter_rules::Variant) -> Position {
        Position {
            node: Node::new(v, v.start(), None),
        }
    }

    pub fn of_fen(
        py: Python<'_>,
        v: &'static arbiter_rules::Variant,
        fen: Option<&str>,
    ) -> PyResult<Position> {
        Ok(Position {
            node: Node::of_fen(py, v, fen)?,
        })
    }
}

/// The piece on a cell, as `(colour, kind)`.
fn piece(pos: &arbiter_rules::Position, cell: usize) -> Option<(&'static str, &'static str)> {
    pos.piece_at(cell).map(|(c, k)| (c.name(), k.name()))
}

#[pymethods]
impl Position {
    /// The position of a FEN of a variant (its id, an alias or a `Variant`), or its start
    /// position without one; `InvalidPositionError` for a FEN the variant cannot have.
    #[new]
    #[pyo3(signature = (variant=VariantArg::Name("international".to_string()), fen=None), text_signature = "(variant='international', fen=None)")]
    fn new(py: Python<'_>, variant: VariantArg<'_>, fen: Option<&str>) -> PyResult<Self> {
        Position::of_fen(py, variant.find(py)?, fen)
    }

    /// The variant.
    #[getter]
    fn variant(&self) -> Variant {
        Variant { v: self.node.v }
    }

    /// The canonical FEN (with lidraughts' counters `:H<n>:F<n>` when the position has them).
    #[getter]
    fn fen(&self) -> String {
        self.node.fen()
    }

    /// The side to move: `white` or `black`.
    #[getter]
    fn turn(&self) -> &'static str {
        self.node.pos.side().name()
    }

    /// lidraughts' move counters `(halfmoves, fullmove)` when the FEN had them, else None.
    #[getter]
    fn counters(&self) -> Option<(u32, u32)> {
        self.node.counters.map(|c| (c.halfmoves, c.fullmove))
    }

    /// The legal moves.
    #[getter]
    fn legal_moves(&self) -> LegalMoves {
        LegalMoves {
            node: self.node.clone(),
        }
    }

    /// The position after a move (a `Move` of this position, or move text); an illegal move
    /// raises the `MoveError` that `/play` answers for it.
    fn play(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<Position> {
        let m = resolve(py, &self.node, r#move)?;
        Ok(Position {
            node: self.node.child(&m.get().mv),
        })
    }

    /// The legal move a text names (`32-28`, `28x19`, the long form, algebraic squares...),
    /// or `UnparsableMoveError`, `IllegalMoveError`, `AmbiguousMoveError`.
    fn parse_move(&self, py: Python<'_>, text: &str) -> PyResult<Move> {
        parse_in(py, &self.node, text)
    }

    /// Where the game stands in this position on its own (a `Status`).
    #[getter]
    fn status<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let n = &self.node;
        let status = if n.count().or_raise(py)? > 0 {
            ops::PositionStatus::from(arbiter_rules::Status::Ongoing)
        } else {
            ops::position_status(n.v, &n.pos, &Budget::unlimited()).or_raise(py)?
        };
        typed(py, "Status", &status)
    }

    /// Whether the rules end the game in this position (no legal move, an end rule).
    fn is_game_over(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.node.count().or_raise(py)? == 0)
    }

    /// The piece on a square (its name in the variant's notation) as `(colour, kind)`, or
    /// None; `ValueError` for a square the board does not have.
    fn piece_at(&self, square: &str) -> PyResult<Option<(&'static str, &'static str)>> {
        let cell = self.node.v.parse_square(square).ok_or_else(|| {
            PyValueError::new_err(format!(
                "{} has no square '{}'",
                self.node.v.id(),
                arbiter::problem::clip(square)
            ))
        })?;
        Ok(piece(&self.node.pos, cell))
    }

    /// Every piece: square name -> `(colour, kind)`, in the order of the board's cells.
    fn pieces<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let v = self.node.v;
        for cell in 0..v.board().len() {
            if let Some(p) = piece(&self.node.pos, cell) {
                d.set_item(v.square_str(cell), p)?;
            }
        }
        Ok(d)
    }

    /// Stones each side still holds in hand `(white, black)` (drop games; 0 elsewhere).
    #[getter]
    fn hand(&self) -> (u8, u8) {
        use arbiter_rules::Color;
        (
            self.node.pos.hand(Color::White),
            self.node.pos.hand(Color::Black),
        )
    }

    /// Perft: the leaves `depth` plies below the position (every capture route counted with
    /// `keep`), on every core the process may use (`threads`), without the GIL.
    #[pyo3(signature = (depth, *, keep=false, threads=None))]
    fn perft(
        &self,
        py: Python<'_>,
        depth: u32,
        keep: bool,
        threads: Option<usize>,
    ) -> PyResult<u64> {
        crate::counting::leaves(py, &self.node, depth, keep, threads)
    }

    /// Divide: the leaves below each legal move (canonical notation -> count), in the order
    /// of the legal moves.
    #[pyo3(signature = (depth, *, keep=false))]
    fn divide<'py>(&self, py: Python<'py>, depth: u32, keep: bool) -> PyResult<Bound<'py, PyDict>> {
        crate::counting::divide(py, &self.node, depth, keep)
    }

    /// The position as an SVG picture, optionally with a legal move's route and captures
    /// marked, turned round (`flip`), with the square names (`coordinates`).
    #[pyo3(signature = (r#move=None, *, flip=false, coordinates=false))]
    fn svg(
        &self,
        py: Python<'_>,
        r#move: Option<&Bound<'_, PyAny>>,
        flip: bool,
        coordinates: bool,
    ) -> PyResult<String> {
        let text = match r#move {
            None => None,
            Some(m) => Some(
                resolve(py, &self.node, m)?
                    .get()
                    .written(py)?
                    .long
                    .to_string(),
            ),
        };
        svg_of(
            py,
            self.node.v,
            Some(self.node.fen()),
            text,
            flip,
            coordinates,
        )
    }

    /// The value of the position under best play and its moves' from the endgame tables
    /// (an `EndgameResult`): `tables`, or the built-in tables (computed on first use); the
    /// value under the counting rules from `counts` (as `endgame` takes them).
    #[pyo3(signature = (tables=None, *, counts=None))]
    fn endgame<'py>(
        &self,
        py: Python<'py>,
        tables: Option<&Bound<'py, crate::endgame::EndgameTables>>,
        counts: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        crate::endgame::evaluate(py, self.node.v, &self.node.fen(), counts, tables)
    }

    /// The position's legal moves as the `/moves` answer gives them (a dict).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let fen = self.node.fen();
        let answer = ops::moves::list_moves(self.node.v, Some(&fen), &Budget::unlimited());
        plain(py, &answer.or_raise(py)?)
    }

    fn __str__(&self) -> String {
        self.node.fen()
    }

    fn __repr__(&self) -> String {
        format!("Position('{}', '{}')", self.node.v.id(), self.node.fen())
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> Compared {
        let same = other
            .cast::<Position>()
            .map(|o| {
                let o = &o.get().node;
                self.node.same_position(o) && self.node.counters == o.counters
            })
            .ok();
        Compared::of(op, same)
    }

    fn __hash__(&self) -> u64 {
        self.node.hash_key()
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (String, String))> {
        let cls = py.get_type::<Position>().into_any().unbind();
        Ok((cls, (self.node.v.id().to_string(), self.node.fen())))
    }
}

/// A diagram (SVG) of a position of `v` (`None`: the start position).
fn svg_of(
    py: Python<'_>,
    v: &'static arbiter_rules::Variant,
    fen: Option<String>,
    mv: Option<String>,
    flip: bool,
    coordinates: bool,
) -> PyResult<String> {
    let input = ops::diagram::DiagramInput {
        position: fen,
        mv,
        flip,
        coordinates,
    };
    ops::diagram::diagram_svg(v, &input, &Budget::unlimited()).or_raise(py)
}

/// A position as an SVG picture, as `GET /v1/variants/{variant}/diagram` draws it: the start
/// position or a FEN, optionally a legal move's route and captures marked (move text), the
/// board turned round (`flip`), the square names (`coordinates`).
#[pyfunction]
#[pyo3(signature = (variant, fen=None, *, r#move=None, flip=false, coordinates=false))]
pub fn diagram(
    py: Python<'_>,
    variant: VariantArg<'_>,
    fen: Option<String>,
    r#move: Option<String>,
    flip: bool,
    coordinates: bool,
) -> PyResult<String> {
    svg_of(py, variant.find(py)?, fen, r#move, flip, coordinates)
}

/// A game being played: a position and the stack of moves that led to it from its root, in
/// the manner of python-chess (`push`, `pop`, `peek`, `move_stack`). Boards compare equal
/// when their current positions are.
#[pyclass(module = "arbiter_draughts")]
pub struct Board {
    root: Arc<Node>,
    node: Arc<Node>,
    stack: Vec<(Arc<Node>, Py<Move>)>,
}

impl Board {
    pub fn of(
        py: Python<'_>,
        v: &'static arbiter_rules::Variant,
        fen: Option<&str>,
    ) -> PyResult<Board> {
        let root = Node::of_fen(py, v, fen)?;
        Ok(Board {
            node: root.clone(),
            root,
            stack: Vec::new(),
        })
    }
}

#[pymethods]
impl Board {
    /// A board at the start position of a variant (its id, an alias or a `Variant`), or at a
    /// FEN.
    #[new]
    #[pyo3(signature = (variant=VariantArg::Name("international".to_string()), fen=None), text_signature = "(variant='international', fen=None)")]
    fn new(py: Python<'_>, variant: VariantArg<'_>, fen: Option<&str>) -> PyResult<Self> {
        Board::of(py, variant.find(py)?, fen)
    }

    /// The variant.
    #[getter]
    fn variant(&self) -> Variant {
        Variant { v: self.node.v }
    }

    /// The current position.
    #[getter]
    fn position(&self) -> Position {
        Position {
            node: self.node.clone(),
        }
    }

    /// The position the game started from.
    fn root(&self) -> Position {
        Position {
            node: self.root.clone(),
        }
    }

    /// The FEN of the current position.
    #[getter]
    fn fen(&self) -> String {
        self.node.fen()
    }

    /// The side to move: `white` or `black`.
    #[getter]
    fn turn(&self) -> &'static str {
        self.node.pos.side().name()
    }

    /// The legal moves of the current position.
    #[getter]
    fn legal_moves(&self) -> LegalMoves {
        LegalMoves {
            node: self.node.clone(),
        }
    }

    /// The moves played from the root, in order.
    #[getter]
    fn move_stack(&self, py: Python<'_>) -> Vec<Py<Move>> {
        self.stack.iter().map(|(_, m)| m.clone_ref(py)).collect()
    }

    /// Plays a move (a legal `Move` or move text) and returns it; an illegal move raises the
    /// `MoveError` that `/play` answers for it, and the board is unchanged.
    fn push(&mut self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<Py<Move>> {
        let m = resolve(py, &self.node, r#move)?;
        let child = self.node.child(&m.get().mv);
        let parent = std::mem::replace(&mut self.node, child);
        self.stack.push((parent, m.clone_ref(py)));
        Ok(m)
    }

    /// Takes back the last move and returns it (`IndexError` when no move was played).
    fn pop(&mut self) -> PyResult<Py<Move>> {
        let (parent, m) = self
            .stack
            .pop()
            .ok_or_else(|| PyIndexError::new_err("pop from an empty move stack"))?;
        self.node = parent;
        Ok(m)
    }

    /// The last move played (`IndexError` when none was).
    fn peek(&self, py: Python<'_>) -> PyResult<Py<Move>> {
        self.stack
            .last()
            .map(|(_, m)| m.clone_ref(py))
            .ok_or_else(|| PyIndexError::new_err("peek at an empty move stack"))
    }

    /// Takes back every move: the board is at its root again.
    fn reset(&mut self) {
        self.stack.clear();
        self.node = self.root.clone();
    }

    /// Where the game stands in the current position on its own (a `Status`); `judge()` for
    /// the draw rules, which need the game's history.
    #[getter]
    fn status<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.position().status(py)
    }

    /// Whether the rules end the game in the current position.
    fn is_game_over(&self, py: Python<'_>) -> PyResult<bool> {
        self.position().is_game_over(py)
    }

    /// Judges the game played on the board from its root, as `/judge` does (a `Judgement`:
    /// verdict, reason, draw-rule counters...). The options are `judge()`'s.
    #[pyo3(signature = (declared_result=None, *, result_convention="first-mover", adjudicate=None, max_plies=None, include_pdn=false, tables=None, budget=Some(arbiter::config::DEFAULT_WORK_BUDGET)))]
    #[allow(clippy::too_many_arguments)]
    fn judge<'py>(
        &self,
        py: Python<'py>,
        declared_result: Option<&str>,
        result_convention: &str,
        adjudicate: Option<&str>,
        max_plies: Option<u64>,
        include_pdn: bool,
        tables: Option<&Bound<'py, crate::endgame::EndgameTables>>,
        budget: Option<u64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let moves = self
            .stack
            .iter()
            .map(|(_, m)| m.get().notation(py))
            .collect::<PyResult<Vec<_>>>()?;
        let options =
            crate::judging::judge_options(result_convention, adjudicate, max_plies, include_pdn)?;
        crate::judging::judge_moves(
            py,
            self.node.v,
            Some(self.root.fen()),
            moves,
            declared_result,
            options,
            tables,
            budget,
        )
    }

    /// A board with the same root and moves.
    fn copy(&self, py: Python<'_>) -> Board {
        Board {
            root: self.root.clone(),
            node: self.node.clone(),
            stack: self
                .stack
                .iter()
                .map(|(n, m)| (n.clone(), m.clone_ref(py)))
                .collect(),
        }
    }

    fn __copy__(&self, py: Python<'_>) -> Board {
        self.copy(py)
    }

    fn __str__(&self) -> String {
        self.node.fen()
    }

    fn __repr__(&self) -> String {
        format!("Board('{}', '{}')", self.node.v.id(), self.node.fen())
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Compared> {
        let same = match other.cast::<Board>() {
            Ok(o) => {
                let o = o.try_borrow()?;
                Some(self.node.same_position(&o.node) && self.node.counters == o.node.counters)
            }
            Err(_) => None,
        };
        Ok(Compared::of(op, same))
    }
}
