//! The endgame tables solved over explicit graphs (the drop games solved whole, BrainKing's
//! Alquerque with its last moves, the Camelot family with canters, charges and castles),
//! checked two ways, never from the solver's own output:
//!
//! 1. against a second solver (`tables_graph/oracle.rs`: plain iteration to a fixed point)
//!    over states that a second move generator makes, written from the rules text and
//!    sharing nothing with the engine (`tables_graph/drops.rs`, `tables_graph/alquerque.rs`,
//!    and the Camelot family's reference generator `reference_camelot/spec.rs`): every state
//!    has the same value and the same distance in the engine's tables, read through the
//!    engine's FEN;
//! 2. every position of the sets checked satisfies the minimax equation against its
//!    children, moves and values read from the engine: a win has a move to a loss one ply
//!    shorter and none to a shorter one, a loss has only moves to wins and the slowest is one
//!    ply shorter, a draw has a move to a draw and none to a loss.
//!
//! The larger sets (Hageby, both Vilbergens and Cam at three pieces whole, Camelot at three
//! pieces) run with `--ignored`. Run with `cargo test --release -p arbiter-rules --test
//! tables_graph`.

#[path = "tables_graph/alquerque.rs"]
mod alquerque;
#[allow(dead_code)]
#[path = "reference_camelot/spec.rs"]
mod camelot;
#[path = "tables_graph/drops.rs"]
mod drops;
#[path = "tables_graph/oracle.rs"]
mod oracle;

use arbiter_rules::tables::{material_of, start_value, Material, Tables, Value};
use arbiter_rules::{
    status, variant, Budget, EndCode, MoveKind, Position, Reason, Status, Variant,
};
use oracle::{Rules, Val};

fn var(id: &str) -> &'static Variant {
    variant(id).unwrap_or_else(|| panic!("{id}: not in the catalogue"))
}

/// The tables of `roots` (each with every table it leads to) for variant `id`.
fn build(id: &str, roots: &[&str]) -> Tables {
    let v = var(id);
    let mut tables = Tables::new(v).unwrap_or_else(|e| panic!("{id}: no tables: {}", e.reason));
    for r in roots {
        let m = Material::parse(r).unwrap_or_else(|| panic!("{r}: not a material"));
        tables
            .build(m, &mut |_| {})
            .unwrap_or_else(|e| panic!("{id}: building {m}: {e}"));
    }
    tables
}

fn val(v: Value) -> Val {
    match v {
        Value::Win(n) => Val::Win(n),
        Value::Draw => Val::Draw,
        Value::Loss(n) => Val::Loss(n),
    }
}

fn parse(v: &Variant, fen: &str) -> Position {
    v.parse_fen(fen)
        .unwrap_or_else(|e| panic!("{}: {fen}: {e:?}", v.id()))
}

/// Every state the oracle solved has the same value in the tables (read through the state's
/// FEN); returns how many of each value there are.
fn agree<S: Clone + Eq + std::hash::Hash>(
    tables: &Tables,
    solved: &oracle::Solved<S>,
    fen: impl Fn(&S) -> String,
) -> [usize; 3] {
    let v = tables.variant();
    let mut wrong = Vec::new();
    let mut counts = [0; 3];
    for (s, &ours) in solved.states.iter().zip(&solved.values) {
        let f = fen(s);
        let pos = parse(v, &f);
        let theirs = tables.probe(&pos).map(val);
        if theirs != Some(ours) {
            wrong.push(format!("{f}: tables {theirs:?}, oracle {ours:?}"));
        }
        counts[match ours {
            Val::Win(_) => 0,
            Val::Draw => 1,
            Val::Loss(_) => 2,
        }] += 1;
    }
    assert!(
        wrong.is_empty(),
        "{}: {} of {} states differ, e.g.\n{}",
        v.id(),
        wrong.len(),
        solved.states.len(),
        wrong[..wrong.len().min(12)].join("\n")
    );
    // A test that finds nothing to compare proves nothing.
    assert!(counts[0] > 0 && counts[2] > 0, "{}: {counts:?}", v.id());
    counts
}

