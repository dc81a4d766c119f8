//! An independent reference move generator for the Camelot family
//! (`camelot-lovagcsata`, `cam`, `camelot`), written from the rules text only (the World
//! Camelot Federation's Cam and Camelot rules, the Hungarian booklet's knights' game, and the
//! catalogue's rule decisions).
//!
//! Deliberately simple: a cell list with neighbour tables, a copy of the board
//! per move generation, depth-first search over routes with a visited set, and
//! de-duplication of moves by (from, to, captured set).
//!
//! Rule reading, in short (numbered rule decisions):
//! 1. 8-neighbour adjacency; a leap in direction d goes over the neighbour in d
//!    to the next cell in d; both cells must exist.
//! 2. Step: to an adjacent empty cell.
//! 3. Canter: over an adjacent friendly piece to an empty cell; repeatable,
//!    may stop at any landing.
//! 4. Jump: over an adjacent enemy to an empty cell; the enemy is removed at
//!    once; the sequence must be continued while a jump is available.
//! 5. Charge (knights only): canter(s) then jump(s), never jump(s) then canter(s).
//!    A knight whose canter lands where a jump is available must jump "unless it
//!    captures elsewhere in the same move" (World Camelot Federation): it may jump
//!    from there or canter on, but a move of a knight one of whose canter landings
//!    offered a jump must capture. Only canter landings count (the start square is
//!    no landing; a jump from it is rule 7's business). A landing on the
//!    opponent's castle ends the move (rule 9) and offers nothing.
//! 6. No cell may be landed on twice; the start cell counts as visited.
//! 7. If any piece can jump directly, the move must capture (jump or capturing
//!    charge).
//! 8. Own castle: entered only by a jump landing; a piece standing on its own
//!    castle at the start of the turn must leave it (overrides 7); among the
//!    moves that leave it rule 7 applies: if a piece there has a direct jump out,
//!    the move must capture (with two pieces there, either may).
//! 9. Opponent castle: landing there ends the move. Camelot: a piece there can
//!    only make a "castle move" (step to the other castle cell), max 2 per
//!    player per game.
//! 10. End rules: see [`status`].
//! 11. Moves are identified by (from, to, captured set).

use std::collections::BTreeSet;
use std::fmt;
use std::sync::OnceLock;

// ---------------------------------------------------------------------------
// Games and boards
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Game {
    Lovagcsata,
    Cam,
    Camelot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White,
    Black,
}

impl Color {
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
    fn idx(self) -> usize {
        match self {
            Color::White => 0,
            Color::Black => 1,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Man,
    Knight,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub kind: Kind,
}

/// The 8 king directions as (file delta, rank delta).
pub const DIRS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// Board geometry. Cells are indexed rank-major from rank 1 (White's side),
/// files left to right within a rank.
#[derive(Debug)]
pub struct Board {
    pub width: usize,
    pub height: usize,
    /// (file, rank), 0-based, per cell index.
    pub coords: Vec<(usize, usize)>,
    /// grid[rank * width + file] = cell index.
    grid: Vec<Option<usize>>,
    /// Neighbour in each of the 8 directions.
    pub nb: Vec<[Option<usize>; 8]>,
    /// Castle cells of White (index 0) and Black (index 1).
    pub castles: [Vec<usize>; 2],
}

impl Board {
    fn build(width: usize, height: usize, rows: &[(usize, usize)], castles: [&[&str]; 2]) -> Board {
        // rows[r] = (first file, last file) inclusive, for rank r (0-based)
        assert_eq!(rows.len(), height);
        let mut coords = Vec::new();
        let mut grid = vec![None; width * height];
        for (r, &(lo, hi)) in rows.iter().enumerate() {
            for f in lo..=hi {
                grid[r * width + f] = Some(coords.len());
                coords.push((f, r));
            }
        }
        let mut b = Board {
            width,
            height,
            coords,
            grid,
            nb: Vec::new(),
            castles: [Vec::new(), Vec::new()],
        };
        let mut nb = Vec::new();
        for i in 0..b.coords.len() {
            let (f, r) = b.coords[i];
            let mut a = [None; 8];
            for (d, &(df, dr)) in DIRS.iter().enumerate() {
                a[d] = b.at(f as i32 + df, r as i32 + dr);
            }
            nb.push(a);
        }
        b.nb = nb;
        let cs: Vec<Vec<usize>> = castles
            .iter()
            .map(|l| {
                l.iter()
                    .map(|s| b.index(s).expect("castle square"))
                    .collect()
            })
            .collect();
        b.castles = [cs[0].clone(), cs[1].clone()];
        b
    }

    pub fn at(&self, f: i32, r: i32) -> Option<usize> {
        if f < 0 || r < 0 || f as usize >= self.width || r as usize >= self.height {
            return None;
        }
        self.grid[r as usize * self.width + f as usize]
    }

    pub fn len(&self) -> usize {
        self.coords.len()
    }

    pub fn is_empty(&self) -> bool {
        self.coords.is_empty()
    }

    /// Leap from `sq` in direction `d`: (jumped-over cell, landing cell).
    pub fn leap(&self, sq: usize, d: usize) -> Option<(usize, usize)> {
        let over = self.nb[sq][d]?;
        let land = self.nb[over][d]?;
        Some((over, land))
    }

    pub fn name(&self, sq: usize) -> String {
        let (f, r) = self.coords[sq];
        format!("{}{}", (b'a' + f as u8) as char, r + 1)
    }

    pub fn index(&self, name: &str) -> Option<usize> {
        let mut ch = name.chars();
        let fc = ch.next()?.to_ascii_lowercase();
        if !fc.is_ascii_lowercase() {
            return None;
        }
        let rest: String = ch.collect();
        if rest.is_empty() || !rest.chars().all(|c| c.is_ascii_digit()) || rest.starts_with('0') {
            return None;
        }
        let r: i32 = rest.parse().ok()?;
        self.at((fc as u8 - b'a') as i32, r - 1)
    }

    pub fn is_castle(&self, c: Color, sq: usize) -> bool {
        self.castles[c.idx()].contains(&sq)
    }
}

impl Game {
    pub const ALL: [Game; 3] = [Game::Lovagcsata, Game::Cam, Game::Camelot];

    pub fn id(self) -> &'static str {
        match self {
            Game::Lovagcsata => "camelot-lovagcsata",
            Game::Cam => "cam",
            Game::Camelot => "camelot",
        }
    }

    pub fn from_id(s: &str) -> Option<Game> {
        Game::ALL.iter().copied().find(|g| g.id() == s)
    }

    pub fn board(self) -> &'static Board {
        static CAM: OnceLock<Board> = OnceLock::new();
        static CAMELOT: OnceLock<Board> = OnceLock::new();
        match self {
            Game::Lovagcsata | Game::Cam => CAM.get_or_init(|| {
                // files a-g (0..=6), ranks 1-13
                let mut rows = vec![(3, 3), (2, 4), (1, 5)];
                rows.extend([(0, 6); 7]);
                rows.extend([(1, 5), (2, 4), (3, 3)]);
                Board::build(7, 13, &rows, [&["d1"], &["d13"]])
            }),
            Game::Camelot => CAMELOT.get_or_init(|| {
                // files a-l (0..=11), ranks 1-16
                let mut rows = vec![(5, 6), (2, 9), (1, 10)];
                rows.extend([(0, 11); 10]);
                rows.extend([(1, 10), (2, 9), (5, 6)]);
                Board::build(12, 16, &rows, [&["f1", "g1"], &["f16", "g16"]])
            }),
        }
    }

