//! `arbiter-rules`: the rules engine of Arbiter.
//!
//! Boards are graphs of cells with direction links ([`board`]); a variant is a declarative
//! ruleset on such a board ([`rules`], [`variant`], [`catalogue`]); generators read the
//! ruleset and never test a variant's id ([`gen`]). Positions are checked when they are built
//! ([`Variant::position`], [`Variant::parse_fen`]) and the engine never panics on input a
//! client sent. There is no I/O, HTTP or JSON here.
//!
//! ```
//! use arbiter_rules::{variant, perft};
//! let v = variant("international").unwrap();
//! assert_eq!(perft(v, &v.start(), 3).unwrap(), 658);
//! let m = v.parse_move(&v.start(), "32-28").unwrap();
//! let next = v.play(&v.start(), &m.mv);
//! assert_eq!(v.legal_moves(&next).unwrap().len(), 9);
//! ```

pub mod adjudication;
pub mod bits;
pub mod board;
pub mod budget;
pub mod catalogue;
pub mod draws;
pub mod ends;
pub mod gen;
pub mod moves;
pub mod notation;
pub mod outcome;
pub mod perft;
pub mod position;
pub mod records;
pub mod rules;
pub mod variant;

pub use bits::Bits;
pub use board::{Board, Dir, DirSet};
pub use budget::Budget;
pub use catalogue::{ids, variant, variants};
pub use draws::{DrawCode, DrawKind, DrawRule};
pub use ends::{EndCode, EndKind, EndOutcome, EndRule};
pub use gen::GenError;
pub use moves::{Jump, Move, Route};
pub use notation::fen::{Counters, FenError, FenErrorKind, FenLists};
pub use notation::movetext::{DescribedMove, MoveError, MoveList, MoveView};
pub use notation::pdn::variant_named;
pub use outcome::{
    judge, judge_within, status, status_within, Claimable, IllegalMove, Judgement, Reason, Status,
    Tracker, Verdict,
};
pub use perft::{divide, perft, perft_general, perft_keep};
pub use position::{Color, Kind, Position, Setup};
pub use records::{read_record_within, Record, RecordWarning, WarningKind};
pub use rules::{OpeningRemoval, Rules};
pub use variant::{BoardShape, GraphBoard, PositionError, ResultStyle, Spec, Variant};