/// The minimax equation at `pos`, with the engine's moves and the tables' values.
fn minimax(tables: &Tables, pos: &Position) {
    let v = tables.variant();
    let b = Budget::unlimited();
    let fen = v.fen(pos);
    let value = tables
        .probe(pos)
        .unwrap_or_else(|| panic!("{}: no value for {fen}", v.id()));
    let moves = v.legal_moves(pos, &b).unwrap();
    if moves.is_empty() {
        assert!(
            matches!(value, Value::Win(0) | Value::Loss(0) | Value::Draw),
            "{} {fen}: a position without moves is {value:?}",
            v.id()
        );
        return;
    }
    // What each move gives the mover.
    let after: Vec<Value> = moves
        .iter()
        .map(|mv| {
            let q = v.play(pos, mv);
            tables
                .probe(&q)
                .unwrap_or_else(|| panic!("{}: no value for {}", v.id(), v.fen(&q)))
                .before_move()
        })
        .collect();
    let fastest_win = after
        .iter()
        .filter_map(|a| match a {
            Value::Win(n) => Some(*n),
            _ => None,
        })
        .min();
    let slowest_loss = after
        .iter()
        .filter_map(|a| match a {
            Value::Loss(n) => Some(*n),
            _ => None,
        })
        .max();
    let draws = after.contains(&Value::Draw);
    let expected = match (fastest_win, draws, slowest_loss) {
        (Some(n), _, _) => Value::Win(n),
        (None, true, _) => Value::Draw,
        (None, false, Some(n)) => Value::Loss(n),
        (None, false, None) => unreachable!("moves without values"),
    };
    assert_eq!(value, expected, "{} {fen}: {after:?}", v.id());
}

// ---- the drop games ------------------------------------------------------------------------

/// A drop game solved by the oracle from every state of up to `stones` stones a side, and by
/// the engine's tables of that material; every state compared and checked.
fn drop_game(game: &drops::Drops, stones: [u8; 2]) -> Tables {
    let name = format!(
        "{}v{}",
        "M".repeat(stones[0] as usize),
        "M".repeat(stones[1] as usize)
    );
    let tables = build(game.id, &[&name]);
    let all = game.all(stones);
    let solved = oracle::solve(game, all.iter().cloned());
    assert_eq!(
        solved.states.len(),
        all.len(),
        "the states are closed under moves"
    );
    let counts = agree(&tables, &solved, |s| game.fen(s));
    eprintln!("{} {name}: {} states, {counts:?} W/D/L", game.id, all.len());
    let v = tables.variant();
    for s in &all {
        minimax(&tables, &parse(v, &game.fen(s)));
    }
    tables
}

/// The start position's value, from the tables and as published.
fn start(game: &drops::Drops, tables: &Tables) {
    let v = tables.variant();
    let solved = oracle::solve(game, [game.start()]);
    let ours = solved.values[0];
    let theirs = tables.probe(&v.start()).map(val);
    assert_eq!(theirs, Some(ours), "{}: the start", v.id());
    assert_eq!(start_value(v).map(val), Some(ours), "{}: published", v.id());
    assert_eq!(
        material_of(v, &v.start()).name(),
        "M".repeat(game.stones as usize) + "v" + &"M".repeat(game.stones as usize)
    );
}

#[test]
fn lahti_is_solved_whole() {
    let game = drops::Drops::lahti();
    let tables = drop_game(&game, [4, 4]);
    start(&game, &tables);
}