    pub fn start_fen(self) -> &'static str {
        match self {
            Game::Cam => "W:WNc4,Ne4,b5,c5,d5,e5,f5:BNc10,Ne10,b9,c9,d9,e9,f9",
            Game::Lovagcsata => "W:WNc4,Ne4,Nb5,Nc5,Nd5,Ne5,Nf5:BNb9,Nc9,Nd9,Ne9,Nf9,Nc10,Ne10",
            Game::Camelot => {
                "W:WNc6,Nj6,Nd7,Ni7,d6,e6,f6,g6,h6,i6,e7,f7,g7,h7\
                 :BNd10,Ni10,Nc11,Nj11,e10,f10,g10,h10,d11,e11,f11,g11,h11,i11"
            }
        }
    }

    pub fn start(self) -> Position {
        parse_fen(self, self.start_fen()).expect("start FEN")
    }
}

// ---------------------------------------------------------------------------
// Positions and FEN
// ---------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub game: Game,
    pub to_move: Color,
    pub cells: Vec<Option<Piece>>,
    /// Castle moves already made by White, Black (Camelot only; else 0,0).
    pub castle_moves: [u8; 2],
}

impl Position {
    pub fn board(&self) -> &'static Board {
        self.game.board()
    }
    pub fn count(&self, c: Color) -> usize {
        self.cells
            .iter()
            .filter(|p| matches!(p, Some(q) if q.color == c))
            .count()
    }
}

/// Parse `W:WNc4,b5:BNc10,b9` (+ optional `:C<w>,<b>` for Camelot).
pub fn parse_fen(game: Game, fen: &str) -> Result<Position, String> {
    let b = game.board();
    let fen = fen.trim();
    let fields: Vec<&str> = fen.split(':').collect();
    let to_move = match fields.first().map(|s| s.trim()) {
        Some("W") => Color::White,
        Some("B") => Color::Black,
        _ => return Err(format!("bad side to move in {fen:?}")),
    };
    let mut cells = vec![None; b.len()];
    let mut castle_moves = [0u8; 2];
    let mut seen = [false; 3];
    for f in &fields[1..] {
        let f = f.trim();
        let (head, rest) = f.split_at(f.len().min(1));
        let (color, slot) = match head {
            "W" => (Some(Color::White), 0),
            "B" => (Some(Color::Black), 1),
            "C" => (None, 2),
            _ => return Err(format!("bad field {f:?}")),
        };
        if seen[slot] {
            return Err(format!("repeated field {f:?}"));
        }
        seen[slot] = true;
        match color {
            Some(color) => {
                for item in rest.split(',').map(|s| s.trim()).filter(|s| !s.is_empty()) {
                    let (kind, sq) = match item.strip_prefix('N') {
                        Some(s) => (Kind::Knight, s),
                        None => (Kind::Man, item),
                    };
                    let i = b.index(sq).ok_or_else(|| format!("bad square {item:?}"))?;
                    if cells[i].is_some() {
                        return Err(format!("square {sq} given twice"));
                    }
                    cells[i] = Some(Piece { color, kind });
                }
            }
            None => {
                let v: Vec<&str> = rest.split(',').collect();
                if v.len() != 2 {
                    return Err(format!("bad castle-move field {f:?}"));
                }
                for k in 0..2 {
                    let n: u8 = v[k]
                        .trim()
                        .parse()
                        .map_err(|_| format!("bad castle-move field {f:?}"))?;
                    if n > 2 {
                        return Err(format!("castle-move count {n} > 2"));
                    }
                    castle_moves[k] = n;
                }
                if game != Game::Camelot && castle_moves != [0, 0] {
                    return Err("castle-move counts exist only in camelot".into());
                }
            }
        }
    }
    if !seen[0] || !seen[1] {
        return Err(format!("missing W or B field in {fen:?}"));
    }
    Ok(Position {
        game,
        to_move,
        cells,
        castle_moves,
    })
}

/// Print a position: knights first, then men, each in cell order (rank 1
/// first, files a..); `:C<w>,<b>` only when not 0,0.
pub fn to_fen(pos: &Position) -> String {
    let b = pos.board();
    let mut s = String::from(match pos.to_move {
        Color::White => "W",
        Color::Black => "B",
    });
    for color in [Color::White, Color::Black] {
        s.push(':');
        s.push(if color == Color::White { 'W' } else { 'B' });
        let mut items = Vec::new();
        for kind in [Kind::Knight, Kind::Man] {
            for (i, p) in pos.cells.iter().enumerate() {
                if *p == Some(Piece { color, kind }) {
                    let pre = if kind == Kind::Knight { "N" } else { "" };
                    items.push(format!("{pre}{}", b.name(i)));
                }
            }
        }
        s.push_str(&items.join(","));
    }
    if pos.castle_moves != [0, 0] {
        s.push_str(&format!(
            ":C{},{}",
            pos.castle_moves[0], pos.castle_moves[1]
        ));
    }
    s
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&to_fen(self))
    }
}

// ---------------------------------------------------------------------------
// Moves
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Leg {
    /// Plain one-cell step.
    Step,
    /// Leap over a friendly piece.
    Canter,
    /// Leap over an enemy piece (capture).
    Jump,
    /// Camelot: step between the two cells of the opponent's castle.
    CastleMove,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    pub from: usize,
    pub to: usize,
    /// Cells of the captured pieces.
    pub captured: BTreeSet<usize>,
    /// Landing cells in order (the last one is `to`); the start is not included.
    pub route: Vec<usize>,
    /// Kind of each leg, parallel to `route`.
    pub legs: Vec<Leg>,
}

impl Move {
    /// Identity of a move: (from, to, captured set).
    pub fn key(&self) -> (usize, usize, &BTreeSet<usize>) {
        (self.from, self.to, &self.captured)
    }
    pub fn is_capture(&self) -> bool {
        !self.captured.is_empty()
    }
    /// e.g. `c4-d4`, `c4-c6-e6` (canters), `c6xc8xe8`, `c4-c6xc8` (charge).
    pub fn notation(&self, game: Game) -> String {
        let b = game.board();
        let mut s = b.name(self.from);
        for (sq, leg) in self.route.iter().zip(&self.legs) {
            s.push(if *leg == Leg::Jump { 'x' } else { '-' });
            s.push_str(&b.name(*sq));
        }
        s
    }
}

// ---------------------------------------------------------------------------
// Move generation
// ---------------------------------------------------------------------------

struct Gen<'a> {
    b: &'a Board,
    cells: Vec<Option<Piece>>,
    me: Color,
    kind: Kind,
    from: usize,
    visited: Vec<bool>,
    route: Vec<usize>,
    legs: Vec<Leg>,
    captured: Vec<usize>,
    /// How many canter landings of the current route offered the knight a jump.
    offered: usize,
    out: Vec<Move>,
}

