//! The DamExchange Protocol (DXP): the messages two draughts programs exchange over TCP, one
//! the initiator (here always the referee), the other the follower.
//!
//! Each message is a type letter and fixed-width fields, ended by a NUL byte:
//!
//! | type | message | fields after the letter |
//! |---|---|---|
//! | `R` | GAMEREQ | version (2), initiator name (32), follower colour (`W`/`Z`), game time in minutes (3), number of moves (3), `A` (start position) or `B` + side to move (`W`/`Z`) + one letter per square (`e`, `w`, `z`, `W`, `Z`) |
//! | `A` | GAMEACC | follower name (32), acceptance code (`0` accepted, `1` version, `2` refused, `3` other) |
//! | `M` | MOVE | time used in seconds (4), from (2), to (2), number captured (2), captured squares (2 each) |
//! | `E` | GAMEEND | reason (`0` unknown, `1` the sender loses, `2` draw, `3` the sender wins), stop code (`0` go on, `1` end the connection) |
//! | `C` | CHAT | text |
//! | `B` | BACKREQ | move number (3), side to move (`W`/`Z`) |
//! | `K` | BACKACC | acceptance code |
//!
//! Squares are the variant's numbers, two digits: a board with more than 99 squares has no DXP.
//! A message is read within [`MAX_MESSAGE`] bytes: a longer one is refused, never buffered.

use std::sync::Arc;
use std::time::{Duration, Instant};

use arbiter_rules::{Color, Kind, Position, Variant, Verdict};
use async_trait::async_trait;

use tokio::io::BufReader;

use super::engine::{
    connect_until, exit_words, free_port, spawn, Ask, Channel, Ending, Engine, EngineSpec, Fault,
    Frame, GameStart, Heard, MoveNumbers, OpenError, SharedListener,
};
use super::game::{ClaimKind, Forfeit};

/// The longest message read, NUL excluded: a GAMEREQ of a 99-square board (143 bytes) and a
/// move capturing 99 pieces (209 bytes) fit, and so does any chat line the engines send.
pub const MAX_MESSAGE: usize = 1024;

/// A DXP message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    GameReq(GameReq),
    GameAcc { name: String, code: u8 },
    Move(MoveMsg),
    GameEnd { reason: u8, stop: u8 },
    Chat(String),
    BackReq { move_number: u32, side: Color },
    BackAcc { code: u8 },
}

/// A GAMEREQ: the game the initiator asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameReq {
    pub name: String,
    /// The follower's colour.
    pub follower: Color,
    /// The game time, in minutes, as the field is written (`005`, `0.5`).
    pub minutes: String,
    /// The number of moves (0: no limit).
    pub moves: u32,
    /// The start position: `None` for the variant's start (`A`), else the side to move and
    /// one letter per square (`B`).
    pub position: Option<String>,
}

/// A MOVE: from, to and the captured squares, as numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveMsg {
    pub seconds: u32,
    pub from: u32,
    pub to: u32,
    pub captured: Vec<u32>,
}

/// Why a message could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadMessage(pub String);

impl std::fmt::Display for BadMessage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn color_letter(c: Color) -> char {
    match c {
        Color::White => 'W',
        Color::Black => 'Z',
    }
}

fn read_color(b: u8) -> Option<Color> {
    match b {
        b'W' => Some(Color::White),
        b'Z' => Some(Color::Black),
        _ => None,
    }
}

/// A name in a 32-character field: cut, non-ASCII and NUL replaced, padded with spaces.
fn name_field(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() || c == ' ' {
                c
            } else {
                '?'
            }
        })
        .take(32)
        .collect();
    while s.len() < 32 {
        s.push(' ');
    }
    s
}

/// The game time in minutes as DXP's three-character field: whole minutes (`005`) from one
/// minute up, rounded; below a minute one decimal (`0.5`, at least `0.1`). Programs read it as
/// a number of at most three characters; some read only whole numbers. The referee's clocks
/// keep the exact time.
pub fn minutes_field(seconds: f64) -> String {
    let minutes = seconds / 60.0;
    if minutes >= 0.95 {
        format!("{:03}", (minutes.round() as u64).min(999))
    } else {
        let tenths = ((minutes * 10.0).round() as u64).clamp(1, 9);
        format!("0.{tenths}")
    }
}