#[test]
fn hageby_up_to_three_stones_a_side() {
    let game = drops::Drops::hageby();
    drop_game(&game, [3, 3]);
    // A lone stone hemmed in by four: its side passes (the one move it has). The states with
    // a pass are among those compared.
    let v = var("hageby");
    let b = Budget::unlimited();
    for stones in [[1, 4], [4, 1]] {
        let tables = drop_game(&game, stones);
        let passes = game
            .all(stones)
            .iter()
            .filter(|s| {
                let moves = v.legal_moves(&parse(v, &game.fen(s)), &b).unwrap();
                moves.len() == 1 && moves[0].kind() == MoveKind::Pass
            })
            .count();
        eprintln!("hageby {stones:?}: {passes} positions with a pass");
        assert!(passes > 0);
        let blocked = parse(
            v,
            if stones[0] == 1 {
                "W:Wa2:Ba3,b2,c2,b1:S0,0"
            } else {
                "B:Wa3,b2,c2,b1:Ba2:S0,0"
            },
        );
        assert_eq!(
            v.legal_moves(&blocked, &b).unwrap()[0].kind(),
            MoveKind::Pass
        );
        assert!(tables.probe(&blocked).is_some());
    }
}

/// In Hageby, neither side is ever blocked with the other: an empty point always has a stone
/// next to it that can step there (the board is small and connected, and stones step along
/// every line). So the rule that a position where both sides must pass is drawn never
/// applies; the tables' draws are games that never end.
#[test]
fn hageby_both_sides_are_never_blocked() {
    let v = var("hageby");
    let game = drops::Drops::hageby();
    let b = Budget::unlimited();
    let mut seen = 0;
    for s in game.all([5, 5]) {
        if s.hand != [0, 0] || s.side == 1 {
            continue;
        }
        let pos = parse(v, &game.fen(&s));
        if matches!(
            status(v, &pos, &b).unwrap(),
            Status::Drawn {
                reason: Reason::End(EndCode::BothBlocked),
                ..
            }
        ) {
            panic!("{}: both sides blocked", v.fen(&pos));
        }
        seen += 1;
    }
    assert!(seen > 800_000, "{seen}");
}

#[test]
#[ignore = "the whole game: minutes in release mode"]
fn hageby_is_solved_whole() {
    let game = drops::Drops::hageby();
    let tables = drop_game(&game, [5, 5]);
    start(&game, &tables);
}

#[test]
#[ignore = "the whole game: a minute in release mode"]
fn vilbergen_is_solved_whole() {
    let game = drops::Drops::vilbergen();
    let tables = drop_game(&game, [4, 4]);
    start(&game, &tables);
}

#[test]
#[ignore = "the whole game: minutes in release mode"]
fn vilbergen_salo_is_solved_whole() {
    let game = drops::Drops::vilbergen_salo();
    let tables = drop_game(&game, [5, 5]);
    start(&game, &tables);
}

/// The published start values are those of the tables (the drop games solved in full by the
/// engine alone: the oracle's check is above, and with `--ignored`).
#[test]
fn published_start_values_are_the_tables() {
    for id in ["lahti", "vilbergen", "vilbergen-salo", "hageby"] {
        let v = var(id);
        let stones = "M".repeat(v.rules().stones_in_hand as usize);
        let tables = build(id, &[&format!("{stones}v{stones}")]);
        assert_eq!(
            tables.probe(&v.start()),
            start_value(v),
            "{id}: the published start value"
        );
    }
    assert_eq!(start_value(var("international")), None);
}

// ---- BrainKing's Alquerque -----------------------------------------------------------------

