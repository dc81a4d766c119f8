//! PDN move text (`diagonal.md` §6.3, §6.4): reading moves in short or long form, and writing
//! each legal move in the canonical form (short when unambiguous, long otherwise).

use crate::gen::GenError;
use crate::moves::{Move, Route};
use crate::position::Position;
use crate::variant::Variant;

/// Longest move text accepted, in bytes.
pub const MAX_MOVE_TEXT: usize = 512;

/// Why a move text does not name exactly one legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not move text at all.
    Syntax { reason: String },
    /// A square that does not exist on this board.
    UnknownSquare { square: String },
    /// Well-formed, but no legal move matches. `legal` lists every legal move.
    Illegal { reason: String, legal: Vec<String> },
    /// Several legal moves match; `candidates` gives each in long form.
    Ambiguous { candidates: Vec<String> },
    /// The position's capture sequences exceed the enumeration bound.
    Gen(GenError),
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::Syntax { reason } => write!(f, "not a move: {reason}"),
            MoveError::UnknownSquare { square } => {
                write!(f, "'{square}' is not a playable square of this board")
            }
            MoveError::Illegal { reason, .. } => write!(f, "illegal move: {reason}"),
            MoveError::Ambiguous { candidates } => write!(
                f,
                "ambiguous move: it matches {} legal moves ({}); write the capture in long form",
                candidates.len(),
                candidates.join(", ")
            ),
            MoveError::Gen(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for MoveError {}

impl From<GenError> for MoveError {
    fn from(e: GenError) -> Self {
        MoveError::Gen(e)
    }
}

/// A legal move with everything needed to show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DescribedMove {
    pub mv: Move,
    /// Canonical notation: short form when no other legal move has the same start and end.
    pub notation: String,
    /// Long form (every intermediate square of the canonical route).
    pub long: String,
    /// The canonical route: start, intermediate squares (PDN §6.4 convention) and end.
    pub route: Vec<usize>,
    /// Captured cells, in the order of the canonical route.
    pub captured: Vec<usize>,
}

/// Splits move text into squares. Accepts `-`, `x`, `X` and `:` as separators, trailing
/// move-strength marks (`!`, `?`), and alphanumeric moves without separators (`c3d4`).
pub fn parse_squares(variant: &Variant, text: &str) -> Result<Vec<usize>, MoveError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(MoveError::Syntax {
            reason: "empty move".into(),
        });
    }
    if t.len() > MAX_MOVE_TEXT {
        return Err(MoveError::Syntax {
            reason: format!("move text longer than {MAX_MOVE_TEXT} bytes"),
        });
    }
    let t = t.trim_end_matches(['!', '?', '+', '#', '*']);
    let parts: Vec<&str> = if t.contains(['-', 'x', 'X', ':']) {
        t.split(['-', 'x', 'X', ':']).collect()
    } else {
        // Alphanumeric without separators: letter followed by digits, repeated.
        let mut parts = Vec::new();
        let b = t.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let start = i;
            if !b[i].is_ascii_alphabetic() {
                return Err(MoveError::Syntax {
                    reason: format!(
                        "'{}' has no separator between squares (use '-' or 'x')",
                        clip(t)
                    ),
                });
            }
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            parts.push(&t[start..i]);
        }
        parts
    };
    if parts.len() < 2 {
        return Err(MoveError::Syntax {
            reason: format!("'{}' names fewer than two squares", clip(t)),
        });
    }
    parts
        .into_iter()
        .map(|p| {
            let p = p.trim();
            if p.is_empty() {
                return Err(MoveError::Syntax {
                    reason: format!("'{}' has an empty square", clip(t)),
                });
            }
            variant
                .parse_square(p)
                .ok_or_else(|| MoveError::UnknownSquare { square: clip(p) })
        })
        .collect()
}

fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

impl Variant {
    /// The canonical PDN route of a capture route: the start, for every jump but the last the
    /// turning square (or, going straight on, the square right behind the captured piece),
    /// and the end.
    fn pdn_route(&self, r: &Route) -> Vec<usize> {
        let mut sq = vec![r.from as usize];
        for (i, j) in r.jumps.iter().enumerate() {
            let turns_or_ends = r.jumps.get(i + 1).is_none_or(|n| n.dir != j.dir);
            if turns_or_ends {
                sq.push(j.to as usize);
            } else {
                sq.push(self.board().next(j.over as usize, j.dir) as usize);
            }
        }
        sq
    }

    /// For each jump of a route, the cells that may name it as an intermediate square: the
    /// run from the cell right behind the captured piece to the landing cell. PDN writes the
    /// turning square, or the square right behind the piece when going straight on; both lie
    /// in this run.
    fn jump_regions(&self, r: &Route) -> Vec<Vec<usize>> {
        r.jumps
            .iter()
            .enumerate()
            .map(|(i, j)| {
                // Going straight on to the next captured piece, any cell before it names this
                // jump; otherwise the run ends at the landing cell.
                let next_over = r
                    .jumps
                    .get(i + 1)
                    .filter(|n| n.dir == j.dir)
                    .map(|n| n.over);
                let mut region = Vec::new();
                for &c in self.board().ray(j.over as usize, j.dir) {
                    if Some(c) == next_over {
                        break;
                    }
                    region.push(c as usize);
                    if next_over.is_none() && c == j.to {
                        break;
                    }
                }
                region
            })
            .collect()
    }

