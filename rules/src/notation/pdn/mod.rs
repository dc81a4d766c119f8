//! PDN 3.0 game files (pdn.fmjd.org): read tolerantly ([`PdnReader`]), checked strictly
//! against the standard's grammar ([`check_file`]), or read from a stream of bytes game by
//! game ([`PdnSplitter`]).
//!
//! The files, each using only those before it:
//!
//! - `game.rs`: what the readers hand out: [`PdnGame`] and its notes, [`PdnLimits`],
//!   [`ReadPoint`];
//! - `grammar.rs`: the PDN 3.0 grammar (`pdn.pest`) on one game's text: [`check_game`],
//!   [`deviations`];
//! - `reader.rs`: the tolerant reader, which notes each game's deviations: [`PdnReader`],
//!   [`parse_pdn`];
//! - `strict.rs`: a whole text checked against the grammar, game by game: [`check_file`];
//! - `stream.rs`: a file read from pieces of its bytes: [`PdnSplitter`], [`first_game`].

mod game;
mod grammar;
mod reader;
mod stream;
mod strict;

pub use game::{
    is_setup_tag, PdnGame, PdnLimits, PdnMove, PdnNote, PdnNoteKind, ReadPoint, MAX_NOTES, RESULTS,
    SETUP_TAGS,
};
pub use grammar::{
    agrees_with_pest, check_game, deviations, Deviation, PdnSyntaxError, MAX_DEVIATIONS,
};
pub use reader::{parse_pdn, PdnReader};
pub use stream::{first_game, FirstGame, PdnSplitter, Piece};
pub use strict::check_file;