/// The letters of a position for a GAMEREQ: the side to move, then each square in number order
/// (`e` empty, `w`/`z` a white/black man, `W`/`Z` a king).
pub fn position_letters(v: &Variant, pos: &Position) -> String {
    let mut s = String::with_capacity(v.board().len() + 1);
    s.push(color_letter(pos.side()));
    for n in 1..=v.board().len() as u32 {
        let piece = v.cell_of_number(n).and_then(|c| pos.piece_at(c));
        s.push(match piece {
            None => 'e',
            Some((Color::White, Kind::King)) => 'W',
            Some((Color::Black, Kind::King)) => 'Z',
            Some((Color::White, _)) => 'w',
            Some((Color::Black, _)) => 'z',
        });
    }
    s
}

fn two(n: u32) -> Result<String, BadMessage> {
    if n > 99 {
        return Err(BadMessage(format!("square {n} has more than two digits")));
    }
    Ok(format!("{n:02}"))
}

impl Message {
    /// The message's bytes, NUL included.
    pub fn encode(&self) -> Result<Vec<u8>, BadMessage> {
        let mut s = String::new();
        match self {
            Message::GameReq(r) => {
                s.push('R');
                s.push_str("01");
                s.push_str(&name_field(&r.name));
                s.push(color_letter(r.follower));
                s.push_str(&r.minutes);
                s.push_str(&format!("{:03}", r.moves.min(999)));
                match &r.position {
                    None => s.push('A'),
                    Some(p) => {
                        s.push('B');
                        s.push_str(p);
                    }
                }
            }
            Message::GameAcc { name, code } => {
                s.push('A');
                s.push_str(&name_field(name));
                s.push((b'0' + code) as char);
            }
            Message::Move(m) => {
                s.push('M');
                s.push_str(&format!("{:04}", m.seconds.min(9999)));
                s.push_str(&two(m.from)?);
                s.push_str(&two(m.to)?);
                s.push_str(&two(m.captured.len() as u32)?);
                for &c in &m.captured {
                    s.push_str(&two(c)?);
                }
            }
            Message::GameEnd { reason, stop } => {
                s.push('E');
                s.push((b'0' + reason) as char);
                s.push((b'0' + stop) as char);
            }
            Message::Chat(text) => {
                s.push('C');
                s.extend(text.chars().filter(|&c| c != '\0').take(MAX_MESSAGE - 1));
            }
            Message::BackReq { move_number, side } => {
                s.push('B');
                s.push_str(&format!("{:03}", move_number.min(&999)));
                s.push(color_letter(*side));
            }
            Message::BackAcc { code } => {
                s.push('K');
                s.push((b'0' + code) as char);
            }
        }
        let mut bytes = s.into_bytes();
        bytes.push(0);
        Ok(bytes)
    }