impl<'a> Gen<'a> {
    fn new(pos: &Position, from: usize) -> Gen<'static> {
        let b = pos.board();
        let p = pos.cells[from].expect("piece on from");
        let mut cells = pos.cells.clone();
        cells[from] = None; // the mover is lifted off its cell
        let mut visited = vec![false; b.len()];
        visited[from] = true;
        Gen {
            b,
            cells,
            me: p.color,
            kind: p.kind,
            from,
            visited,
            route: Vec::new(),
            legs: Vec::new(),
            captured: Vec::new(),
            offered: 0,
            out: Vec::new(),
        }
    }

    fn emit(&mut self) {
        if self.offered > 0 && self.captured.is_empty() {
            // Rule 5: a jump was offered on the way, and this move does not capture.
            return;
        }
        let to = *self.route.last().expect("non-empty route");
        let captured: BTreeSet<usize> = self.captured.iter().copied().collect();
        self.out.push(Move {
            from: self.from,
            to,
            captured,
            route: self.route.clone(),
            legs: self.legs.clone(),
        });
    }

    fn own_castle(&self, sq: usize) -> bool {
        self.b.is_castle(self.me, sq)
    }
    fn opp_castle(&self, sq: usize) -> bool {
        self.b.is_castle(self.me.other(), sq)
    }

    /// Jumps available from `cur`: (over, land).
    fn jumps_from(&self, cur: usize) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        for d in 0..8 {
            if let Some((over, land)) = self.b.leap(cur, d) {
                let enemy = matches!(self.cells[over], Some(p) if p.color != self.me);
                if enemy && self.cells[land].is_none() && !self.visited[land] {
                    v.push((over, land));
                }
            }
        }
        v
    }

    /// Canters available from `cur`: (over, land). Never into the own castle.
    fn canters_from(&self, cur: usize) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        for d in 0..8 {
            if let Some((over, land)) = self.b.leap(cur, d) {
                let friend = matches!(self.cells[over], Some(p) if p.color == self.me);
                if friend
                    && self.cells[land].is_none()
                    && !self.visited[land]
                    && !self.own_castle(land)
                {
                    v.push((over, land));
                }
            }
        }
        v
    }

    /// The piece has just landed on `cur` by a jump (or stands there, ready to
    /// make the first jump of a charge): continue jumping while possible.
    /// Must be called only when at least one jump is available from `cur`, or
    /// after a jump landing.
    fn jump_dfs(&mut self, cur: usize) {
        let js = self.jumps_from(cur);
        if js.is_empty() {
            self.emit();
            return;
        }
        for (over, land) in js {
            let victim = self.cells[over].take();
            self.visited[land] = true;
            self.route.push(land);
            self.legs.push(Leg::Jump);
            self.captured.push(over);
            if self.opp_castle(land) {
                self.emit(); // the move ends on the opponent's castle
            } else {
                self.jump_dfs(land);
            }
            self.captured.pop();
            self.legs.pop();
            self.route.pop();
            self.visited[land] = false;
            self.cells[over] = victim;
        }
    }

    /// Every canter route from `cur`, each landing a candidate end (rule 3); a
    /// knight may also start jumping from any landing where a jump is available
    /// (rule 5). `emit` drops the ends rule 5 forbids.
    fn canter_dfs(&mut self, cur: usize) {
        for (_over, land) in self.canters_from(cur) {
            self.visited[land] = true;
            self.route.push(land);
            self.legs.push(Leg::Canter);
            if self.opp_castle(land) {
                self.emit(); // the move ends here (rule 9)
            } else {
                let offers = self.kind == Kind::Knight && !self.jumps_from(land).is_empty();
                if offers {
                    self.offered += 1;
                }
                self.emit(); // stop here ...
                if offers {
                    self.jump_dfs(land); // ... or charge from here ...
                }
                self.canter_dfs(land); // ... or canter on
                if offers {
                    self.offered -= 1;
                }
            }
            self.legs.pop();
            self.route.pop();
            self.visited[land] = false;
        }
    }

    fn steps(&mut self) {
        for d in 0..8 {
            let t = match self.b.nb[self.from][d] {
                Some(t) => t,
                None => continue,
            };
            if self.cells[t].is_none() && !self.own_castle(t) {
                self.route.push(t);
                self.legs.push(Leg::Step);
                self.emit();
                self.legs.pop();
                self.route.pop();
            }
        }
    }
}

/// Add moves, collapsing those with equal (from, to, captured); the first
/// route found is kept.
fn add_unique(out: &mut Vec<Move>, new: Vec<Move>) {
    for m in new {
        if !out.iter().any(|o| o.key() == m.key()) {
            out.push(m);
        }
    }
}

/// All moves of the piece on `from`, ignoring the turn-level obligations
/// (capture obligation, own-castle exit). Includes the Camelot castle move.
pub fn piece_moves(pos: &Position, from: usize) -> Vec<Move> {
    let b = pos.board();
    let p = match pos.cells[from] {
        Some(p) => p,
        None => return Vec::new(),
    };
    if b.is_castle(p.color.other(), from) {
        // Standing on the opponent's castle. In Camelot: only the castle move.
        // (In Cam / lovagcsata such a position is decided by `status`; the
        // piece is given no moves here.)
        let mut v = Vec::new();
        if pos.game == Game::Camelot && pos.castle_moves[p.color.idx()] < 2 {
            for &t in &b.castles[p.color.other().idx()] {
                if t != from && pos.cells[t].is_none() && b.nb[from].contains(&Some(t)) {
                    v.push(Move {
                        from,
                        to: t,
                        captured: BTreeSet::new(),
                        route: vec![t],
                        legs: vec![Leg::CastleMove],
                    });
                }
            }
        }
        return v;
    }
    let mut g = Gen::new(pos, from);
    g.steps();
    g.canter_dfs(from);
    if !g.jumps_from(from).is_empty() {
        g.jump_dfs(from);
    }
    let mut out = Vec::new();
    add_unique(&mut out, g.out);
    out
}

/// Whether `m`, a legal move of `pos`, is a knight's charge that cantered on past a canter
/// landing where a jump was available (what rule 5 allows when the move then captures).
pub fn cantered_past_a_jump(pos: &Position, m: &Move) -> bool {
    let Some(last_canter) = m.legs.iter().rposition(|l| *l == Leg::Canter) else {
        return false;
    };
    let mut g = Gen::new(pos, m.from);
    (0..last_canter).any(|i| {
        let land = m.route[i];
        g.visited[land] = true;
        !g.opp_castle(land) && !g.jumps_from(land).is_empty()
    })
}

/// Does the piece on `from` have a direct jump (rule 7)?
pub fn has_direct_jump(pos: &Position, from: usize) -> bool {
    let b = pos.board();
    match pos.cells[from] {
        Some(p) if !b.is_castle(p.color.other(), from) => {
            !Gen::new(pos, from).jumps_from(from).is_empty()
        }
        _ => false,
    }
}

