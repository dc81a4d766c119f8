//! The legal moves of a position, with the position each leads to.

use arbiter_rules::{Budget, Counters, MoveList, MoveView, Position, Variant};
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{parse_position_counters, position_status, PositionStatus, Side};
use crate::problem::ApiError;

/// Work units charged per move listed (its description and resulting position).
pub const UNITS_PER_LISTED_MOVE: u64 = 50;

/// A legal move.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct MoveInfo {
    /// Canonical notation: short form unless another legal move has the same start and end.
    #[schema(example = "32-28")]
    pub notation: String,
    /// Long form: every intermediate square of the canonical route.
    #[schema(example = "32-28")]
    pub long: String,
    /// Start square (a drop: the point it fills; null for a pass).
    #[schema(example = "32")]
    pub from: Option<String>,
    /// End square (null for a pass).
    #[schema(example = "28")]
    pub to: Option<String>,
    /// The canonical route: start, intermediate squares and end (empty for a pass).
    #[schema(example = json!(["32", "28"]))]
    pub route: Vec<String>,
    /// The squares of the captured pieces, in the order of the route.
    #[schema(example = json!([]))]
    pub captured: Vec<String>,
    /// How many pieces the move captures (0 for a step; an opening removal, which takes one of
    /// the mover's own pieces, counts 0 too).
    #[schema(example = 0)]
    pub captures: usize,
    /// Whether the moving man is crowned.
    #[schema(example = false)]
    pub promotion: bool,
    /// FEN of the position after the move.
    #[schema(example = "B:W28,31,33-50:B1-20")]
    pub resulting_position: String,
}

impl MoveInfo {
    /// Describes a legal move of `pos` (whose FEN had the move counters `counters`).
    pub fn of(
        v: &Variant,
        pos: &Position,
        counters: Option<Counters>,
        d: MoveView<'_>,
    ) -> MoveInfo {
        let names = |cells: &[usize]| cells.iter().map(|&c| v.square_name(c)).collect();
        MoveInfo {
            from: (!d.mv.is_pass()).then(|| v.square_name(d.mv.from() as usize)),
            to: (!d.mv.is_pass()).then(|| v.square_name(d.mv.to() as usize)),
            route: names(d.route),
            captured: names(d.captured),
            captures: if d.mv.is_removal() {
                0
            } else {
                d.captured.len()
            },
            promotion: d.mv.is_promotion(),
            resulting_position: v.fen_counters(
                &v.play(pos, &d.mv),
                counters.map(|c| c.after(v, pos.side(), &d.mv)),
            ),
            notation: d.notation.to_string(),
            long: d.long.to_string(),
        }
    }
}

/// A position and its legal moves.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct MovesResponse {
    /// The variant id.
    #[schema(example = "international")]
    pub variant: String,
    /// The position, as canonical FEN.
    #[schema(
        example = "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"
    )]
    pub position: String,
    /// The side to move.
    #[schema(example = "white")]
    pub side_to_move: Side,
    /// Whether the game is over in this position.
    pub status: PositionStatus,
    /// The diagram of the position (`GET /v1/variants/{variant}/diagram`, an SVG picture).
    #[schema(example = "/v1/variants/international/diagram?position=W:W31-50:B1-20")]
    pub diagram: String,
    /// Every legal move (one per move identity), sorted: by start square, then end square
    /// (in the variant's numbering; on algebraic boards file by file, each from rank 1 up:
    /// a1, a2, ..., b1, ...), then by the captured squares in that order, then a move that
    /// does not crown before one that does; a pass last.
    pub moves: Vec<MoveInfo>,
}

/// The legal moves of `fen` (`None` = start position), charged to `budget`, as a
/// [`MovesResponse`].
pub fn list_moves(
    v: &'static Variant,
    fen: Option<&str>,
    budget: &Budget,
) -> Result<MovesResponse, ApiError> {
    Ok(answer_moves(v, fen, budget)?.into_response())
}

