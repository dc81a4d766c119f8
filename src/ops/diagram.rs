//! A diagram of a position: a standalone SVG picture.
//!
//! Drawn from the board's own geometry, with no code for any one variant: each cell at its
//! `(x, y)` coordinates (a square on grid boards, with the light squares of a checkered board
//! between the playable ones; a point on point-and-line boards, with its lines, step-only
//! links dashed), the pieces on their cells, and optionally a move's route, the board turned
//! round, and the square names. A board added to the catalogue is drawn without new code.
//!
//! Every playable cell is one element with `class="cell …"` and `data-square` (its name in
//! the variant's notation), so that a page can find and mark it: a square is
//! `cell dark` on a checkered board, `cell even` or `cell odd` (two shades, alternating, with
//! a border) on a board whose every square is played, with `castle` added on a castle square
//! and `data-castle` naming its side; a point is `cell point`. The squares of a checkered
//! board that are not played are `light`, without `data-square`. Each piece is a
//! `<g class="piece …">` with the `data-square` of its cell.

use std::fmt::Write as _;

use arbiter_rules::{BoardShape, Color, Kind, Position, Variant};

use super::parse_position_counters;
use crate::problem::ApiError;

/// Side of a square (or the distance between two points), in SVG user units.
const CELL: f64 = 48.0;
/// Margin around the board, room for the coordinates.
const MARGIN: f64 = 28.0;

/// What to draw: a position (`None`: the start position), optionally a legal move of it, the
/// board turned round or not, with the square names or not.
#[derive(Clone, Debug)]
pub struct DiagramInput {
    pub position: Option<String>,
    /// A legal move of the position, in any notation `/play` reads: its route and the pieces
    /// it captures are marked.
    pub mv: Option<String>,
    pub flip: bool,
    pub coordinates: bool,
}

/// What the diagram marks of a move.
struct Highlight {
    route: Vec<usize>,
    captured: Vec<usize>,
}

/// Draws `pos` of `v` as a standalone SVG document.
pub fn draw(
    v: &Variant,
    pos: &Position,
    highlight: Option<&[usize]>,
    captured: &[usize],
    flip: bool,
    coordinates: bool,
) -> String {
    let hl = highlight.map(|route| Highlight {
        route: route.to_vec(),
        captured: captured.to_vec(),
    });
    Drawing {
        v,
        pos,
        hl,
        flip,
        coordinates,
    }
    .svg()
}

struct Drawing<'a> {
    v: &'a Variant,
    pos: &'a Position,
    hl: Option<Highlight>,
    flip: bool,
    coordinates: bool,
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

