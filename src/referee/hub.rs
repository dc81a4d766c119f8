//! Hub, the text protocol of Scan (version 2): a GUI, here the referee, speaks to an engine
//! over its standard input and output, one line at a time, each line a command and
//! `name=value` arguments (values with spaces in double quotes).
//!
//! The referee's side of it: `hub` (the engine answers `id`, `param` lines, `wait`),
//! `set-param name=... value=...`, `init` (`ready`), then for each move `pos pos=... moves="..."`,
//! `level ...`, `go think` (the engine answers `info` lines, then `done move=...`), `new-game`
//! between games, `stop` to end a search, `quit`. The position is the side to move (`W` or
//! `B`) and one letter per square in number order (`w`/`b` a man, `W`/`B` a king, `e` empty).
//! A move is `from-to`, or for a capture `fromxto` followed by `x` and each captured square, in
//! any order (`28x19x23`).
//!
//! Result claims are the referee's extension, which other GUIs ignore as the protocol asks: a
//! `done` line may carry `claim=win`, `claim=draw` or `claim=loss` (from the engine's side),
//! about the position after its move, or without a move about the position it was given.

use std::sync::Arc;
use std::time::{Duration, Instant};

use arbiter_rules::{Color, Kind, Position, Variant};
use async_trait::async_trait;

use tokio::io::BufReader;

use super::engine::{
    spawn, Ask, Channel, Ending, Engine, EngineSpec, Fault, Frame, GameStart, Heard, MoveNumbers,
    OpenError,
};
use super::game::{ClaimKind, Forfeit};

/// The longest line read from an engine, newline excluded; a longer one is refused, never
/// buffered.
pub const MAX_LINE: usize = 64 * 1024;

/// A line of the protocol: the command and its arguments (`None` for a flag).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub command: String,
    pub args: Vec<(String, Option<String>)>,
}

impl Line {
    /// Reads a line: the command, then `name`, `name=value` or `name="a value"` arguments.
    /// `None` for a blank line.
    pub fn parse(text: &str) -> Option<Line> {
        let mut chars = text.trim().chars().peekable();
        let word = |chars: &mut std::iter::Peekable<std::str::Chars>| {
            let mut w = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() || c == '=' {
                    break;
                }
                w.push(c);
                chars.next();
            }
            w
        };
        let command = word(&mut chars);
        if command.is_empty() {
            return None;
        }
        let mut args = Vec::new();
        loop {
            while chars.peek().is_some_and(|c| c.is_whitespace()) {
                chars.next();
            }
            if chars.peek().is_none() {
                break;
            }
            let name = word(&mut chars);
            if chars.peek() == Some(&'=') {
                chars.next();
                let mut value = String::new();
                if chars.peek() == Some(&'"') {
                    chars.next();
                    for c in chars.by_ref() {
                        if c == '"' {
                            break;
                        }
                        value.push(c);
                    }
                } else {
                    while let Some(&c) = chars.peek() {
                        if c.is_whitespace() {
                            break;
                        }
                        value.push(c);
                        chars.next();
                    }
                }
                args.push((name, Some(value)));
            } else if name.is_empty() {
                // A stray character: skip it.
                chars.next();
            } else {
                args.push((name, None));
            }
        }
        Some(Line { command, args })
    }

    /// The value of argument `name`, if given with a value.
    pub fn arg(&self, name: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }
}

/// A value for a line: quoted when it is empty or holds a space, `=` or `"` (a `"` inside is
/// dropped: the protocol has no escape).
pub fn quote(value: &str) -> String {
    let clean: String = value
        .chars()
        .filter(|&c| c != '"' && c != '\n' && c != '\r')
        .collect();
    if clean.is_empty() || clean.contains([' ', '=', '\t']) {
        format!("\"{clean}\"")
    } else {
        clean
    }
}