/// The legal moves of `fen` (`None` = start position), charged to `budget`: the work of the
/// moves endpoints.
pub fn answer_moves(
    v: &'static Variant,
    fen: Option<&str>,
    budget: &Budget,
) -> Result<MovesAnswer, ApiError> {
    let (pos, counters) = parse_position_counters(v, "position", fen)?;
    let moves = v
        .list_moves(&pos, budget)
        .map_err(|e| ApiError::engine(&e))?;
    budget
        .charge(moves.len() as u64 * UNITS_PER_LISTED_MOVE)
        .map_err(|e| ApiError::engine(&e))?;
    // A position with legal moves is a game going on (a position the rules have decided has
    // none), so the moves generated already say so: no second generation.
    let status = if moves.is_empty() {
        position_status(v, &pos, budget)?
    } else {
        PositionStatus::from(arbiter_rules::Status::Ongoing)
    };
    Ok(MovesAnswer {
        v,
        pos,
        counters,
        status,
        moves,
    })
}

/// A position and its legal moves, before they are written out: as a [`MovesResponse`]
/// ([`MovesAnswer::into_response`]), or straight to its JSON text
/// ([`MovesAnswer::to_json`], the same bytes `serde_json` writes for the response, without
/// building its strings first).
///
/// Why a writer of its own: this is the one answer whose serializer is not serde's, because
/// serde costs measurably more here. Counted with callgrind (`benches/request-instructions.sh
/// moves`, the start position of international, one keep-alive connection), the server runs
/// about 89,000 instructions per `/moves` request with [`MovesAnswer::to_json`], and about
/// 157,000 (+76 %) when it builds the [`MovesResponse`] and writes it with `serde_json`: the
/// strings of every move and resulting FEN are built and then escaped byte by byte, where this
/// writer copies FENs (which never need escaping) and the parent's unchanged piece lists
/// straight into the buffer. The test `direct_json_is_serde_json_text` keeps the two
/// serializers in step; `into_response` (serde) serves the command line.
pub struct MovesAnswer {
    v: &'static Variant,
    pos: Position,
    counters: Option<Counters>,
    status: PositionStatus,
    moves: MoveList,
}

impl MovesAnswer {
    /// The number of legal moves.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the position has no legal move.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The answer as the response structure.
    pub fn into_response(self) -> MovesResponse {
        let MovesAnswer {
            v,
            pos,
            counters,
            status,
            moves,
        } = self;
        let fen = v.fen(&pos);
        let diagram = format!(
            "/v1/variants/{}/diagram?position={}",
            v.id(),
            query_escape(&fen)
        );
        MovesResponse {
            variant: v.id().to_string(),
            position: match counters {
                Some(c) => c.append_to(fen),
                None => fen,
            },
            diagram,
            side_to_move: pos.side().into(),
            status,
            moves: moves
                .iter()
                .map(|d| MoveInfo::of(v, &pos, counters, d))
                .collect(),
        }
    }

