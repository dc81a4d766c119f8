//! `arbiter-rules`: the rules engine of Arbiter.
//!
//! Boards are graphs of cells with direction links ([`board`]); a variant is a declarative
//! ruleset on such a board ([`rules`], [`variant`](mod@variant), [`catalogue`]); generators
//! read the ruleset and never test a variant's id ([`gen`]). Positions are checked when they are built
//! ([`Variant::position`], [`Variant::parse_fen`]) and the engine never panics on input a
//! client sent. There is no I/O, HTTP or JSON here.
//!
//! The modules form layers, listed from the bottom: each one uses only modules of earlier
//! layers (unit tests aside), so the engine reads from the bottom up.
//!
//! 1. [`bits`], [`budget`]: cell sets; work units and [`GenError`].
//! 2. [`board`]: cells, direction links, square names.
//! 3. [`position`]: pieces on a board.
//! 4. [`moves`], [`draws`], [`ends`], [`material`]: moves and routes; draw and end rules as
//!    data; a position's pieces counted by colour and kind.
//! 5. [`rules`]: a ruleset.
//! 6. [`gen`]: the move generators, on a board and a ruleset.
//! 7. [`variant`](mod@variant): a board, a ruleset and its tables put together; legal
//!    moves, play.
//! 8. [`notation`], [`perft`](mod@perft): square names, FEN, move text and PDN, why an
//!    illegal move is illegal; perft.
//! 9. [`catalogue`], [`outcome`]: the variants, their lookup by name and their rules in
//!    words; the judge.
//! 10. [`records`], [`tables`]: game records; endgame tables.
//! 11. [`adjudication`]: judging PDN games.
//!
//! ```
//! use arbiter_rules::{variant, perft, Budget};
//! let v = variant("international").unwrap();
//! assert_eq!(perft(v, &v.start(), 3).unwrap(), 658);
//! let m = v.parse_move(&v.start(), "32-28", &Budget::unlimited()).unwrap();
//! let next = v.play(&v.start(), &m.mv);
//! assert_eq!(v.legal_moves(&next, &Budget::unlimited()).unwrap().len(), 9);
//! ```

pub mod adjudication;
pub mod bits;
pub mod board;
pub mod budget;
pub mod catalogue;
pub mod draws;
pub mod ends;
pub mod gen;
pub mod material;
pub mod moves;
pub mod notation;
pub mod outcome;
pub mod perft;
pub mod position;
pub mod records;
pub mod rules;
pub mod tables;
pub mod variant;

pub use bits::Bits;
pub use board::{Board, Dir, DirSet, Squares};
pub use budget::Budget;
pub use budget::GenError;
pub use catalogue::{ids, variant, variant_named, variants};
pub use draws::{DrawCode, DrawKind, DrawRule};
pub use ends::{EndCode, EndKind, EndOutcome, EndRule};
pub use moves::{Jump, Move, MoveKind, Route};
pub use notation::fen::{Counters, FenError, FenErrorKind, FenLists};
pub use notation::listing::{DescribedMove, MoveList, MoveView};
pub use notation::movetext::MoveError;

pub use outcome::{
    judge, status, Claimable, DrawClock, DrawCount, IllegalMove, Judgement, Reason, Status,
    Tracker, Verdict,
};
pub use perft::{
    count_leaves, divide, divide_with, perft, perft_general, perft_keep, Routes, Split,
};
pub use position::{Color, Kind, KindInfo, Position, Setup, KIND_TABLE};
pub use records::{read_record, Record, RecordOptions, RecordWarning, WarningKind};
pub use rules::{OpeningRemoval, Rules};
pub use variant::{BoardShape, GraphBoard, PositionError, ResultStyle, Spec, Variant};