    /// Reads one message (its bytes without the NUL). `squares` is the number of squares of
    /// the board, for the length of a GAMEREQ's position.
    pub fn decode(bytes: &[u8], squares: usize) -> Result<Message, BadMessage> {
        let bad = |what: &str| {
            Err(BadMessage(format!(
                "{what}: '{}'",
                String::from_utf8_lossy(&bytes[..bytes.len().min(80)]).escape_debug()
            )))
        };
        let Some(&kind) = bytes.first() else {
            return bad("an empty message");
        };
        let body = &bytes[1..];
        let digits = |field: &[u8]| -> Option<u32> {
            if field.is_empty() || !field.iter().all(u8::is_ascii_digit) {
                return None;
            }
            std::str::from_utf8(field).ok()?.parse().ok()
        };
        match kind {
            b'R' => {
                if body.len() < 2 + 32 + 1 + 3 + 3 + 1 {
                    return bad("a GAMEREQ too short");
                }
                let name = String::from_utf8_lossy(&body[2..34]).trim_end().to_string();
                let Some(follower) = read_color(body[34]) else {
                    return bad("a GAMEREQ with no follower colour");
                };
                let minutes = String::from_utf8_lossy(&body[35..38]).to_string();
                let Some(moves) = digits(&body[38..41]) else {
                    return bad("a GAMEREQ with no number of moves");
                };
                let position = match (body[41], body.len() - 42) {
                    (b'A', 0) => None,
                    (b'B', n) if n == squares + 1 => {
                        Some(String::from_utf8_lossy(&body[42..]).to_string())
                    }
                    _ => return bad("a GAMEREQ with no valid position"),
                };
                Ok(Message::GameReq(GameReq {
                    name,
                    follower,
                    minutes,
                    moves,
                    position,
                }))
            }
            b'A' => {
                if body.len() != 33 || !body[32].is_ascii_digit() {
                    return bad("a GAMEACC not of 33 characters and a code");
                }
                Ok(Message::GameAcc {
                    name: String::from_utf8_lossy(&body[..32]).trim_end().to_string(),
                    code: body[32] - b'0',
                })
            }
            b'M' => {
                if body.len() < 10 {
                    return bad("a MOVE too short");
                }
                let (Some(seconds), Some(from), Some(to), Some(n)) = (
                    digits(&body[0..4]),
                    digits(&body[4..6]),
                    digits(&body[6..8]),
                    digits(&body[8..10]),
                ) else {
                    return bad("a MOVE with a field that is not a number");
                };
                if body.len() != 10 + 2 * n as usize {
                    return bad("a MOVE whose length does not match its number of captures");
                }
                let mut captured = Vec::with_capacity(n as usize);
                for pair in body[10..].chunks(2) {
                    match digits(pair) {
                        Some(c) => captured.push(c),
                        None => return bad("a MOVE with a captured square that is not a number"),
                    }
                }
                Ok(Message::Move(MoveMsg {
                    seconds,
                    from,
                    to,
                    captured,
                }))
            }
            b'E' => {
                if body.len() != 2 || !body.iter().all(u8::is_ascii_digit) {
                    return bad("a GAMEEND not of two digits");
                }
                Ok(Message::GameEnd {
                    reason: body[0] - b'0',
                    stop: body[1] - b'0',
                })
            }
            b'C' => Ok(Message::Chat(String::from_utf8_lossy(body).to_string())),
            b'B' => {
                let (Some(move_number), Some(side)) = (
                    body.get(..3).and_then(digits),
                    body.get(3).copied().and_then(read_color),
                ) else {
                    return bad("a BACKREQ not of a move number and a colour");
                };
                if body.len() != 4 {
                    return bad("a BACKREQ not of a move number and a colour");
                }
                Ok(Message::BackReq { move_number, side })
            }
            b'K' => {
                if body.len() != 1 || !body[0].is_ascii_digit() {
                    return bad("a BACKACC not of one digit");
                }
                Ok(Message::BackAcc {
                    code: body[0] - b'0',
                })
            }
            _ => bad("an unknown message type"),
        }
    }
}

/// Where an engine stands in a DXP game: whose turn it is towards it (the referee plays its
/// opponent), or that it ended the game itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Turn {
    /// No game.
    Idle,
    /// The engine owes a message: a MOVE, or a GAMEEND instead.
    Engine,
    /// The referee owes a message: the opponent's MOVE, or a GAMEEND instead.
    Referee,
    /// The engine sent a GAMEEND that the referee has not yet confirmed.
    EngineEnded,
}

/// A DXP engine: the referee is the initiator, and towards the engine its opponent. Each game
/// starts with a GAMEREQ answered by a GAMEACC; MOVEs alternate; the game ends as the DXP text
/// says: a GAMEEND may only be sent by the side whose turn it is, instead of a MOVE, and the
/// other side confirms it with exactly one GAMEEND.
pub struct DxpEngine {
    spec: Arc<EngineSpec>,
    channel: Channel,
    squares: usize,
    /// No answer yet since it was started: its first answer gets the start-up timeout.
    fresh: bool,
    turn: Turn,
    /// The engine asked to stop after this game (GAMEEND with stop code 1).
    leaving: bool,
}

impl DxpEngine {
    pub fn new(spec: Arc<EngineSpec>, channel: Channel, squares: usize) -> DxpEngine {
        DxpEngine {
            spec,
            channel,
            squares,
            fresh: true,
            turn: Turn::Idle,
            leaving: false,
        }
    }

    async fn send(&mut self, m: &Message) -> Result<(), Fault> {
        let bytes = m
            .encode()
            .map_err(|e| Fault::new(Forfeit::ProtocolError, e.0))?;
        self.channel.send(&bytes).await
    }

    async fn recv(&mut self) -> Result<Message, Fault> {
        match self.channel.recv().await {
            Frame::Bytes(b) => Message::decode(&b, self.squares)
                .map_err(|e| Fault::new(Forfeit::ProtocolError, e.0)),
            Frame::Oversized => {
                self.channel.broken = true;
                Err(Fault::new(
                    Forfeit::ProtocolError,
                    format!("a message longer than {MAX_MESSAGE} bytes"),
                ))
            }
            Frame::Gone(f) => Err(f),
        }
    }