#[test]
fn alquerque_brainking_at_three_pieces() {
    let game = alquerque::Alquerque;
    let tables = build("alquerque-brainking", &["MMvM", "MvMM"]);
    let v = tables.variant();
    // Every placement without last moves, and the last moves the games from them make.
    let mut roots = Vec::new();
    for (w, b) in [(1, 1), (2, 1), (1, 2)] {
        roots.extend(game.placements(w, b));
    }
    // And last moves given in a FEN that no game made: any start for the pawn that moved.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let plain = roots.clone();
    for _ in 0..3000 {
        let mut s = plain[(next() % plain.len() as u64) as usize].clone();
        for c in 0..2 {
            let mine: Vec<usize> = (0..25).filter(|&i| s.points[i] == c as u8 + 1).collect();
            if next() % 3 > 0 {
                let to = mine[(next() % mine.len() as u64) as usize];
                s.last[c] = Some(((next() % 25) as usize, to));
            }
        }
        roots.push(s);
    }
    let solved = oracle::solve(&game, roots);
    let counts = agree(&tables, &solved, |s| game.fen(s));
    eprintln!(
        "alquerque-brainking: {} states, {counts:?} W/D/L",
        solved.states.len()
    );
    // The last moves matter: some positions differ from the same pieces without them.
    let mut differ = 0;
    for (s, &value) in solved.states.iter().zip(&solved.values) {
        if s.last != [None, None] {
            let bare = alquerque::St {
                last: [None, None],
                ..s.clone()
            };
            if solved.value(&bare).is_some_and(|b| b != value) {
                differ += 1;
            }
        }
        minimax(&tables, &parse(v, &game.fen(s)));
    }
    assert!(differ > 0, "no position's value depends on its last moves");
    eprintln!(
        "alquerque-brainking: {differ} states differ from the same pieces without last moves"
    );
}

// ---- the Camelot family --------------------------------------------------------------------

/// The reference generator's rules as the oracle's.
struct Camelot;

impl Rules for Camelot {
    type State = camelot::Position;

    fn decided(&self, s: &camelot::Position) -> Option<Val> {
        camelot::status(s).map(|(outcome, _)| match outcome {
            camelot::Outcome::Draw => Val::Draw,
            camelot::Outcome::Win(c) if c == s.to_move => Val::Win(0),
            camelot::Outcome::Win(_) => Val::Loss(0),
        })
    }

    fn children(&self, s: &camelot::Position) -> Vec<camelot::Position> {
        camelot::legal_moves(s)
            .iter()
            .map(|m| camelot::play(s, m))
            .collect()
    }
}

/// Every placement of `material` (knights `N`, men `M`) on the game's board, either side to
/// move, with every count of castle moves where the game has them.
fn placements(game: camelot::Game, material: &str) -> Vec<camelot::Position> {
    let board = game.board();
    let (w, b) = material.split_once('v').unwrap();
    let pieces: Vec<(char, char)> = w
        .chars()
        .map(|k| ('W', k))
        .chain(b.chars().map(|k| ('B', k)))
        .collect();
    let castles: Vec<[u8; 2]> = if game == camelot::Game::Camelot {
        (0..9).map(|d| [d % 3, d / 3]).collect()
    } else {
        vec![[0, 0]]
    };
    let mut out = Vec::new();
    let mut cells = vec![usize::MAX; pieces.len()];
    fn go(
        game: camelot::Game,
        pieces: &[(char, char)],
        castles: &[[u8; 2]],
        i: usize,
        cells: &mut Vec<usize>,
        out: &mut Vec<camelot::Position>,
    ) {
        let board = game.board();
        if i == pieces.len() {
            for side in ['W', 'B'] {
                for c in castles {
                    let mut fen = String::from(side);
                    for color in ['W', 'B'] {
                        fen.push(':');
                        fen.push(color);
                        let list: Vec<String> = pieces
                            .iter()
                            .zip(cells.iter())
                            .filter(|(p, _)| p.0 == color)
                            .map(|(p, &c)| {
                                let pre = if p.1 == 'N' { "N" } else { "" };
                                format!("{pre}{}", board.name(c))
                            })
                            .collect();
                        fen.push_str(&list.join(","));
                    }
                    if *c != [0, 0] {
                        fen.push_str(&format!(":C{},{}", c[0], c[1]));
                    }
                    out.push(camelot::parse_fen(game, &fen).unwrap());
                }
            }
            return;
        }
        // Like pieces in increasing cell order, so that each placement comes once.
        let from = if i > 0 && pieces[i - 1] == pieces[i] {
            cells[i - 1] + 1
        } else {
            0
        };
        for c in from..board.len() {
            if cells[..i].contains(&c) {
                continue;
            }
            cells[i] = c;
            go(game, pieces, castles, i + 1, cells, out);
        }
        cells[i] = usize::MAX;
    }
    let _ = board;
    go(game, &pieces, &castles, 0, &mut cells, &mut out);
    out
}

