//! The openings of a match, from a file: FEN lines (one position a line; blank lines and lines
//! starting with `#` or `;` are skipped), or PDN games whose moves are played out from their
//! `FEN` tag (or the start position). Every opening is checked before the first game: a
//! position the variant refuses, an illegal move, or a game already over is an error naming
//! its line.

use arbiter_rules::notation::pdn::parse_pdn;
use arbiter_rules::{Budget, Position, Status, Variant};

/// One opening: where the engines start.
#[derive(Clone, Debug)]
pub struct Opening {
    /// 1-based, in file order.
    pub number: usize,
    /// Where it comes from: `file:line`.
    pub source: String,
    /// The position the engines start from.
    pub position: Position,
    /// The moves of a PDN opening, played out before the game (canonical notation).
    pub moves: Vec<String>,
}

/// The start position alone, when no file is given.
pub fn start_only(v: &Variant) -> Vec<Opening> {
    vec![Opening {
        number: 1,
        source: "start position".into(),
        position: v.start(),
        moves: Vec::new(),
    }]
}

/// Whether a text is PDN: its first line that says something starts a tag or a move number.
fn is_pdn(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with(';'))
        .is_some_and(|l| l.starts_with('[') || l.starts_with(|c: char| c.is_ascii_digit()))
}

/// Reads the openings of `text` (named `name` in errors) for variant `v`.
pub fn read(v: &'static Variant, name: &str, text: &str) -> Result<Vec<Opening>, String> {
    let budget = Budget::unlimited();
    let mut out = Vec::new();
    let check = |pos: &Position, source: &str| -> Result<(), String> {
        match arbiter_rules::status(v, pos, &budget) {
            Ok(Status::Ongoing) => Ok(()),
            Ok(Status::Won { reason, .. } | Status::Drawn { reason }) => Err(format!(
                "{source}: the game is already over in this position ({})",
                reason.code()
            )),
            Err(e) => Err(format!("{source}: {e}")),
        }
    };
    if is_pdn(text) {
        for game in parse_pdn(text) {
            let source = format!("{name}:{}", game.line);
            if let Some(e) = &game.error {
                return Err(format!("{source}: {e}"));
            }
            let mut pos = match game.tag("FEN").map(str::trim).filter(|f| !f.is_empty()) {
                Some(fen) => v
                    .parse_start_fen(fen)
                    .map_err(|e| format!("{source}: FEN tag: {e}"))?,
                None => v.start(),
            };
            let mut moves = Vec::new();
            for (i, m) in game.moves.iter().enumerate() {
                check(&pos, &format!("{name}:{}", m.line))?;
                let d = v
                    .parse_move(&pos, &m.text, &budget)
                    .map_err(|e| format!("{name}:{}: ply {} ('{}'): {e}", m.line, i + 1, m.text))?;
                pos = v.play(&pos, &d.mv);
                moves.push(d.notation);
            }
            check(&pos, &source)?;
            out.push(Opening {
                number: out.len() + 1,
                source,
                position: pos,
                moves,
            });
        }
    } else {
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
                continue;
            }
            let source = format!("{name}:{}", i + 1);
            let pos = v
                .parse_start_fen(line)
                .map_err(|e| format!("{source}: {e}"))?;
            check(&pos, &source)?;
            out.push(Opening {
                number: out.len() + 1,
                source,
                position: pos,
                moves: Vec::new(),
            });
        }
    }
    if out.is_empty() {
        return Err(format!("{name}: no opening in the file"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn international() -> &'static Variant {
        arbiter_rules::variant("international").unwrap()
    }

    #[test]
    fn fen_lines_and_comments() {
        let text = "# ballots\nW:W31-50:B1-20\n\nB:W28,31-50:B1-20\n";
        let o = read(international(), "o.fen", text).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[1].source, "o.fen:4");
        assert_eq!(o[1].number, 2);
    }

    #[test]
    fn pdn_games_are_played_out() {
        let text = "[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n";
        let o = read(international(), "o.pdn", text).unwrap();
        assert_eq!(o.len(), 1);
        assert_eq!(o[0].moves, ["32-28", "19-23", "28x19", "14x23"]);
        let v = international();
        assert_eq!(
            v.fen(&o[0].position),
            v.fen(&v.parse_fen("W:W31,33-50:B1-13,15-18,20,23").unwrap())
        );
    }

    #[test]
    fn an_illegal_opening_names_its_line() {
        let v = international();
        let e = read(v, "o.fen", "W:W31-50:B1-20\nW:W31-50,K51:B1-20\n").unwrap_err();
        assert!(e.starts_with("o.fen:2: "), "{e}");
        let e = read(v, "o.pdn", "[FEN \"W:W31-50:B1-20\"]\n1. 32-26 *\n").unwrap_err();
        assert!(e.contains("ply 1"), "{e}");
        let e = read(v, "o.fen", "B:W47,48:B42\n").unwrap_err();
        assert!(e.contains("already over"), "{e}");
        assert!(read(v, "o.fen", "# nothing\n").is_err());
    }
}