    /// The JSON text of [`MovesAnswer::into_response`], as `serde_json::to_vec` writes it
    /// (compact, fields in declaration order), written directly: square names, FENs and move
    /// texts go from the variant's tables and the position into the buffer.
    pub fn to_json(&self) -> Vec<u8> {
        // Writing to a Vec cannot fail.
        use std::io::Write;
        let v = self.v;
        let mut out = Vec::with_capacity(512 + self.moves.len() * (240 + 2 * v.board().len()));
        out.extend_from_slice(b"{\"variant\":");
        json_str(&mut out, v.id());
        // FENs go straight into the JSON text: they never need escaping (`fen_into`).
        out.extend_from_slice(b",\"position\":\"");
        let fen_start = out.len();
        let lists = v.fen_into(&self.pos, &mut out);
        let fen_end = out.len();
        if let Some(c) = self.counters {
            let _ = write!(out, "{c}");
        }
        out.extend_from_slice(b"\",\"side_to_move\":");
        let _ = serde_json::to_writer(&mut out, &Side::from(self.pos.side()));
        out.extend_from_slice(b",\"status\":");
        // A position with moves is a game going on: its status written as serde_json would.
        match &self.status {
            PositionStatus {
                state: super::GameState::Ongoing,
                reason: None,
            } => out.extend_from_slice(br#"{"state":"ongoing","reason":null}"#),
            status => {
                let _ = serde_json::to_writer(&mut out, status);
            }
        }
        out.extend_from_slice(b",\"diagram\":\"/v1/variants/");
        json_str_body(&mut out, v.id());
        out.extend_from_slice(b"/diagram?position=");
        // A FEN is letters, digits and `:,-/` (`/` in Frisian's king runs): as it is in a
        // query string (`query_escape` keeps them) and in JSON.
        out.extend_from_within(fen_start..fen_end);
        out.extend_from_slice(b"\",\"moves\":[");
        let parent_fen = out[fen_start..fen_end].to_vec();
        for (i, d) in self.moves.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            let step = !d.mv.is_pass();
            out.extend_from_slice(b"{\"notation\":");
            json_str(&mut out, d.notation);
            out.extend_from_slice(b",\"long\":");
            json_str(&mut out, d.long);
            out.extend_from_slice(b",\"from\":");
            json_opt_square(&mut out, v, step.then_some(d.mv.from() as usize));
            out.extend_from_slice(b",\"to\":");
            json_opt_square(&mut out, v, step.then_some(d.mv.to() as usize));
            out.extend_from_slice(b",\"route\":");
            json_squares(&mut out, v, d.route);
            out.extend_from_slice(b",\"captured\":");
            json_squares(&mut out, v, d.captured);
            out.extend_from_slice(b",\"captures\":");
            let captures = if d.mv.is_removal() {
                0
            } else {
                d.captured.len()
            };
            let _ = serde_json::to_writer(&mut out, &captures);
            out.extend_from_slice(if d.mv.is_promotion() {
                b",\"promotion\":true"
            } else {
                b",\"promotion\":false"
            });
            out.extend_from_slice(b",\"resulting_position\":\"");
            // The list of a side the move leaves as it was is copied from the position's.
            let child = v.play(&self.pos, &d.mv);
            v.child_fen_into(&self.pos, &parent_fen, &lists, &d.mv, &child, &mut out);
            if let Some(c) = self.counters {
                let _ = write!(out, "{}", c.after(v, self.pos.side(), &d.mv));
            }
            out.extend_from_slice(b"\"}");
        }
        out.extend_from_slice(b"]}");
        out
    }
}

/// `text` as a JSON string.
fn json_str(out: &mut Vec<u8>, text: &str) {
    out.push(b'"');
    json_str_body(out, text);
    out.push(b'"');
}

/// `text` escaped for the inside of a JSON string, as `serde_json` escapes it: the quote,
/// the backslash and the control characters (`\n`-style where JSON has a short form,
/// `\u00XX` otherwise); everything else as it is.
fn json_str_body(out: &mut Vec<u8>, text: &str) {
    let bytes = text.as_bytes();
    if !bytes.iter().any(|&b| b < 0x20 || b == b'"' || b == b'\\') {
        out.extend_from_slice(bytes);
        return;
    }
    // Rare (no name, FEN or move text has these): serde_json's own escaping, quotes off.
    if let Ok(quoted) = serde_json::to_vec(text) {
        if let [b'"', inner @ .., b'"'] = quoted.as_slice() {
            out.extend_from_slice(inner);
        }
    }
}