/// The position as Hub writes it: the side to move, then each square in number order.
pub fn position_string(v: &Variant, pos: &Position) -> String {
    let mut s = String::with_capacity(v.board().len() + 1);
    s.push(match pos.side() {
        Color::White => 'W',
        Color::Black => 'B',
    });
    for n in 1..=v.board().len() as u32 {
        let piece = v.cell_of_number(n).and_then(|c| pos.piece_at(c));
        s.push(match piece {
            None => 'e',
            Some((Color::White, Kind::King)) => 'W',
            Some((Color::Black, Kind::King)) => 'B',
            Some((Color::White, _)) => 'w',
            Some((Color::Black, _)) => 'b',
        });
    }
    s
}

/// A Hub move read as numbers: from, to, and the captured squares (in the order written).
/// `None` when the text is not of that form.
pub fn parse_move(text: &str) -> Option<(u32, u32, Vec<u32>)> {
    let text = text.trim();
    let number = |s: &str| -> Option<u32> {
        if s.is_empty() || s.len() > 4 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    };
    if let Some((from, to)) = text.split_once('-') {
        return Some((number(from)?, number(to)?, Vec::new()));
    }
    let mut parts = text.split('x');
    let from = number(parts.next()?)?;
    let to = number(parts.next()?)?;
    let captured = parts.map(number).collect::<Option<Vec<u32>>>()?;
    if captured.is_empty() {
        return None;
    }
    Some((from, to, captured))
}

/// A Hub engine, a child process. As Scan's `protocol.txt` asks: the handshake (`hub` …
/// `wait`, `set-param`, `init` … `ready`), each game opened with `new-game`, a search asked
/// for with `pos`, `level` and `go think` and answered with `done`, never a search of a
/// position whose game is over, and a search still running at the end of a game stopped with
/// `stop`, whose `done` is awaited before anything else is sent.
pub struct HubEngine {
    spec: Arc<EngineSpec>,
    channel: Channel,
    /// The parameters the engine declared (`param name=... values=...`).
    pub params: Vec<Line>,
    /// No answer yet since its handshake: its first answer gets the start-up timeout.
    fresh: bool,
    /// A search is running (`go think` sent, no `done` yet).
    searching: bool,
}

impl HubEngine {
    /// The handshake of an engine just started: `hub` … `wait`, the parameters, `init` …
    /// `ready`, `ping` … `pong`, all by `deadline`.
    pub async fn open(
        spec: Arc<EngineSpec>,
        channel: Channel,
        variant_param: Option<&str>,
        deadline: Instant,
    ) -> Result<HubEngine, Fault> {
        let mut e = HubEngine {
            spec,
            channel,
            params: Vec::new(),
            fresh: true,
            searching: false,
        };
        e.send_line("hub").await?;
        e.wait_for("wait", deadline, true).await?;
        let mut sets = e.spec.options.clone();
        if let Some(value) = variant_param {
            let declared = e.params.iter().any(|p| {
                p.arg("name") == Some("variant")
                    && p.arg("values")
                        .is_none_or(|vs| vs.split_whitespace().any(|x| x == value))
            });
            if declared && !sets.iter().any(|(n, _)| n == "variant") {
                sets.push(("variant".into(), value.into()));
            }
        }
        for (name, value) in sets {
            let line = format!("set-param name={} value={}", quote(&name), quote(&value));
            e.send_line(&line).await?;
        }
        e.send_line("init").await?;
        e.wait_for("ready", deadline, false).await?;
        // Some engines (GWD) test themselves after `ready` before they read on: the handshake
        // ends when the engine answers.
        e.send_line("ping").await?;
        e.wait_for("pong", deadline, false).await?;
        Ok(e)
    }

    /// Sends a line (the newline is added).
    pub async fn send_line(&mut self, line: &str) -> Result<(), Fault> {
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.channel.send(&bytes).await
    }

    async fn recv(&mut self) -> Result<Option<Line>, Fault> {
        match self.channel.recv().await {
            Frame::Bytes(b) => Ok(Line::parse(&String::from_utf8_lossy(&b))),
            Frame::Oversized => {
                self.channel.broken = true;
                Err(Fault::new(
                    Forfeit::ProtocolError,
                    format!("a line longer than {MAX_LINE} bytes"),
                ))
            }
            Frame::Gone(f) => Err(f),
        }
    }