/// The oracle over every placement of `materials` in `game`, against the engine's tables.
fn camelot_family(game: camelot::Game, materials: &[&str]) {
    let tables = build(game.id(), materials);
    let mut roots = Vec::new();
    for m in materials {
        roots.extend(placements(game, m));
    }
    let solved = oracle::solve(&Camelot, roots);
    let counts = agree(&tables, &solved, camelot::to_fen);
    eprintln!(
        "{} {materials:?}: {} states, {counts:?} W/D/L",
        game.id(),
        solved.states.len()
    );
    let v = tables.variant();
    for s in &solved.states {
        minimax(&tables, &parse(v, &camelot::to_fen(s)));
    }
}

#[test]
fn cam_at_three_pieces() {
    // A knight and a man against a knight: steps, canters, charges, the castles; and every
    // two-piece material its captures lead to.
    camelot_family(camelot::Game::Cam, &["MNvN", "NvMN"]);
}

#[test]
fn camelot_lovagcsata_at_three_pieces() {
    camelot_family(camelot::Game::Lovagcsata, &["NNvN"]);
}

#[test]
#[ignore = "every three-piece material of Cam: minutes in release mode"]
fn cam_at_three_pieces_whole() {
    let materials = [
        "MMvM", "MMvN", "MNvM", "MNvN", "NNvM", "NNvN", "MvMM", "MvMN", "MvNN", "NvMM", "NvMN",
        "NvNN",
    ];
    camelot_family(camelot::Game::Cam, &materials);
}

#[test]
fn camelot_at_two_pieces() {
    // One piece each is drawn at once (Camelot's rules): every position.
    camelot_family_draws(&["MvM", "MvN", "NvM", "NvN"]);
}

/// Camelot's two-piece materials: every position drawn, the castle moves in the index.
fn camelot_family_draws(materials: &[&str]) {
    let tables = build("camelot", materials);
    let v = tables.variant();
    let mut n = 0;
    for m in materials {
        for s in placements(camelot::Game::Camelot, m) {
            assert_eq!(Camelot.decided(&s), Some(Val::Draw));
            let pos = parse(v, &camelot::to_fen(&s));
            assert_eq!(tables.probe(&pos), Some(Value::Draw));
            n += 1;
        }
    }
    assert_eq!(n, 4 * 160 * 159 * 2 * 9);
}

#[test]
#[ignore = "a three-piece material of Camelot: minutes in release mode"]
fn camelot_at_three_pieces() {
    // Two knights against one: castle moves (three counts a side) in the index. The oracle
    // over every placement (36 million states) is beyond a test: the minimax equation is
    // checked on random positions, half of them with a White knight in Black's castle (where
    // castle moves are played), with every count of castle moves.
    let tables = build("camelot", &["NNvN"]);
    let v = tables.variant();
    let board = camelot::Game::Camelot.board();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut checked = 0;
    while checked < 40_000 {
        let mut cells: Vec<usize> = (0..3)
            .map(|_| (next() % board.len() as u64) as usize)
            .collect();
        if checked % 2 == 0 {
            cells[0] = board.castles[1][(next() % 2) as usize];
        }
        if cells[0] == cells[1] || cells[0] == cells[2] || cells[1] == cells[2] {
            continue;
        }
        let side = if next() % 2 == 0 { 'W' } else { 'B' };
        let fen = format!(
            "{side}:WN{},N{}:BN{}:C{},{}",
            board.name(cells[0]),
            board.name(cells[1]),
            board.name(cells[2]),
            next() % 3,
            next() % 3
        );
        minimax(&tables, &parse(v, &fen));
        checked += 1;
    }
}