    /// Waits for the GAMEACC of a GAMEREQ until `deadline`. Stale messages of the previous game
    /// (a late confirmation, a MOVE, a CHAT) are passed over.
    async fn await_gameacc(&mut self, deadline: Instant) -> Result<(), Fault> {
        loop {
            let said = tokio::time::timeout_at(deadline.into(), self.recv()).await;
            match said {
                Err(_) => return Err(Fault::new(Forfeit::Stall, "no GAMEACC in time")),
                Ok(Ok(Message::GameAcc { code: 0, .. })) => return Ok(()),
                Ok(Ok(Message::GameAcc { code, .. })) => {
                    return Err(Fault::new(
                        Forfeit::Refused,
                        format!("GAMEACC with code {code}: the game is refused"),
                    ))
                }
                Ok(Ok(
                    Message::Move(_)
                    | Message::GameEnd { .. }
                    | Message::Chat(_)
                    | Message::BackAcc { .. },
                )) => {}
                Ok(Ok(m)) => {
                    return Err(Fault::new(
                        Forfeit::ProtocolError,
                        format!("a {} instead of GAMEACC", message_name(&m)),
                    ))
                }
                Ok(Err(f)) => return Err(f),
            }
        }
    }

    /// Waits up to `wait` for the engine's GAMEEND that confirms the referee's (other
    /// messages are passed over). No confirmation is no fault (some engines never send one:
    /// the next GAMEACC wait passes over a late one); an engine gone is restarted.
    async fn await_confirmation(&mut self, wait: Duration) {
        let deadline = Instant::now() + wait;
        loop {
            match tokio::time::timeout_at(deadline.into(), self.recv()).await {
                Err(_) => return,
                Ok(Ok(Message::GameEnd { stop, .. })) => {
                    self.leaving |= stop == 1;
                    return;
                }
                Ok(Ok(_)) => {}
                Ok(Err(_)) => {
                    self.channel.broken = true;
                    return;
                }
            }
        }
    }

    /// The referee's own GAMEEND, sent instead of the opponent's MOVE, and its confirmation.
    async fn initial_gameend(&mut self, ending: &Ending) {
        if self
            .send(&gameend_for(ending.side, ending.verdict))
            .await
            .is_err()
        {
            self.channel.broken = true;
            return;
        }
        self.await_confirmation(ending.wait).await;
    }
}

/// The GAMEEND the referee sends to the engine playing `side` to end a game: the referee stands
/// for its opponent, so the reason is `1` (the sender gives up) when `side` won, `3` when it
/// lost, `2` for a draw, `0` when the result is unknown.
pub fn gameend_for(side: Color, verdict: Verdict) -> Message {
    let reason = match verdict {
        Verdict::Draw => 2,
        v if v == Verdict::win_for(side) => 1,
        Verdict::WhiteWins | Verdict::BlackWins => 3,
        _ => 0,
    };
    Message::GameEnd { reason, stop: 0 }
}

/// The confirmation of an engine's GAMEEND (reason `0`, as the text writes it).
pub const CONFIRMATION: Message = Message::GameEnd { reason: 0, stop: 0 };

/// The claim of a GAMEEND's reason, from the sender's side.
pub fn claim_of(reason: u8) -> Option<ClaimKind> {
    match reason {
        0 => Some(ClaimKind::Unknown),
        1 => Some(ClaimKind::Loss),
        2 => Some(ClaimKind::Draw),
        3 => Some(ClaimKind::Win),
        _ => None,
    }
}

/// The name of a message's type.
pub fn message_name(m: &Message) -> &'static str {
    match m {
        Message::GameReq(_) => "GAMEREQ",
        Message::GameAcc { .. } => "GAMEACC",
        Message::Move(_) => "MOVE",
        Message::GameEnd { .. } => "GAMEEND",
        Message::Chat(_) => "CHAT",
        Message::BackReq { .. } => "BACKREQ",
        Message::BackAcc { .. } => "BACKACC",
    }
}

#[async_trait]
impl Engine for DxpEngine {
    fn spec(&self) -> &Arc<EngineSpec> {
        &self.spec
    }

    fn channel(&mut self) -> &mut Channel {
        &mut self.channel
    }