impl Drawing<'_> {
    fn graph(&self) -> bool {
        matches!(self.v.spec().board, BoardShape::Graph(_))
    }

    /// The grid the board is drawn on: the spec's width and height.
    fn size(&self) -> (u8, u8) {
        (self.v.spec().width, self.v.spec().height)
    }

    /// Screen position of grid coordinates `(x, y)` (a1 = (0, 0)): the top-left corner of
    /// the square, or (graph boards) the point itself.
    fn at(&self, x: u8, y: u8) -> (f64, f64) {
        let (w, h) = self.size();
        // Rank 1 at the bottom, file a on the left, as White sees the board; turned round,
        // as Black sees it.
        let (col, row) = if self.flip {
            (w - 1 - x, y)
        } else {
            (x, h - 1 - y)
        };
        let px = MARGIN + col as f64 * CELL;
        let py = MARGIN + row as f64 * CELL;
        if self.graph() {
            (px + CELL / 2.0, py + CELL / 2.0)
        } else {
            (px, py)
        }
    }

    /// The centre of a cell on screen.
    fn centre(&self, cell: usize) -> (f64, f64) {
        let (x, y) = self.v.board().xy(cell);
        let (px, py) = self.at(x, y);
        if self.graph() {
            (px, py)
        } else {
            (px + CELL / 2.0, py + CELL / 2.0)
        }
    }

    fn svg(&self) -> String {
        let (w, h) = self.size();
        let width = 2.0 * MARGIN + w as f64 * CELL;
        let hand = self.v.rules().stones_in_hand != 0;
        let height = 2.0 * MARGIN + h as f64 * CELL + if hand { 24.0 } else { 0.0 };
        let mut s = String::with_capacity(16 * 1024);
        let _ = write!(
            s,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width} {height}\" \
             width=\"{width}\" height=\"{height}\" font-family=\"sans-serif\" \
             class=\"arbiter-diagram\" data-variant=\"{}\" data-fen=\"{}\">",
            self.v.id(),
            esc(&self.v.fen(self.pos))
        );
        let _ = write!(
            s,
            "<title>{} — {} to move</title>",
            esc(self.v.name()),
            self.pos.side().name()
        );
        s.push_str(
            "<style>.light{fill:#f0d9b5}.dark{fill:#b58863}.even{fill:#ecd2a6}.odd{fill:#dcbb88}\
             .even,.odd{stroke:#6b4a26;stroke-width:1}.castle{fill:#8fb07a}\
             .line{stroke:#5a3d1e;stroke-width:2}.step-only{stroke:#5a3d1e;stroke-width:2;\
             stroke-dasharray:6 4;fill:none}.point{fill:#5a3d1e}.from,.to{fill:#e6d52c;\
             fill-opacity:.55}.route{stroke:#2c6fe6;stroke-width:4;fill:none;\
             stroke-linecap:round;stroke-linejoin:round;stroke-opacity:.8}\
             .captured{stroke:#d02020;stroke-width:4}.white{fill:#fafafa;stroke:#222;\
             stroke-width:2}.black{fill:#222;stroke:#000;stroke-width:2}\
             .mark{fill:none;stroke-width:2.5}.white .mark{stroke:#222}.black .mark{stroke:#eee}\
             .label{font-size:11px;fill:#333}.edge{font-size:13px;fill:#333}</style>",
        );
        let _ = write!(
            s,
            "<rect class=\"frame\" x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" \
             fill=\"#fffdf8\"/>"
        );
        if self.graph() {
            self.graph_board(&mut s);
        } else {
            self.grid_board(&mut s);
        }
        self.highlight(&mut s);
        self.pieces(&mut s);
        if hand {
            let y = height - 10.0;
            let _ = write!(
                s,
                "<text class=\"hand\" x=\"{MARGIN}\" y=\"{y}\" font-size=\"13\">in hand: \
                 white {}, black {}</text>",
                self.pos.hand(Color::White),
                self.pos.hand(Color::Black)
            );
        }
        s.push_str("</svg>");
        s
    }

    /// Grid boards: a square per cell; checkered boards also get their light squares, castle
    /// squares (the Camelot family) their own colour, full boards two shades and borders.
    fn grid_board(&self, s: &mut String) {
        let (w, h) = self.size();
        let b = self.v.board();
        let checkered = self.v.spec().board.layout() == "checkered";
        s.push_str("<g class=\"board\">");
        for y in 0..h {
            for x in 0..w {
                let cell = b.at(x as i32, y as i32);
                let castle = cell.and_then(|c| {
                    Color::BOTH
                        .into_iter()
                        .find(|&side| self.v.castle(side).contains(c))
                });
                let (px, py) = self.at(x, y);
                let Some(cell) = cell else {
                    if checkered {
                        let _ = write!(
                            s,
                            "<rect class=\"light\" x=\"{px}\" y=\"{py}\" width=\"{CELL}\" \
                             height=\"{CELL}\"/>"
                        );
                    }
                    continue;
                };
                // Every square of a full board is played: two shades, alternating, and a
                // border, so that files and ranks can be counted.
                let shade = if checkered {
                    "dark"
                } else if (x + y) % 2 == 0 {
                    "odd"
                } else {
                    "even"
                };
                let _ = write!(
                    s,
                    "<rect class=\"cell {shade}{}\" data-square=\"{}\"{} x=\"{px}\" \
                     y=\"{py}\" width=\"{CELL}\" height=\"{CELL}\"/>",
                    if castle.is_some() { " castle" } else { "" },
                    esc(&self.v.square_name(cell)),
                    castle.map_or(String::new(), |side| format!(
                        " data-castle=\"{}\"",
                        side.name()
                    )),
                );
            }
        }
        s.push_str("</g>");
        if !self.coordinates {
            return;
        }
        s.push_str("<g class=\"coordinates\">");
        if self.v.algebraic() {
            for x in 0..w {
                let (px, _) = self.at(x, 0);
                let y = MARGIN + h as f64 * CELL + 18.0;
                let _ = write!(
                    s,
                    "<text class=\"edge\" x=\"{}\" y=\"{y}\" text-anchor=\"middle\">{}</text>",
                    px + CELL / 2.0,
                    (b'a' + x) as char
                );
            }
            for y in 0..h {
                let (_, py) = self.at(0, y);
                let _ = write!(
                    s,
                    "<text class=\"edge\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                    MARGIN / 2.0,
                    py + CELL / 2.0 + 5.0,
                    y + 1
                );
            }
        } else {
            for cell in b.cells().iter() {
                let (x, y) = b.xy(cell);
                let (px, py) = self.at(x, y);
                let _ = write!(
                    s,
                    "<text class=\"label\" x=\"{}\" y=\"{}\">{}</text>",
                    px + 3.0,
                    py + 12.0,
                    self.v.square_number(cell)
                );
            }
        }
        s.push_str("</g>");
    }

    /// Point-and-line boards: the lines, the step-only links dashed and bowed out, the points.
    fn graph_board(&self, s: &mut String) {
        let BoardShape::Graph(g) = &self.v.spec().board else {
            return;
        };
        let b = self.v.board();
        let cell_of = |i: usize| {
            let (x, y) = g.points[i];
            b.at(x as i32, y as i32).unwrap_or(i)
        };
        s.push_str("<g class=\"board\">");
        for &(a, _, c) in &g.lines {
            let (x1, y1) = self.centre(cell_of(a));
            let (x2, y2) = self.centre(cell_of(c));
            let _ = write!(
                s,
                "<line class=\"line\" x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\"/>"
            );
        }
        let (w, h) = self.size();
        let (mid_x, mid_y) = (
            MARGIN + w as f64 * CELL / 2.0,
            MARGIN + h as f64 * CELL / 2.0,
        );
        for &(a, c) in &g.step_only {
            let (x1, y1) = self.centre(cell_of(a));
            let (x2, y2) = self.centre(cell_of(c));
            // Bow the link away from the middle of the board, so that it does not run over
            // the lines between its ends.
            let (mx, my) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
            let (dx, dy) = (mx - mid_x, my - mid_y);
            let len = (dx * dx + dy * dy).sqrt().max(1.0);
            let (cx, cy) = (mx + dx / len * CELL * 0.9, my + dy / len * CELL * 0.9);
            let _ = write!(
                s,
                "<path class=\"step-only\" d=\"M{x1} {y1} Q{cx} {cy} {x2} {y2}\"/>"
            );
        }
        for cell in b.cells().iter() {
            let (x, y) = self.centre(cell);
            let _ = write!(
                s,
                "<circle class=\"cell point\" data-square=\"{}\" cx=\"{x}\" cy=\"{y}\" \
                 r=\"4\"/>",
                esc(&self.v.square_name(cell))
            );
            if self.coordinates {
                // Above and to the left of the point, clear of a piece standing on it.
                let _ = write!(
                    s,
                    "<text class=\"label\" x=\"{}\" y=\"{}\">{}</text>",
                    x - CELL / 2.0 + 1.0,
                    y - CELL / 2.0 + 10.0,
                    esc(&self.v.square_name(cell))
                );
            }
        }
        s.push_str("</g>");
    }

    /// The move shown: its start and end marked, its route drawn, its captures crossed.
    fn highlight(&self, s: &mut String) {
        let Some(hl) = &self.hl else {
            return;
        };
        if hl.route.is_empty() {
            return;
        }
        s.push_str("<g class=\"move\">");
        let first = hl.route[0];
        let last = hl.route[hl.route.len() - 1];
        for (cell, class) in [(first, "from"), (last, "to")] {
            let (x, y) = self.centre(cell);
            if self.graph() {
                let _ = write!(
                    s,
                    "<circle class=\"{class}\" cx=\"{x}\" cy=\"{y}\" r=\"{}\"/>",
                    CELL * 0.45
                );
            } else {
                let _ = write!(
                    s,
                    "<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{CELL}\" \
                     height=\"{CELL}\"/>",
                    x - CELL / 2.0,
                    y - CELL / 2.0
                );
            }
        }
        if hl.route.len() >= 2 && first != last || hl.route.len() > 2 {
            let points: Vec<String> = hl
                .route
                .iter()
                .map(|&c| {
                    let (x, y) = self.centre(c);
                    format!("{x},{y}")
                })
                .collect();
            let _ = write!(
                s,
                "<polyline class=\"route\" points=\"{}\"/>",
                points.join(" ")
            );
        }
        for &c in &hl.captured {
            let (x, y) = self.centre(c);
            let r = CELL * 0.3;
            let _ = write!(
                s,
                "<path class=\"captured\" d=\"M{} {} L{} {} M{} {} L{} {}\"/>",
                x - r,
                y - r,
                x + r,
                y + r,
                x - r,
                y + r,
                x + r,
                y - r
            );
        }
        s.push_str("</g>");
    }

    /// One `<g class="piece ...">` per piece, with rings for a king and its kind's letter for
    /// a kind that has one (`P` for a parachutist, `N` for a knight).
    fn pieces(&self, s: &mut String) {
        s.push_str("<g class=\"pieces\">");
        let r = CELL * 0.38;
        for color in Color::BOTH {
            for kind in Kind::ALL {
                for cell in self.pos.pieces(color, kind).iter() {
                    let (x, y) = self.centre(cell);
                    let _ = write!(
                        s,
                        "<g class=\"piece {} {}\" data-square=\"{}\">\
                         <circle cx=\"{x}\" cy=\"{y}\" r=\"{r}\"/>",
                        color.name(),
                        kind.name(),
                        esc(&self.v.square_name(cell))
                    );
                    if kind == Kind::King {
                        let _ = write!(
                            s,
                            "<circle class=\"mark\" cx=\"{x}\" cy=\"{y}\" r=\"{}\"/>\
                             <circle class=\"mark\" cx=\"{x}\" cy=\"{y}\" r=\"{}\"/>",
                            r * 0.62,
                            r * 0.3
                        );
                    } else if let Some(mark) = kind.info().mark {
                        let _ = write!(
                            s,
                            "<text class=\"mark\" x=\"{x}\" y=\"{}\" \
                             text-anchor=\"middle\" font-size=\"{}\">{mark}</text>",
                            y + r * 0.4,
                            r
                        );
                    }
                    s.push_str("</g>");
                }
            }
        }
        s.push_str("</g>");
    }
}

/// The diagram of a variant's position, optionally with a move (the work of the diagram
/// endpoint).
pub fn diagram_svg(
    v: &'static Variant,
    query: &DiagramInput,
    budget: &arbiter_rules::Budget,
) -> Result<String, ApiError> {
    let (pos, _) = parse_position_counters(v, "position", query.position.as_deref())?;
    let (route, captured) = match query.mv.as_deref() {
        None => (None, Vec::new()),
        Some(text) => {
            let d = v
                .parse_move(&pos, text, budget)
                .map_err(|e| ApiError::bad_move(1, text, e))?;
            (Some(d.route), d.captured)
        }
    };
    Ok(draw(
        v,
        &pos,
        route.as_deref(),
        if is_removal(&captured, &route) {
            &[]
        } else {
            &captured
        },
        query.flip,
        query.coordinates,
    ))
}

/// An opening removal lists the removed piece as captured and has a one-square route: it is
/// shown as a marked square, not a crossed piece.
fn is_removal(captured: &[usize], route: &Option<Vec<usize>>) -> bool {
    matches!(route, Some(r) if r.len() == 1 && captured == r.as_slice())
}