    /// Reads lines until one whose command is `command`, by `deadline` (a stall after it).
    /// `keep_params`: keep the `param` lines read on the way.
    async fn wait_for(
        &mut self,
        command: &str,
        deadline: Instant,
        keep_params: bool,
    ) -> Result<(), Fault> {
        loop {
            match tokio::time::timeout_at(deadline.into(), self.recv()).await {
                Err(_) => {
                    return Err(Fault::new(
                        Forfeit::Stall,
                        format!("no '{command}' in time"),
                    ))
                }
                Ok(Ok(Some(line))) => {
                    if line.command == command {
                        return Ok(());
                    }
                    if keep_params && line.command == "param" {
                        self.params.push(line);
                    }
                }
                Ok(Ok(None)) => {}
                Ok(Err(f)) => return Err(f),
            }
        }
    }

    /// `ping`, and every line up to the `pong`: a `done` among them is a move sent out of
    /// turn (a forfeit), and nothing of an earlier search is left pending.
    async fn sync(&mut self, deadline: Instant) -> Result<(), Fault> {
        self.send_line("ping").await?;
        loop {
            match tokio::time::timeout_at(deadline.into(), self.recv()).await {
                Err(_) => return Err(Fault::new(Forfeit::Stall, "no 'pong' in time")),
                Ok(Ok(Some(line))) if line.command == "pong" => return Ok(()),
                Ok(Ok(Some(line))) if line.command == "done" => {
                    return Err(out_of_turn(&line));
                }
                Ok(Ok(_)) => {}
                Ok(Err(f)) => return Err(f),
            }
        }
    }

    /// The `level` line of a search: the engine's `movetime=` if set, else its time left (and
    /// the moves left to DXP's number of moves, never 0).
    fn level_line(&self, ask: &Ask) -> String {
        if let Some(t) = &self.spec.movetime {
            return format!("level move-time={}", quote(t));
        }
        let left = ask.left.as_secs_f64();
        // It is the mover's turn: it has made half the plies, rounded down.
        let made = (ask.ply / 2) as u32;
        if ask.moves > made {
            format!("level moves={} time={left:.3}", ask.moves - made)
        } else {
            format!("level time={left:.3}")
        }
    }
}

fn out_of_turn(line: &Line) -> Fault {
    Fault::new(
        Forfeit::ProtocolError,
        format!(
            "'done' with a move ({}) while it is not its turn",
            line.arg("move").unwrap_or("none")
        ),
    )
}

/// What a `done` line of the engine whose turn it is says.
fn read_done(line: &Line) -> Heard {
    let claim = match line.arg("claim") {
        None => None,
        Some("win") => Some(ClaimKind::Win),
        Some("draw") => Some(ClaimKind::Draw),
        Some("loss") => Some(ClaimKind::Loss),
        Some(other) => {
            return Heard::Fault(Fault::new(
                Forfeit::ProtocolError,
                format!("claim={other} (win, draw or loss)"),
            ))
        }
    };
    let text = line.arg("move").map(str::trim).filter(|t| !t.is_empty());
    let Some(text) = text else {
        return match claim {
            Some(claim) => Heard::Claim(claim),
            None => Heard::Unreadable {
                text: String::new(),
                reason: "'done' without a move".into(),
            },
        };
    };
    match parse_move(text) {
        Some((from, to, captured)) => Heard::Move {
            from,
            to,
            captured,
            text: text.to_string(),
            claim,
        },
        None => Heard::Unreadable {
            text: text.to_string(),
            reason: "not a Hub move (from-to, or fromxto then x and each captured square)".into(),
        },
    }
}

#[async_trait]
impl Engine for HubEngine {
    fn spec(&self) -> &Arc<EngineSpec> {
        &self.spec
    }

    fn channel(&mut self) -> &mut Channel {
        &mut self.channel
    }

    async fn start_game(&mut self, start: &GameStart) -> Result<(), Fault> {
        let wait = if self.fresh {
            start.timeouts.startup
        } else {
            start.timeouts.response
        };
        // `ping` after `new-game`: the `pong` shows that nothing of the last game is pending.
        self.send_line("new-game").await?;
        self.send_line("ping").await?;
        self.wait_for("pong", Instant::now() + wait, false).await?;
        self.fresh = false;
        Ok(())
    }