    async fn start_game(&mut self, start: &GameStart) -> Result<(), Fault> {
        let v = start.variant;
        let position = (start.start != v.start()).then(|| position_letters(v, &start.start));
        let req = Message::GameReq(GameReq {
            name: "Arbiter".into(),
            follower: start.side,
            minutes: minutes_field(start.time.as_secs_f64()),
            moves: start.moves,
            position,
        });
        self.send(&req).await?;
        let wait = if self.fresh {
            start.timeouts.startup
        } else {
            start.timeouts.response
        };
        self.await_gameacc(Instant::now() + wait).await?;
        self.fresh = false;
        self.turn = if start.start.side() == start.side {
            Turn::Engine
        } else {
            Turn::Referee
        };
        Ok(())
    }

    async fn moved(&mut self, mv: &MoveNumbers, used: Duration) -> Result<(), Fault> {
        self.send(&Message::Move(MoveMsg {
            seconds: used.as_secs_f64().round() as u32,
            from: mv.from,
            to: mv.to,
            captured: mv.captured.clone(),
        }))
        .await?;
        self.turn = Turn::Engine;
        Ok(())
    }

    async fn go(&mut self, _ask: &Ask) -> Result<(), Fault> {
        // The opponent's MOVE (or the GAMEACC, for the first move) already asked for it.
        Ok(())
    }

    async fn next(&mut self, on_turn: bool) -> Heard {
        let m = match self.recv().await {
            Ok(m) => m,
            Err(f) => {
                if f.forfeit == Forfeit::ProtocolError {
                    // Garbage: the conversation cannot be trusted.
                    self.channel.broken = true;
                }
                return Heard::Fault(f);
            }
        };
        match m {
            Message::Move(mv) if on_turn => {
                self.turn = Turn::Referee;
                Heard::Move {
                    text: super::game::move_text(mv.from, mv.to, &mv.captured),
                    from: mv.from,
                    to: mv.to,
                    captured: mv.captured,
                    claim: None,
                }
            }
            Message::Move(mv) => Heard::Fault(Fault::new(
                Forfeit::ProtocolError,
                format!(
                    "a move ({}) while it is not its turn",
                    super::game::move_text(mv.from, mv.to, &mv.captured)
                ),
            )),
            Message::GameEnd { reason, stop } => {
                self.leaving |= stop == 1;
                match claim_of(reason) {
                    Some(claim) => {
                        // Confirmed once, when the game is ended ([`Engine::end_game`]).
                        self.turn = Turn::EngineEnded;
                        Heard::Claim(claim)
                    }
                    None => Heard::Fault(Fault::new(
                        Forfeit::ProtocolError,
                        format!("GAMEEND with reason {reason}"),
                    )),
                }
            }
            Message::Chat(_) | Message::BackAcc { .. } => Heard::Nothing,
            Message::BackReq { .. } => {
                // Taking moves back is not part of a refereed game: refused (code 1).
                match self.send(&Message::BackAcc { code: 1 }).await {
                    Ok(()) => Heard::Nothing,
                    Err(f) => Heard::Fault(f),
                }
            }
            m @ (Message::GameReq(_) | Message::GameAcc { .. }) => Heard::Fault(Fault::new(
                Forfeit::ProtocolError,
                format!("an unexpected {} during the game", message_name(&m)),
            )),
        }
    }

    async fn end_game(&mut self, ending: &Ending) {
        let turn = std::mem::replace(&mut self.turn, Turn::Idle);
        if self.channel.broken {
            return;
        }
        match turn {
            Turn::Idle => {}
            Turn::EngineEnded => {
                if self.send(&CONFIRMATION).await.is_err() {
                    self.channel.broken = true;
                }
            }
            Turn::Referee => self.initial_gameend(ending).await,
            Turn::Engine => {
                // Its turn: its message is the last word of the game.
                loop {
                    let said =
                        tokio::time::timeout_at(ending.last_word_by.into(), self.recv()).await;
                    match said {
                        Ok(Ok(Message::Move(_))) => {
                            // Not relayed: the game is over. The referee's GAMEEND answers it.
                            self.initial_gameend(ending).await;
                            break;
                        }
                        Ok(Ok(Message::GameEnd { stop, .. })) => {
                            self.leaving |= stop == 1;
                            if self.send(&CONFIRMATION).await.is_err() {
                                self.channel.broken = true;
                            }
                            break;
                        }
                        Ok(Ok(Message::BackReq { .. })) => {
                            if self.send(&Message::BackAcc { code: 1 }).await.is_err() {
                                self.channel.broken = true;
                                break;
                            }
                        }
                        Ok(Ok(_)) => {}
                        // No last word in time, or the engine gone: a GAMEEND now would be
                        // out of turn, so the engine is ended and started again.
                        Err(_) | Ok(Err(_)) => {
                            self.channel.broken = true;
                            break;
                        }
                    }
                }
            }
        }
        if self.leaving {
            self.channel.broken = true;
            self.leaving = false;
        }
    }