    fn squares_text(&self, squares: &[usize], capture: bool) -> String {
        let sep = if capture {
            self.spec().capture_separator.to_string()
        } else {
            "-".to_string()
        };
        squares
            .iter()
            .map(|&c| self.square_name(c))
            .collect::<Vec<_>>()
            .join(&sep)
    }

    /// `ed4` / `e:d4`: a file letter, then the destination square (algebraic boards only).
    fn file_short_form(&self, text: &str) -> Option<(u8, usize)> {
        if !self.algebraic() {
            return None;
        }
        let t = text.trim().trim_end_matches(['!', '?', '+', '#']);
        let mut chars = t.chars();
        let file = chars.next()?;
        if !file.is_ascii_lowercase() {
            return None;
        }
        let rest = chars.as_str();
        let rest = rest.strip_prefix([':', 'x']).unwrap_or(rest);
        if !rest.starts_with(|c: char| c.is_ascii_lowercase()) {
            return None;
        }
        let to = crate::notation::squares::parse_algebraic(self.board(), rest)?;
        Some((file as u8 - b'a', to))
    }

    /// Canonical route of a move: the PDN route with the smallest list of square numbers.
    fn canonical(&self, m: &Move, routes: &[Route]) -> (Vec<usize>, Vec<usize>) {
        if routes.is_empty() {
            return (vec![m.from as usize, m.to as usize], Vec::new());
        }
        let best = routes
            .iter()
            .min_by_key(|r| {
                self.pdn_route(r)
                    .iter()
                    .map(|&c| self.square_number(c))
                    .collect::<Vec<_>>()
            })
            .expect("non-empty");
        (
            self.pdn_route(best),
            best.jumps.iter().map(|j| j.over as usize).collect(),
        )
    }

    /// Every legal move of `pos` with its canonical notation and route.
    pub fn describe_moves(&self, pos: &Position) -> Result<Vec<DescribedMove>, GenError> {
        let moves = self.legal_moves_with_routes(pos)?;
        Ok(self.describe(&moves))
    }

    fn describe(&self, moves: &[(Move, Vec<Route>)]) -> Vec<DescribedMove> {
        moves
            .iter()
            .map(|(m, routes)| {
                let (route, captured) = self.canonical(m, routes);
                let long = self.squares_text(&route, m.is_capture());
                let ambiguous = moves
                    .iter()
                    .filter(|(o, _)| o.from == m.from && o.to == m.to)
                    .count()
                    > 1;
                let notation = if ambiguous || route.len() == 2 {
                    long.clone()
                } else {
                    self.squares_text(&[m.from as usize, m.to as usize], m.is_capture())
                };
                DescribedMove {
                    mv: *m,
                    notation,
                    long,
                    route,
                    captured,
                }
            })
            .collect()
    }

    /// Finds the legal move named by `text` (short or long form, any valid route). On
    /// algebraic boards the Russian short form is read too: `ed4`, the piece on the e-file
    /// that goes to d4.
    pub fn parse_move(&self, pos: &Position, text: &str) -> Result<DescribedMove, MoveError> {
        if let Some((file, to)) = self.file_short_form(text) {
            let moves = self.legal_moves_with_routes(pos)?;
            let described = self.describe(&moves);
            let matching: Vec<usize> = described
                .iter()
                .enumerate()
                .filter(|(_, d)| {
                    d.mv.to as usize == to && self.board().xy(d.mv.from as usize).0 == file
                })
                .map(|(i, _)| i)
                .collect();
            return match matching.len() {
                1 => Ok(described[matching[0]].clone()),
                0 => Err(MoveError::Illegal {
                    reason: format!("{} does not match any legal move", clip(text.trim())),
                    legal: described.iter().map(|d| d.notation.clone()).collect(),
                }),
                _ => Err(MoveError::Ambiguous {
                    candidates: matching
                        .iter()
                        .map(|&i| described[i].long.clone())
                        .collect(),
                }),
            };
        }
        let squares = parse_squares(self, text)?;
        let moves = self.legal_moves_with_routes(pos)?;
        let described = self.describe(&moves);
        let from = squares[0];
        let to = *squares.last().expect("two squares at least");
        let inner = &squares[1..squares.len() - 1];
        let matching: Vec<usize> = moves
            .iter()
            .enumerate()
            .filter(|(_, (m, routes))| {
                if m.from as usize != from || m.to as usize != to {
                    return false;
                }
                if inner.is_empty() {
                    return true;
                }
                routes
                    .iter()
                    .any(|r| names_jumps(inner, &self.jump_regions(r)))
            })
            .map(|(i, _)| i)
            .collect();
        match matching.len() {
            1 => Ok(described[matching[0]].clone()),
            0 => {
                let legal: Vec<String> = described.iter().map(|d| d.notation.clone()).collect();
                let reason = if described.is_empty() {
                    format!("{} has no legal move (the game is over)", pos.side().name())
                } else if moves.iter().any(|(m, _)| m.is_capture()) {
                    format!(
                        "{} does not match any legal move; a capture is compulsory",
                        clip(text.trim())
                    )
                } else {
                    format!("{} does not match any legal move", clip(text.trim()))
                };
                Err(MoveError::Illegal { reason, legal })
            }
            _ => Err(MoveError::Ambiguous {
                candidates: matching
                    .iter()
                    .map(|&i| described[i].long.clone())
                    .collect(),
            }),
        }
    }
}

/// Whether the intermediate squares name distinct jumps of a route, in order.
fn names_jumps(inner: &[usize], regions: &[Vec<usize>]) -> bool {
    let mut it = regions.iter();
    inner.iter().all(|sq| it.any(|region| region.contains(sq)))
}