    async fn moved(&mut self, _mv: &MoveNumbers, _used: Duration) -> Result<(), Fault> {
        // The position goes with the next search.
        Ok(())
    }

    async fn go(&mut self, ask: &Ask) -> Result<(), Fault> {
        let mut pos_line = format!("pos pos={}", position_string(ask.variant, &ask.pos));
        if !ask.since.is_empty() {
            pos_line.push_str(&format!(" moves=\"{}\"", ask.since.join(" ")));
        }
        // `ping` first: a `done` before the `pong` was sent out of turn.
        self.sync(Instant::now() + ask.timeouts.response).await?;
        let level = self.level_line(ask);
        for line in [pos_line.as_str(), level.as_str(), "go think"] {
            self.send_line(line).await?;
        }
        self.searching = true;
        Ok(())
    }

    async fn next(&mut self, on_turn: bool) -> Heard {
        let line = match self.recv().await {
            Ok(Some(line)) => line,
            Ok(None) => return Heard::Nothing,
            Err(f) => return Heard::Fault(f),
        };
        if line.command != "done" {
            // `info`, `pong`, `error` and lines the protocol says to ignore.
            return Heard::Nothing;
        }
        if !on_turn || !self.searching {
            return Heard::Fault(out_of_turn(&line));
        }
        self.searching = false;
        read_done(&line)
    }

    async fn end_game(&mut self, ending: &Ending) {
        if !std::mem::replace(&mut self.searching, false) || self.channel.broken {
            return;
        }
        // A search still running: `stop`, and its `done` (discarded). An engine that does not
        // answer is started again.
        let deadline = Instant::now() + ending.wait;
        if self.send_line("stop").await.is_err()
            || self.wait_for("done", deadline, false).await.is_err()
        {
            self.channel.broken = true;
        }
    }

    async fn close(self: Box<Self>) {
        self.channel.close(Some(b"quit\n")).await;
    }
}

/// The channel of a Hub engine: its process, started.
pub(crate) fn hub_channel(spec: &EngineSpec, slot: usize) -> Result<Channel, OpenError> {
    let mut child = spawn(spec, None, slot, true)?;
    let stdin = child.stdin.take().expect("piped stdin");
    let stdout = child.stdout.take().expect("piped stdout");
    Ok(Channel::new(
        Some(child),
        Box::new(BufReader::new(stdout)),
        Box::new(stdin),
        (b'\n', MAX_LINE),
        false,
        "its output",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_as_the_protocol_writes_them() {
        let l = Line::parse("info depth=21 score=-0.01 pv=\"32-28 17-22\" flag").unwrap();
        assert_eq!(l.command, "info");
        assert_eq!(l.arg("depth"), Some("21"));
        assert_eq!(l.arg("pv"), Some("32-28 17-22"));
        assert_eq!(l.args.last().unwrap(), &("flag".to_string(), None));
        assert_eq!(Line::parse("   "), None);
        let d = Line::parse("done move=32-28 ponder=17-22").unwrap();
        assert_eq!(d.arg("move"), Some("32-28"));
    }

    #[test]
    fn moves_are_from_to_and_captures() {
        assert_eq!(parse_move("32-28"), Some((32, 28, vec![])));
        assert_eq!(parse_move("28x19x23"), Some((28, 19, vec![23])));
        assert_eq!(parse_move("28x19"), None);
        assert_eq!(parse_move("a-b"), None);
        assert_eq!(parse_move("99999-1"), None);
        assert_eq!(
            crate::referee::game::move_text(28, 19, &[23, 14]),
            "28x19x23x14"
        );
    }

    #[test]
    fn the_start_position_string() {
        let v = arbiter_rules::variant("international").unwrap();
        let s = position_string(v, &v.start());
        assert_eq!(s.len(), 51);
        assert_eq!(
            s,
            format!("W{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20))
        );
    }
}
