//! Strict reading: a PDN text checked against the PDN 3.0 grammar game by game, as the
//! tolerant reader splits it, so that a file and a stream of its games get the same answer.

use super::grammar::{check_game, check_span, strip_bom, PdnSyntaxError};
use super::reader::PdnReader;

/// Checks a whole PDN text against the grammar: the first error, if any. A text without any
/// game (empty, or only white space) is an error too: the grammar's `PdnFile` has at least one
/// `Game`.
pub fn check_file(text: &str) -> Result<(), PdnSyntaxError> {
    let mut covered = 0;
    for game in PdnReader::skimming(text) {
        check_game(text, &game)?;
        covered = game.span.end;
    }
    // What follows the last game, if the reader found no game there (comments only).
    let body = strip_bom(text);
    if covered == 0 || !body[covered..].trim().is_empty() {
        let span = covered..body.len();
        let line = 1 + body[..covered].bytes().filter(|&b| b == b'\n').count();
        check_span(body, span, (line, 0), true)?;
    }
    Ok(())
}