    async fn close(self: Box<Self>) {
        self.channel.close(None).await;
    }
}

/// The channel of a DXP engine: started and connected to, reached at its address, or
/// connecting to the referee's listener, by `deadline`.
pub(crate) async fn dxp_channel(
    spec: &EngineSpec,
    slot: usize,
    listener: Option<SharedListener>,
    deadline: Instant,
) -> Result<Channel, OpenError> {
    let (mut child, stream) = if let Some(listener) = listener {
        let port = listener.local_addr().ok().map(|a| a.port());
        let mut child = match &spec.cmd {
            Some(_) => Some(spawn(spec, port, slot, false)?),
            None => None,
        };
        let accepted = tokio::select! {
            a = tokio::time::timeout_at(deadline.into(), listener.accept()) => a,
            status = async {
                match child.as_mut() {
                    Some(c) => c.wait().await,
                    None => std::future::pending().await,
                }
            } => {
                let words = status.map(exit_words).unwrap_or_else(|e| e.to_string());
                return Err(OpenError::Fault(Fault::new(Forfeit::Crash, words)));
            }
        };
        let stream = match accepted {
            Ok(Ok((s, _))) => s,
            Ok(Err(e)) => {
                return Err(OpenError::Fault(Fault::new(
                    Forfeit::Disconnect,
                    format!("accepting its connection failed: {e}"),
                )))
            }
            Err(_) => {
                return Err(OpenError::Fault(Fault::new(
                    Forfeit::Stall,
                    "the engine did not connect in time",
                )))
            }
        };
        (child, stream)
    } else if let Some(addr) = &spec.connect {
        let mut none = None;
        let s = connect_until(addr, deadline, &mut none)
            .await
            .map_err(OpenError::Fault)?;
        (None, s)
    } else {
        let port = free_port()?;
        let mut child = Some(spawn(spec, Some(port), slot, false)?);
        let s = connect_until(&format!("127.0.0.1:{port}"), deadline, &mut child)
            .await
            .map_err(OpenError::Fault)?;
        (child.take(), s)
    };
    let _ = stream.set_nodelay(true);
    let (r, w) = stream.into_split();
    Ok(Channel::new(
        child.take(),
        Box::new(BufReader::new(r)),
        Box::new(w),
        (0, MAX_MESSAGE),
        true,
        "the connection",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_with_captures_round_trips() {
        let m = Message::Move(MoveMsg {
            seconds: 12,
            from: 28,
            to: 19,
            captured: vec![23, 14],
        });
        let bytes = m.encode().unwrap();
        // The DXP layout: time (4), from (2), to (2), count (2), captured (2 each), NUL.
        assert_eq!(bytes, b"M00122819022314\0");
        assert_eq!(Message::decode(&bytes[..bytes.len() - 1], 50).unwrap(), m);
    }

    #[test]
    fn a_gamereq_has_the_fixed_layout() {
        let r = Message::GameReq(GameReq {
            name: "Arbiter".into(),
            follower: Color::Black,
            minutes: minutes_field(300.0),
            moves: 75,
            position: None,
        });
        let bytes = r.encode().unwrap();
        let text = std::str::from_utf8(&bytes).unwrap();
        assert_eq!(text, "R01Arbiter                         Z005075A\0");
        assert_eq!(Message::decode(&bytes[..bytes.len() - 1], 50).unwrap(), r);
    }

    #[test]
    fn broken_messages_are_refused() {
        for bad in [
            &b""[..],
            b"X",
            b"M0012",
            b"M00122819012",
            b"M00a2281900",
            b"E0",
            b"A short",
            b"R01",
        ] {
            assert!(Message::decode(bad, 50).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn minutes_are_three_characters() {
        assert_eq!(minutes_field(60.0), "001");
        assert_eq!(minutes_field(7200.0), "120");
        assert_eq!(minutes_field(30.0), "0.5");
        assert_eq!(minutes_field(0.01), "0.1");
        assert_eq!(minutes_field(1e9), "999");
    }
}