/// A square's name as a JSON string: it needs no escaping (square names are letters and
/// digits, checked when a variant is built).
fn json_name(out: &mut Vec<u8>, v: &Variant, cell: usize) {
    // The name's FEN entry (`,31`, padded to 8 bytes) is copied whole, a copy of a fixed size
    // the compiler writes inline; its comma becomes the opening quote and the padding is cut.
    let (entry, len) = v.fen_entry(cell);
    debug_assert!(entry[1..len].iter().all(u8::is_ascii_alphanumeric));
    let at = out.len();
    out.extend_from_slice(&entry);
    out[at] = b'"';
    out.truncate(at + len);
    out.push(b'"');
}

/// A square's name as a JSON string, or `null`.
fn json_opt_square(out: &mut Vec<u8>, v: &Variant, cell: Option<usize>) {
    match cell {
        Some(c) => json_name(out, v, c),
        None => out.extend_from_slice(b"null"),
    }
}

/// Squares' names as a JSON array of strings.
fn json_squares(out: &mut Vec<u8>, v: &Variant, cells: &[usize]) {
    out.push(b'[');
    for (i, &c) in cells.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        json_name(out, v, c);
    }
    out.push(b']');
}

/// What [`query_escape`] leaves as it is: letters, digits and `-._~:,/` (a FEN's characters,
/// so that a link shows its position as written; `/`, in Frisian's king runs, needs no escape
/// in a query).
const QUERY_KEEP: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~')
    .remove(b':')
    .remove(b',')
    .remove(b'/');

/// `text` escaped for a query string: letters, digits and `-._~:,/` as they are, every other
/// byte as `%XX`.
pub fn query_escape(text: &str) -> String {
    utf8_percent_encode(text, QUERY_KEEP).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `to_json` against serde_json's text of the same answer, byte for byte, on the
    /// positions of a seeded random game of every variant (drops, opening removals, the
    /// last-move field and passes included), with and without move counters.
    #[test]
    fn direct_json_is_serde_json_text() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut compared = 0;
        for v in arbiter_rules::variants() {
            let mut pos = v.start();
            for ply in 0..60 {
                let fen = v.fen(&pos);
                for text in [fen.clone(), format!("{fen}:H{}:F{}", ply % 7, 1 + ply / 2)] {
                    let budget = Budget::unlimited();
                    let direct = answer_moves(v, Some(&text), &budget).unwrap().to_json();
                    let response = list_moves(v, Some(&text), &budget).unwrap();
                    let serde = serde_json::to_vec(&response).unwrap();
                    assert_eq!(
                        String::from_utf8(direct).unwrap(),
                        String::from_utf8(serde).unwrap(),
                        "{} {text}",
                        v.id()
                    );
                    compared += 1;
                }
                let moves = v.describe_moves(&pos, &Budget::unlimited()).unwrap();
                if moves.is_empty() {
                    break;
                }
                let m = &moves[(next() % moves.len() as u64) as usize].mv;
                pos = v.play(&pos, m);
            }
        }
        assert!(compared > 1000, "{compared} answers compared");
        // Positions with every kind of FEN field, `/` of a king run included.
        for (id, fen) in [
            ("frisian", "B:W23,K27,34,42:B21:R27/1,-"),
            ("frysk", "W:WK46,47:BK5:R46/2,-:H3:F12"),
        ] {
            let v = arbiter_rules::variant(id).unwrap();
            let budget = Budget::unlimited();
            let direct = answer_moves(v, Some(fen), &budget).unwrap().to_json();
            let serde = serde_json::to_vec(&list_moves(v, Some(fen), &budget).unwrap()).unwrap();
            assert_eq!(
                String::from_utf8(direct).unwrap(),
                String::from_utf8(serde).unwrap(),
                "{id} {fen}"
            );
        }
    }

    #[test]
    fn json_strings_are_escaped_as_serde_json_does() {
        for text in [
            "plain",
            "a\"b",
            "back\\slash",
            "tab\tnew\nline",
            "\u{1}",
            "é",
            "",
        ] {
            let mut out = Vec::new();
            json_str(&mut out, text);
            assert_eq!(out, serde_json::to_vec(text).unwrap(), "{text:?}");
        }
    }
}