/// Legal moves ignoring `status` (used by `status` for the no-move test).
fn generate(pos: &Position) -> Vec<Move> {
    let b = pos.board();
    let me = pos.to_move;
    let mine: Vec<usize> = (0..b.len())
        .filter(|&i| matches!(pos.cells[i], Some(p) if p.color == me))
        .collect();

    // Rule 8: pieces standing on their own castle must leave.
    let in_castle: Vec<usize> = mine
        .iter()
        .copied()
        .filter(|&i| b.is_castle(me, i))
        .collect();
    if !in_castle.is_empty() {
        let mut out = Vec::new();
        for &sq in &in_castle {
            let ms: Vec<Move> = piece_moves(pos, sq)
                .into_iter()
                .filter(|m| !b.is_castle(me, m.to))
                .collect();
            add_unique(&mut out, ms);
        }
        // Obligations stack: among the moves that leave the castle, rule 7 applies. A
        // direct jump that can be completed outside the castle, by any piece standing
        // there, obliges the side to capture its way out.
        if out.iter().any(|m| m.legs[0] == Leg::Jump) {
            out.retain(|m| m.is_capture());
        }
        return out;
    }

    let must_capture = mine.iter().any(|&i| has_direct_jump(pos, i));
    let mut out = Vec::new();
    for &sq in &mine {
        let mut ms = piece_moves(pos, sq);
        if must_capture {
            ms.retain(|m| m.is_capture());
        }
        add_unique(&mut out, ms);
    }
    out
}

/// The legal moves; empty when the position is decided.
pub fn legal_moves(pos: &Position) -> Vec<Move> {
    if static_status(pos).is_some() {
        return Vec::new();
    }
    generate(pos)
}

/// Play a move (assumed legal).
pub fn play(pos: &Position, m: &Move) -> Position {
    let b = pos.board();
    let mut n = pos.clone();
    let p = n.cells[m.from].take().expect("piece on from");
    for &c in &m.captured {
        n.cells[c] = None;
    }
    n.cells[m.to] = Some(p);
    if pos.game == Game::Camelot && b.is_castle(p.color.other(), m.from) {
        n.castle_moves[p.color.idx()] += 1;
    }
    n.to_move = pos.to_move.other();
    n
}

/// Find the legal move given as text: `from-to` (unique by from/to), or a
/// full route such as `c4-c6xc8` (any valid route of a legal move).
pub fn find_move(pos: &Position, text: &str) -> Option<Move> {
    let b = pos.board();
    let sqs: Vec<usize> = text
        .split(['-', 'x'])
        .map(|s| b.index(s.trim()))
        .collect::<Option<_>>()?;
    if sqs.len() < 2 {
        return None;
    }
    let moves = legal_moves(pos);
    // exact route first
    for m in &moves {
        if m.from == sqs[0] && m.route == sqs[1..] {
            return Some(m.clone());
        }
    }
    let cands: Vec<&Move> = moves
        .iter()
        .filter(|m| m.from == sqs[0] && m.to == *sqs.last().unwrap())
        .collect();
    if sqs.len() == 2 && cands.len() == 1 {
        return Some(cands[0].clone());
    }
    None
}

// ---------------------------------------------------------------------------
// End rules
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(Color),
    Draw,
}

/// End rules that need no move generation.
fn static_status(pos: &Position) -> Option<(Outcome, &'static str)> {
    let b = pos.board();
    let s = pos.to_move;
    let o = s.other();
    let on = |c: Color, sq: usize| matches!(pos.cells[sq], Some(p) if p.color == c);
    let (ns, no) = (pos.count(s), pos.count(o));
    match pos.game {
        Game::Camelot => {
            if b.castles[s.idx()].iter().all(|&sq| on(o, sq)) {
                return Some((Outcome::Win(o), "castle occupied"));
            }
            // Set-up positions only: the side to move already holds the other castle.
            if b.castles[o.idx()].iter().all(|&sq| on(s, sq)) {
                return Some((Outcome::Win(s), "castle occupied"));
            }
            if ns == 1 && no == 1 {
                return Some((Outcome::Draw, "one piece each"));
            }
            if ns == 0 {
                return Some(if no >= 2 {
                    (Outcome::Win(o), "all captured")
                } else {
                    (Outcome::Draw, "insufficient material")
                });
            }
            if no == 0 {
                return Some(if ns >= 2 {
                    (Outcome::Win(s), "all captured")
                } else {
                    (Outcome::Draw, "insufficient material")
                });
            }
            None
        }
        Game::Cam | Game::Lovagcsata => {
            if b.castles[s.idx()].iter().any(|&sq| on(o, sq)) {
                return Some((Outcome::Win(o), "castle entered"));
            }
            // Set-up positions only: the side to move already stands on the enemy castle.
            if b.castles[o.idx()].iter().any(|&sq| on(s, sq)) {
                return Some((Outcome::Win(s), "castle entered"));
            }
            if ns == 0 {
                return Some((Outcome::Win(o), "all captured"));
            }
            if no == 0 {
                return Some((Outcome::Win(s), "all captured"));
            }
            None
        }
    }
}

/// Status of the position (side to move S, opponent O just moved):
/// `None` while the game goes on, else the outcome and a reason.
pub fn status(pos: &Position) -> Option<(Outcome, &'static str)> {
    if let Some(r) = static_status(pos) {
        return Some(r);
    }
    if generate(pos).is_empty() {
        let o = pos.to_move.other();
        return Some(match pos.game {
            Game::Camelot if pos.count(o) < 2 => {
                (Outcome::Draw, "no legal move, winner has < 2 pieces")
            }
            _ => (Outcome::Win(o), "no legal move"),
        });
    }
    None
}

/// Judge a game record: replay `moves` from `start` (each must be legal, by
/// its (from, to, captured) key) and return the result, if any, after the
/// last move or at the first decided position (later moves are then an error).
///
/// Besides [`status`]: threefold repetition of a position (pieces, side to
/// move, castle-move counts; the start position counts) is a draw in all three
/// games; in Camelot, 50 moves by each side (100 plies) in a row without a
/// capture and without a piece entering the opponent's castle (castle moves do
/// not count as entries) is a draw. `status` is looked at first.
pub fn judge(start: &Position, moves: &[Move]) -> Result<Option<(Outcome, String)>, String> {
    use std::collections::HashMap;
    let mut pos = start.clone();
    let mut seen: HashMap<Position, u32> = HashMap::new();
    *seen.entry(pos.clone()).or_insert(0) += 1;
    let mut quiet = 0u32;
    for (i, m) in moves.iter().enumerate() {
        if let Some((o, r)) = status(&pos) {
            return Err(format!(
                "move {} played after the game ended ({o:?}, {r})",
                i + 1
            ));
        }
        let legal = legal_moves(&pos);
        let lm = legal
            .iter()
            .find(|l| l.key() == m.key())
            .ok_or_else(|| format!("move {} ({}) is not legal", i + 1, m.notation(pos.game)))?;
        let b = pos.board();
        let opp = pos.to_move.other();
        let entry = b.is_castle(opp, lm.to) && !b.is_castle(opp, lm.from);
        quiet = if lm.is_capture() || entry {
            0
        } else {
            quiet + 1
        };
        pos = play(&pos, lm);
        let n = seen.entry(pos.clone()).or_insert(0);
        *n += 1;
        let reps = *n;
        if i + 1 < moves.len() {
            // a decided position may only be the last one
            if let Some((o, r)) = status(&pos) {
                return Err(format!(
                    "move {} played after the game ended ({o:?}, {r})",
                    i + 2
                ));
            }
        }
        if let Some((o, r)) = status(&pos) {
            return Ok(Some((o, r.to_string())));
        }
        if reps >= 3 {
            if i + 1 < moves.len() {
                return Err(format!("move {} played after threefold repetition", i + 2));
            }
            return Ok(Some((Outcome::Draw, "threefold repetition".into())));
        }
        if pos.game == Game::Camelot && quiet >= 100 {
            if i + 1 < moves.len() {
                return Err(format!("move {} played after the 50-move rule", i + 2));
            }
            return Ok(Some((
                Outcome::Draw,
                "50 moves each without capture or castle entry".into(),
            )));
        }
    }
    Ok(status(&pos).map(|(o, r)| (o, r.to_string())))
}

/// Perft: number of move paths of length `depth`; a decided position is a
/// leaf only at depth 0 (no moves are generated from it).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|m| perft(&play(pos, m), depth - 1)).sum()
}

/// Number of distinct routes (no collapsing) the legal moves have, from the
/// same DFS without the (from, to, captured) de-duplication.
pub fn route_count(pos: &Position) -> usize {
    let legal = legal_moves(pos);
    let b = pos.board();
    let mut n = 0;
    for i in 0..b.len() {
        if !matches!(pos.cells[i], Some(p) if p.color == pos.to_move) {
            continue;
        }
        if b.is_castle(pos.to_move.other(), i) {
            n += legal.iter().filter(|m| m.from == i).count();
            continue;
        }
        let mut g = Gen::new(pos, i);
        g.steps();
        g.canter_dfs(i);
        if !g.jumps_from(i).is_empty() {
            g.jump_dfs(i);
        }
        n += g
            .out
            .iter()
            .filter(|m| legal.iter().any(|l| l.key() == m.key()))
            .count();
    }
    n
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(g: Game, fen: &str) -> Position {
        parse_fen(g, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }
    fn sq(g: Game, s: &str) -> usize {
        g.board().index(s).unwrap()
    }
    /// Moves as sorted "from-to[xcaptured..]" strings.
    fn list(p: &Position) -> Vec<String> {
        let b = p.board();
        let mut v: Vec<String> = legal_moves(p)
            .iter()
            .map(|m| {
                let mut s = format!("{}-{}", b.name(m.from), b.name(m.to));
                for c in &m.captured {
                    s.push('x');
                    s.push_str(&b.name(*c));
                }
                s
            })
            .collect();
        v.sort();
        v
    }
    fn has(p: &Position, m: &str) -> bool {
        list(p).iter().any(|x| x == m)
    }

    #[test]
    fn board_sizes() {
        assert_eq!(Game::Cam.board().len(), 67);
        assert_eq!(Game::Camelot.board().len(), 160);
        let b = Game::Camelot.board();
        assert!(b.index("a3").is_none() && b.index("b3").is_some() && b.index("e1").is_none());
        assert!(b.index("m5").is_none() && b.index("l13").is_some() && b.index("l14").is_none());
    }

    #[test]
    fn fen_roundtrip() {
        for g in Game::ALL {
            let p = g.start();
            assert_eq!(to_fen(&p), g.start_fen().replace(' ', ""));
            assert_eq!(
                p.count(Color::White),
                if g == Game::Camelot { 14 } else { 7 }
            );
        }
        let p = pos(Game::Camelot, "B:W:Bf16,Ng16:C2,1");
        assert_eq!(to_fen(&p), "B:W:BNg16,f16:C2,1");
        assert!(parse_fen(Game::Cam, "W:Wd4:Bd8:C1,0").is_err());
        assert!(parse_fen(Game::Cam, "W:Wd4,d4:Bd8").is_err());
        assert!(parse_fen(Game::Cam, "W:Wa1:Bd8").is_err());
    }

    #[test]
    fn perft1_start() {
        assert_eq!(perft(&Game::Cam.start(), 1), 54);
        assert_eq!(perft(&Game::Lovagcsata.start(), 1), 54);
        assert_eq!(perft(&Game::Camelot.start(), 1), 100);
    }

    /// This crate's own deeper figures (regression values, not from the spec).
    #[test]
    fn perft_start_regression() {
        assert_eq!(perft(&Game::Cam.start(), 2), 2916);
        assert_eq!(perft(&Game::Cam.start(), 3), 166_212);
        assert_eq!(perft(&Game::Lovagcsata.start(), 3), 166_288);
        assert_eq!(perft(&Game::Camelot.start(), 2), 10_026);
        // A knight in its own castle must leave (3 ways) in this lovagcsata position.
        let p = parse_fen(Game::Lovagcsata, "B:WNc3,Nd4,Nf5:BNg7,Nd8,Ne9,Nc10,Nd13").unwrap();
        assert_eq!((perft(&p, 1), perft(&p, 2), perft(&p, 3)), (3, 69, 2106));
        // Camelot, castle move available (1 already used by White).
        let p = parse_fen(
            Game::Camelot,
            "W:WNc4,g16:BNd8,Ne10,g10,d11,j12,d13,f13:C1,0",
        )
        .unwrap();
        assert_eq!((perft(&p, 1), perft(&p, 2), perft(&p, 3)), (9, 531, 4425));
    }

    #[test]
    fn camelot_start_routes() {
        // 100 distinct (from, to) moves, reached by 112 distinct routes
        // (plain steps included; every canter path counted separately).
        assert_eq!(route_count(&Game::Camelot.start()), 112);
    }

    #[test]
    fn canter_may_stop_midway() {
        // Cam. White men d4, d5, d7; Black man d10 far away.
        // d4 canters over d5 to d6 and may stop there (d4-d6), or canter on
        // over d7 to d8 (d4-d8). Both are moves.
        let p = pos(Game::Cam, "W:Wd4,d5,d7:Bd10");
        assert!(has(&p, "d4-d6"));
        assert!(has(&p, "d4-d8"));
        // The same for a knight when no enemy is within jumping reach.
        let p = pos(Game::Cam, "W:WNd4,d5,d7:Bd10");
        assert!(has(&p, "d4-d6") && has(&p, "d4-d8"));
    }

    #[test]
    fn no_cell_landed_twice_canter() {
        // Cam. White men c4, d4, c5, d5 (a 2x2 block); Black d10 far away.
        // Canters of c4: over d4 -> e4, over c5 -> c6, over d5 -> e6.
        //  from e4: over d5 -> c6; over d4 -> c4 = start (visited): no.
        //  from c6: over d5 -> e4; over c5 -> c4 = start: no.
        //  from e6: over d5 -> c4 = start: no.
        // So the canter destinations of c4 are exactly {c6, e4, e6}.
        let p = pos(Game::Cam, "W:Wc4,d4,c5,d5:Bd10");
        let b = Game::Cam.board();
        let from_c4: Vec<Move> = legal_moves(&p)
            .into_iter()
            .filter(|m| m.from == sq(Game::Cam, "c4"))
            .collect();
        assert!(from_c4.iter().all(|m| m.to != sq(Game::Cam, "c4")));
        let canter_ends: BTreeSet<String> = from_c4
            .iter()
            .filter(|m| m.legs[0] == Leg::Canter)
            .map(|m| b.name(m.to))
            .collect();
        assert_eq!(
            canter_ends,
            ["c6", "e4", "e6"].iter().map(|s| s.to_string()).collect()
        );
    }

    #[test]
    fn jump_sequence_continues_and_never_revisits() {
        // Cam, Black to move. Black man d4; White men d5, c7.
        // d4 x d5 -> d6, then d6 x c7 -> b8: the sequence must go on, so
        // d4-d6 alone is not a move; the single move is d4-b8 (d5, c7).
        let p = pos(Game::Cam, "B:Wd5,c7:Bd4,d10");
        assert_eq!(list(&p), vec!["d4-b8xd5xc7"]);
        // Cam, Black to move. Black man c4 inside a ring of White men c5, d6,
        // e5, d4 (White a10 far away).
        //  c4 x c5 -> c6; c6 x d6 -> e6; e6 x e5 -> e4; e4 x d4 -> c4 is the
        //  start square (visited): not available, the sequence ends on e4.
        //  The other way round: c4 x d4 -> e4 x e5 -> e6 x d6 -> c6, ends on c6.
        // No diagonal jumps exist (d5, and the other diagonals, are empty).
        let p = pos(Game::Cam, "B:Wc5,d6,e5,d4,a10:Bc4");
        assert_eq!(list(&p), vec!["c4-c6xd4xe5xd6", "c4-e4xc5xe5xd6"]);
    }

    #[test]
    fn direct_jump_obliges_capture() {
        // Cam. White man d4 can jump Black d5 -> d6 directly; White a4 could
        // step: the capture is compulsory, so it is the only move.
        let p = pos(Game::Cam, "W:Wd4,a4:Bd5,a10");
        assert_eq!(list(&p), vec!["d4-d6xd5"]);
    }

    #[test]
    fn charge_forced_after_canter_next_to_enemy() {
        // Cam. White knight c4, White man c5; Black men d7, a10.
        // No White piece is next to a Black one: no capture obligation, plain
        // moves stay legal (c4-d4). The knight canters c4 over c5 -> c6; from c6
        // it can jump d7 -> e8, so it MUST: c4-c6 is not a move, the charge
        // c4-c6xe8 (capturing d7) is.
        let p = pos(Game::Cam, "W:WNc4,c5:Bd7,a10");
        assert!(!has(&p, "c4-c6"));
        assert!(has(&p, "c4-e8xd7"));
        assert!(has(&p, "c4-d4"));
        let m = legal_moves(&p)
            .into_iter()
            .find(|m| m.is_capture())
            .unwrap();
        assert_eq!(m.legs, vec![Leg::Canter, Leg::Jump]);
        assert_eq!(m.notation(Game::Cam), "c4-c6xe8");
        // A man in the same place: the canter c4-c6 simply stops (men never
        // charge), and no move captures.
        let p = pos(Game::Cam, "W:Wc4,c5:Bd7,a10");
        assert!(has(&p, "c4-c6"));
        assert!(list(&p).iter().all(|m| !m.contains('x')));
        // Knight d4, friend d5, Black d7 with Black d8 behind it: from d6 no
        // jump is available (d8 occupied), so d4-d6 is a normal canter stop.
        let p = pos(Game::Cam, "W:WNd4,d5:Bd7,d8,a10");
        assert!(has(&p, "d4-d6"));
    }

    #[test]
    fn charge_allowed_under_obligation() {
        // As above plus White a4 / Black a5 (a6 empty): a4 x a5 is a direct
        // jump, so White must capture; the knight's charge c4-c6xe8 also
        // captures and stays legal. Nothing else is.
        let p = pos(Game::Cam, "W:WNc4,c5,a4:Bd7,a5,a10");
        assert_eq!(list(&p), vec!["a4-a6xa5", "c4-e8xd7"]);
    }

    #[test]
    fn charge_may_canter_past_a_jump_and_capture_further_on() {
        // The catalogue's example (Cam, Black to move). Black c6 can jump b6
        // where it stands, so Black must capture. The knight d7 canters over d6
        // to d5, where it could jump c4 (to b3); it canters on over c6 to b7,
        // then jumps b6 (to b5) and c4 (to d3): d7-d5-b7xb5xd3 takes b6 and c4.
        // The direct d7-b5xd3 (canter over c6 to b5, jump c4) takes c4 alone.
        let p = pos(Game::Cam, "B:WNa4,c4,b6:Bc6,d6,Nd7,g9,b10,Nc10,f10");
        assert!(has(&p, "d7-d3xc4xb6"));
        assert!(has(&p, "d7-d3xc4"));
        assert!(has(&p, "d7-b3xc4"));
        let m = legal_moves(&p)
            .into_iter()
            .find(|m| m.from == sq(Game::Cam, "d7") && m.captured.len() == 2)
            .unwrap();
        assert_eq!(m.notation(Game::Cam), "d7-d5-b7xb5xd3");
        assert!(cantered_past_a_jump(&p, &m));
        let direct = legal_moves(&p)
            .into_iter()
            .filter(|m| m.from == sq(Game::Cam, "d7") && m.captured.len() == 1)
            .collect::<Vec<_>>();
        assert_eq!(direct.len(), 3);
        assert!(direct.iter().all(|m| !cantered_past_a_jump(&p, m)));
    }

    #[test]
    fn charge_may_not_stop_once_a_jump_was_offered() {
        // Cam, no capture obligation (no White piece next to a Black one it can
        // jump: c7's jump over d7 lands on e7, taken). Knight c4 canters over
        // c5 to c6, where it could jump d7 to e8. It may canter on over c7 to
        // c8 (c8's jump over d7 would land on e6, taken), but it may not stop
        // there: the move must capture. b9 to jump from c8 (to a10) makes a
        // capture further on.
        let p = pos(Game::Cam, "W:WNc4,c5,c7:Bd7,e7,e6,g10");
        assert!(!has(&p, "c4-c6") && !has(&p, "c4-c8"));
        assert!(has(&p, "c4-e8xd7") && has(&p, "c4-d4"));
        let p = pos(Game::Cam, "W:WNc4,c5,c7:Bd7,e7,e6,b9,g10");
        assert!(!has(&p, "c4-c6") && !has(&p, "c4-c8"));
        assert!(has(&p, "c4-e8xd7") && has(&p, "c4-a10xb9"));
        // A man there: canters stop anywhere, and it never captures after one.
        let p = pos(Game::Cam, "W:Wc4,c5,c7:Bd7,e7,e6,b9,g10");
        assert!(has(&p, "c4-c6") && has(&p, "c4-c8"));
        assert!(list(&p).iter().all(|m| !m.contains('x')));
    }

    #[test]
    fn own_castle_only_by_jump_and_left_next_turn() {
        // Cam (White castle d1). White man d3, Black man d2: d3 x d2 -> d1,
        // entering the own castle by a jump is allowed, and being the only
        // capture it is the only move (a9 cannot jump a10: a11 is off board).
        let p = pos(Game::Cam, "W:Wd3,a9:Bd2,a10");
        assert_eq!(list(&p), vec!["d3-d1xd2"]);
        // No step or canter into d1: White e2, d2, c3 (no enemy near).
        // e2-d1 and d2-d1 (steps) are illegal; e2 over d2 -> c2 is a canter.
        let p = pos(Game::Cam, "W:We2,d2,c3:Ba10");
        assert!(!list(&p).iter().any(|m| m.ends_with("-d1")));
        assert!(has(&p, "e2-c2"));
        // Next turn: White man on d1 must leave although a4 x a5 is available
        // elsewhere. d1's neighbours c2, d2, e2 are empty: exactly 3 moves.
        let p = pos(Game::Cam, "W:Wd1,a4:Ba5,a10");
        assert_eq!(list(&p), vec!["d1-c2", "d1-d2", "d1-e2"]);
        // If the castle piece itself can jump (d1 x d2 -> d3), it must.
        let p = pos(Game::Cam, "W:Wd1,a4:Bd2,a5,a10");
        assert_eq!(list(&p), vec!["d1-d3xd2"]);
        // Camelot (castle f1+g1): f1 may not step to g1; its moves are e2, f2,
        // g2 (e1 does not exist); a4 x a5 elsewhere is ignored.
        let p = pos(Game::Camelot, "W:Wf1,a4:Ba5,a12,b12");
        assert_eq!(list(&p), vec!["f1-e2", "f1-f2", "f1-g2"]);
        // Two pieces in the own castle (set-up): either may be the one to leave.
        // f1: e2, f2, g2; g1: f2, g2, h2 (canters over each other land off board).
        let p = pos(Game::Camelot, "W:Wf1,g1,a4:Ba12,b12");
        assert_eq!(
            list(&p),
            vec!["f1-e2", "f1-f2", "f1-g2", "g1-f2", "g1-g2", "g1-h2"]
        );
        // Camelot: f3 x f2 -> f1 (own castle), and from f1 the jump over e2 to
        // d3 is available, so it must be made (f3 x e2 would land on d1, off board).
        let p = pos(Game::Camelot, "W:Wf3,a4:Bf2,e2,a12,b12");
        assert_eq!(list(&p), vec!["f3-d3xe2xf2"]);
        // Without e2 the jump ends in the own castle: legal.
        let p = pos(Game::Camelot, "W:Wf3,a4:Bf2,a12,b12");
        assert_eq!(list(&p), vec!["f3-f1xf2"]);
    }

    #[test]
    fn opponent_castle_ends_move_cam_wins() {
        // Cam (Black castle d13). White d11 x d12 -> d13; from d13 a jump over
        // c12 to b11 would exist, but the move ends on the castle, and White
        // wins. (d11 x c12 would land on b13, off board.)
        let p = pos(Game::Cam, "W:Wd11,a4:Bd12,c12,a10");
        assert_eq!(list(&p), vec!["d11-d13xd12"]);
        let q = play(&p, &legal_moves(&p)[0]);
        assert_eq!(
            status(&q),
            Some((Outcome::Win(Color::White), "castle entered"))
        );
        assert_eq!(legal_moves(&q).len(), 0);
        assert_eq!(perft(&q, 1), 0);
        assert_eq!(perft(&q, 0), 1);
        // Knight b11 canters over c12 to d13: the move ends there although a
        // jump over e12 to f11 would otherwise be a forced charge. No direct
        // jump exists for White (no White piece is next to e12 or a9).
        let p = pos(Game::Cam, "W:WNb11,c12:Be12,a9");
        assert!(has(&p, "b11-d13"));
        assert!(!has(&p, "b11-f11xe12"));
        // Mid-move win: knight d9 canters over d10 to d11 and over d12 to d13.
        let p = pos(Game::Cam, "W:WNd9,d10,d12:Ba5");
        assert!(has(&p, "d9-d13"));
        let q = play(&p, &find_move(&p, "d9-d11-d13").unwrap());
        assert_eq!(status(&q).map(|s| s.0), Some(Outcome::Win(Color::White)));
    }

    #[test]
    fn camelot_opponent_castle_and_castle_move_limit() {
        // Camelot. White man f16 stands on Black's castle, g16 empty: its only
        // move is the castle move f16-g16 (0 used so far).
        let p = pos(Game::Camelot, "W:Wf16,a4:Ba12,b12");
        assert!(has(&p, "f16-g16"));
        assert_eq!(list(&p).iter().filter(|m| m.starts_with("f16")).count(), 1);
        let q = play(&p, &find_move(&p, "f16-g16").unwrap());
        assert_eq!(q.castle_moves, [1, 0]);
        assert_eq!(to_fen(&q), "B:Wa4,g16:Ba12,b12:C1,0");
        // With 2 castle moves used: none.
        let p = pos(Game::Camelot, "W:Wf16,a4:Ba12,b12:C2,0");
        assert!(!list(&p).iter().any(|m| m.starts_with("f16")));
        // Black's count does not limit White.
        let p = pos(Game::Camelot, "W:Wf16,a4:Ba12,b12:C1,2");
        assert!(has(&p, "f16-g16"));
        // A castle piece neither jumps nor creates an obligation: f16 x e15 ->
        // d14 would be a jump, but is not generated; a4 may step.
        let p = pos(Game::Camelot, "W:Wf16,a4:Be15,a12,b12");
        assert!(!list(&p).iter().any(|m| m.contains('x')));
        assert!(has(&p, "a4-a5"));
        // A jump landing on the opponent's castle ends the move: f14 x f15 ->
        // f16; from f16 the jump over e15 to d14 is not made. (f14 x e15 would
        // land on d16, off board.)
        let p = pos(Game::Camelot, "W:Wf14,a4:Bf15,e15,a12,b12");
        assert_eq!(list(&p), vec!["f14-f16xf15"]);
        // Both Black castle cells held by White, Black to move: White wins.
        let p = pos(Game::Camelot, "B:Wf16,g16,a4:Ba12,b12");
        assert_eq!(
            status(&p),
            Some((Outcome::Win(Color::White), "castle occupied"))
        );
        assert_eq!(perft(&p, 2), 0);
        // One cell only: not decided (Black e.g. a12 may move).
        let p = pos(Game::Camelot, "B:Wf16,a4:Ba12,b12");
        assert_eq!(status(&p), None);
    }

    #[test]
    fn camelot_material_rules() {
        let c = Game::Camelot;
        // One piece each: draw.
        assert_eq!(
            status(&pos(c, "W:Wa4:Ba12")).map(|s| s.0),
            Some(Outcome::Draw)
        );
        // Black has no pieces, White has 2: White wins; White has 1: draw.
        assert_eq!(
            status(&pos(c, "B:Wa4,b4:B")).map(|s| s.0),
            Some(Outcome::Win(Color::White))
        );
        assert_eq!(status(&pos(c, "B:Wa4:B")).map(|s| s.0), Some(Outcome::Draw));
        // 2 against 1 is not decided.
        assert_eq!(status(&pos(c, "W:Wa4,b4:Ba12")), None);
        // White a4 x a5 -> a6 takes Black's last piece, keeping 2: White wins.
        let p = pos(c, "W:Wa4,b4:Ba5");
        let q = play(&p, &find_move(&p, "a4-a6").unwrap());
        assert_eq!(
            status(&q),
            Some((Outcome::Win(Color::White), "all captured"))
        );
        // Stalemate. Black a4 (a3 is off board) is surrounded by White a5, b5,
        // b4, b3, and every jump is blocked by White a6, c6, c4, c2: Black has
        // no move, White has >= 2 pieces: White wins.
        let p = pos(c, "B:Wa5,b5,b4,b3,a6,c6,c4,c2:Ba4");
        assert_eq!(
            status(&p),
            Some((Outcome::Win(Color::White), "no legal move"))
        );
        // Cam: the same blockade (a3 off board, b3 and c2 exist) also loses.
        let p = pos(Game::Cam, "B:Wa5,b5,b4,b3,a6,c6,c4,c2:Ba4");
        assert_eq!(
            status(&p),
            Some((Outcome::Win(Color::White), "no legal move"))
        );
        // Cam: no pieces left loses.
        assert_eq!(
            status(&pos(Game::Cam, "B:Wa5:B")).map(|s| s.0),
            Some(Outcome::Win(Color::White))
        );
    }

    #[test]
    fn perft_stops_at_decided() {
        // Cam. White d12 has 6 steps: c11, d11, e11, c12, e12, d13 (the last
        // wins at once: 0 continuations). After the other 5, Black a4 has 4
        // steps (a5, b5, b4, b3; a3 is off board): perft(2) = 5 * 4.
        let p = pos(Game::Cam, "W:Wd12:Ba4");
        assert_eq!(perft(&p, 1), 6);
        assert_eq!(perft(&p, 2), 5 * 4);
    }

    #[test]
    fn judge_repetition_and_fifty() {
        // Cam: knights shuffle c4-c3, c10-c11, c3-c4, c11-c10 twice: the start
        // position occurs for the 3rd time after 8 plies: draw.
        let g = Game::Cam;
        let p = g.start();
        let mut q = p.clone();
        let mut ms = Vec::new();
        for _ in 0..2 {
            for t in ["c4-c3", "c10-c11", "c3-c4", "c11-c10"] {
                let m = find_move(&q, t).unwrap();
                q = play(&q, &m);
                ms.push(m);
            }
        }
        assert_eq!(
            judge(&p, &ms).unwrap(),
            Some((Outcome::Draw, "threefold repetition".to_string()))
        );
        assert_eq!(judge(&p, &ms[..7]).unwrap(), None);
        // Camelot: men a4 and a12 step back and forth; the start position
        // comes back after plies 4 and 8: draw by repetition.
        let c = Game::Camelot;
        let p = parse_fen(c, "W:Wa4,b4:Ba12,b12").unwrap();
        let mut q = p.clone();
        let mut ms = Vec::new();
        for t in [
            "a4-a5", "a12-a11", "a5-a4", "a11-a12", "a4-a5", "a12-a11", "a5-a4", "a11-a12",
        ] {
            let m = find_move(&q, t).unwrap();
            q = play(&q, &m);
            ms.push(m);
        }
        assert_eq!(judge(&p, &ms).unwrap().map(|r| r.0), Some(Outcome::Draw));
        // An illegal move is rejected.
        let bad = Move {
            from: 0,
            to: 1,
            captured: BTreeSet::new(),
            route: vec![1],
            legs: vec![Leg::Step],
        };
        assert!(judge(&p, &[bad]).is_err());
    }

    #[test]
    fn camelot_fifty_moves() {
        // Camelot "W:Wa4,a10:Be13,l13". White shuffles a4-a5-a4-...; Black
        // walks its l13 man once through files l, k, j, i, h (ranks 13..4,
        // snaking) and then to g4: 50 moves onto 50 distinct cells, so no
        // position repeats, nobody comes near an enemy, nothing is captured
        // and no castle is entered. After 100 plies: draw; after 99: nothing.
        let c = Game::Camelot;
        let p = parse_fen(c, "W:Wa4,a10:Be13,l13").unwrap();
        let mut bpath = Vec::new();
        for (k, f) in ['l', 'k', 'j', 'i', 'h'].iter().enumerate() {
            let ranks: Vec<u32> = if k % 2 == 0 {
                (4..=13).rev().collect()
            } else {
                (4..=13).collect()
            };
            for r in ranks {
                bpath.push(format!("{f}{r}"));
            }
        }
        bpath.push("g4".to_string());
        assert_eq!(bpath.len(), 51);
        let mut q = p.clone();
        let mut ms = Vec::new();
        for i in 0..50 {
            let w = if i % 2 == 0 { "a4-a5" } else { "a5-a4" };
            for t in [w.to_string(), format!("{}-{}", bpath[i], bpath[i + 1])] {
                let m = find_move(&q, &t).unwrap_or_else(|| panic!("{t} in {q}"));
                q = play(&q, &m);
                ms.push(m);
            }
        }
        assert_eq!(judge(&p, &ms[..99]).unwrap(), None);
        assert_eq!(
            judge(&p, &ms).unwrap(),
            Some((
                Outcome::Draw,
                "50 moves each without capture or castle entry".to_string()
            ))
        );
    }

    /// Deterministic pseudo-random games: invariants of every generated move.
    #[test]
    fn random_games_invariants() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut rnd = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for g in Game::ALL {
            for _game in 0..30 {
                let mut p = g.start();
                for _ply in 0..200 {
                    let fen = to_fen(&p);
                    assert_eq!(parse_fen(g, &fen).unwrap(), p, "{fen}");
                    let ms = legal_moves(&p);
                    if status(&p).is_some() {
                        assert!(ms.is_empty());
                        break;
                    }
                    check_moves(&p, &ms);
                    p = play(&p, &ms[rnd(ms.len())]);
                }
            }
        }
    }

    /// Re-check each move leg by leg (geometry, occupancy, castles, visited).
    fn check_moves(p: &Position, ms: &[Move]) {
        let b = p.board();
        let me = p.to_move;
        let keys: BTreeSet<_> = ms
            .iter()
            .map(|m| (m.from, m.to, m.captured.clone()))
            .collect();
        assert_eq!(keys.len(), ms.len(), "duplicate move in {p}");
        for m in ms {
            let mut cells = p.cells.clone();
            let piece = cells[m.from].take().unwrap();
            assert_eq!(piece.color, me);
            let mut cur = m.from;
            let mut visited = vec![m.from];
            let mut caps = BTreeSet::new();
            let mut jumped = false;
            for (k, (&t, &leg)) in m.route.iter().zip(&m.legs).enumerate() {
                assert!(
                    !visited.contains(&t),
                    "revisit in {} {p}",
                    m.notation(p.game)
                );
                assert!(cells[t].is_none());
                match leg {
                    Leg::Step | Leg::CastleMove => {
                        assert_eq!(m.route.len(), 1);
                        assert!(b.nb[cur].contains(&Some(t)));
                    }
                    Leg::Canter | Leg::Jump => {
                        let d = (0..8)
                            .find(|&d| b.leap(cur, d).map(|x| x.1) == Some(t))
                            .expect("leap geometry");
                        let over = b.leap(cur, d).unwrap().0;
                        let op = cells[over].expect("piece jumped over");
                        if leg == Leg::Canter {
                            assert!(!jumped, "canter after jump");
                            assert_eq!(op.color, me);
                            assert!(!b.is_castle(me, t), "canter into own castle");
                        } else {
                            assert_ne!(op.color, me);
                            assert!(k == 0 || piece.kind == Kind::Knight || jumped, "man charge");
                            cells[over] = None;
                            caps.insert(over);
                            jumped = true;
                        }
                    }
                }
                if k + 1 < m.route.len() {
                    assert!(
                        !b.is_castle(me.other(), t),
                        "move goes on after the enemy castle"
                    );
                }
                visited.push(t);
                cur = t;
            }
            assert_eq!(cur, m.to);
            assert_eq!(caps, m.captured);
            assert!(!b.is_castle(me, m.to) || m.is_capture());
        }
    }
}
