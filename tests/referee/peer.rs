//! Scripted engines for the referee's tests, run as processes (`<test binary> --peer ...`) or,
//! for DXP, as threads. Each plays the first legal move of its position (in the rules engine's
//! order), and misbehaves as its script says. The DXP and Hub texts are written here by hand
//! from the protocols' descriptions, apart from the referee's own code.
//!
//! Script words:
//! - `illegal=K`: at its K-th move, a move that is not legal (a step of the first legal move's
//!   piece to a square it cannot reach, or a capture with a wrong captured square);
//! - `garbage=K`, `oversized=K`: at its K-th move, a broken message, or one of 70 000 bytes;
//! - `wrongside=K`: after its K-th move, another move at once, out of turn;
//! - `slow=K:MS`: waits MS milliseconds before its K-th move;
//! - `delay=MS`: waits MS milliseconds before every move;
//! - `crash=K`: exits with status 3 at its K-th move;
//! - `disconnect=K`: at its K-th move, closes the connection (DXP) or its output (Hub), and
//!   stays alive;
//! - `claim=K:win|draw|loss`: at its K-th move, claims that result instead of moving (DXP
//!   GAMEEND; Hub `done` with `claim=`);
//! - `stall`: never accepts a game (DXP) or never finishes the handshake (Hub);
//! - `silent`: never answers GAMEEND (DXP).
//! - `strict`: a DXP follower that holds the referee to the DXP text (mesander.nl/damexchange,
//!   GAMEEND): it thinks `think` milliseconds (30 by default) at each turn, and a message that
//!   arrives while it is its turn (a GAMEEND out of turn), a GAMEEND after the game has ended
//!   (a second confirmation) or a MOVE after it are violations: it writes them to the file of
//!   `log=PATH` and exits with status 7, as GWD exits on them.
//! - `think=MS`: the strict follower's thinking time.
//!
//! Every DXP peer ends a game as the text says: on its turn without a legal move it sends
//! GAMEEND (`1`, it gives up) and waits for the one confirmation; a GAMEEND received on the
//! referee's turn it confirms once; it never answers a confirmation.

use std::io::{BufRead, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::Duration;

use arbiter_rules::{Budget, Color, Kind, Position, Setup, Variant};

#[derive(Default, Clone, Debug)]
pub struct Script {
    illegal: Option<u32>,
    garbage: Option<u32>,
    oversized: Option<u32>,
    wrongside: Option<u32>,
    slow: Option<(u32, u64)>,
    delay: u64,
    crash: Option<u32>,
    disconnect: Option<u32>,
    claim: Option<(u32, String)>,
    stall: bool,
    silent: bool,
    strict: bool,
    think: u64,
    log: Option<String>,
}

impl Script {
    pub fn parse(words: &[String]) -> Script {
        let mut s = Script {
            think: 30,
            ..Script::default()
        };
        for w in words {
            let (k, v) = w.split_once('=').unwrap_or((w, ""));
            let n = || v.split(':').next().unwrap().parse::<u32>().unwrap();
            let second = || v.split(':').nth(1).unwrap().to_string();
            match k {
                "illegal" => s.illegal = Some(n()),
                "garbage" => s.garbage = Some(n()),
                "oversized" => s.oversized = Some(n()),
                "wrongside" => s.wrongside = Some(n()),
                "slow" => s.slow = Some((n(), second().parse().unwrap())),
                "delay" => s.delay = n() as u64,
                "crash" => s.crash = Some(n()),
                "disconnect" => s.disconnect = Some(n()),
                "claim" => s.claim = Some((n(), second())),
                "stall" => s.stall = true,
                "silent" => s.silent = true,
                "strict" => s.strict = true,
                "think" => s.think = n() as u64,
                "log" => s.log = Some(v.to_string()),
                _ => {}
            }
        }
        s
    }
}

fn variant() -> &'static Variant {
    arbiter_rules::variant("international").unwrap()
}

/// What the scripted engine does at its move.
enum Act {
    Move(u32, u32, Vec<u32>),
    Garbage,
    Oversized,
    Claim(String),
    Crash,
    Disconnect,
}

/// Squares as numbers.
fn num(v: &Variant, cell: usize) -> u32 {
    u32::from(v.square_number(cell))
}

/// The first legal move of `pos`, as from, to, captured (sorted).
fn first_move(pos: &Position) -> (u32, u32, Vec<u32>) {
    let v = variant();
    let moves = v.legal_moves(pos, &Budget::unlimited()).unwrap();
    let m = moves.first().expect("a legal move");
    let mut caps: Vec<u32> = m.captured().iter().map(|c| num(v, c)).collect();
    caps.sort();
    (num(v, m.from() as usize), num(v, m.to() as usize), caps)
}

/// A move that is not legal in `pos`: the first legal move's piece sent to its start square's
/// neighbour on the far side, or a capture with a wrong captured square.
fn illegal_move(pos: &Position) -> (u32, u32, Vec<u32>) {
    let (from, to, caps) = first_move(pos);
    if caps.is_empty() {
        // Backwards for a man (or onto its own square): never legal.
        (from, from, vec![])
    } else {
        (from, to, vec![if caps[0] == 1 { 2 } else { 1 }])
    }
}

fn decide(script: &Script, k: u32, pos: &Position) -> Act {
    if script.delay > 0 {
        std::thread::sleep(Duration::from_millis(script.delay));
    }
    if script.crash == Some(k) {
        return Act::Crash;
    }
    if script.disconnect == Some(k) {
        return Act::Disconnect;
    }
    if let Some((_, ms)) = script.slow.filter(|(n, _)| *n == k) {
        std::thread::sleep(Duration::from_millis(ms));
    }
    if script.garbage == Some(k) {
        return Act::Garbage;
    }
    if script.oversized == Some(k) {
        return Act::Oversized;
    }
    if let Some((_, c)) = script.claim.clone().filter(|(n, _)| *n == k) {
        return Act::Claim(c);
    }
    let (f, t, c) = if script.illegal == Some(k) {
        illegal_move(pos)
    } else {
        first_move(pos)
    };
    Act::Move(f, t, c)
}

/// Plays the move with identity (from, to, captured) in `pos`.
fn apply(pos: &Position, from: u32, to: u32, caps: &[u32]) -> Position {
    let v = variant();
    let mut set: Vec<u32> = caps.to_vec();
    set.sort();
    let m = v
        .legal_moves(pos, &Budget::unlimited())
        .unwrap()
        .into_iter()
        .find(|m| {
            let mut c: Vec<u32> = m.captured().iter().map(|c| num(v, c)).collect();
            c.sort();
            num(v, m.from() as usize) == from && num(v, m.to() as usize) == to && c == set
        })
        .expect("the referee relays legal moves");
    v.play(pos, &m)
}

/// A position from one letter per square (side first): `W`/`B` or `W`/`Z` side letters,
/// `w`/`b`/`z` men, `W`/`B`/`Z` kings.
fn position_of(text: &str, black_man: char, black_king: char) -> Position {
    let v = variant();
    let mut chars = text.chars();
    let side = match chars.next().unwrap() {
        'W' => Color::White,
        _ => Color::Black,
    };
    let mut pieces = Vec::new();
    for (i, c) in chars.enumerate() {
        let cell = v.cell_of_number(i as u32 + 1).unwrap();
        let piece = match c {
            'w' => Some((Color::White, Kind::Man)),
            'W' => Some((Color::White, Kind::King)),
            c if c == black_man => Some((Color::Black, Kind::Man)),
            c if c == black_king => Some((Color::Black, Kind::King)),
            _ => None,
        };
        if let Some((color, kind)) = piece {
            pieces.push((cell, color, kind));
        }
    }
    v.position(&Setup {
        side: Some(side),
        pieces,
        ..Setup::default()
    })
    .unwrap()
}

fn two(n: u32) -> String {
    format!("{n:02}")
}

/// A breach of the DXP text seen by the strict follower: written to its log, and the follower
/// exits.
fn violation(script: &Script, what: &str) -> ! {
    if let Some(path) = &script.log {
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            let _ = writeln!(f, "{what}");
        }
    }
    std::process::exit(7)
}

/// Whether a message is waiting to be read.
fn pending(reader: &std::io::BufReader<TcpStream>, stream: &TcpStream) -> bool {
    if !reader.buffer().is_empty() {
        return true;
    }
    let _ = stream.set_nonblocking(true);
    let mut b = [0u8; 1];
    let there = matches!(stream.peek(&mut b), Ok(n) if n > 0);
    let _ = stream.set_nonblocking(false);
    there
}

/// Where the follower stands in a game.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// No game: between games (a GAMEEND here is a second one).
    Over,
    Playing,
    /// It sent its own GAMEEND and waits for the one confirmation.
    Confirming,
}

/// A DXP engine on `stream`, a follower: it accepts every game request.
pub fn dxp_conversation(mut stream: TcpStream, script: &Script) {
    let mut reader = std::io::BufReader::new(stream.try_clone().unwrap());
    let mut pos: Option<(Position, Color, u32)> = None;
    let mut phase = Phase::Over;
    let send = |s: &mut TcpStream, text: &str| {
        let mut b = text.as_bytes().to_vec();
        b.push(0);
        let _ = s.write_all(&b);
    };
    loop {
        let mut msg = Vec::new();
        match reader.read_until(0, &mut msg) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        if msg.last() == Some(&0) {
            msg.pop();
        }
        let text = String::from_utf8_lossy(&msg).to_string();
        match text.chars().next() {
            Some('R') => {
                if script.stall {
                    continue;
                }
                let me = if &text[35..36] == "W" {
                    Color::White
                } else {
                    Color::Black
                };
                let start = if &text[42..43] == "A" {
                    variant().start()
                } else {
                    position_of(&text[43..], 'z', 'Z')
                };
                send(&mut stream, &format!("A{:<32}0", "Scripted peer"));
                pos = Some((start, me, 0));
                phase = Phase::Playing;
            }
            Some('M') => {
                if phase != Phase::Playing {
                    if script.strict {
                        violation(script, &format!("a MOVE after the game ended: {text}"));
                    }
                    continue;
                }
                let Some((p, _, _)) = pos.as_mut() else {
                    continue;
                };
                let from: u32 = text[5..7].parse().unwrap();
                let to: u32 = text[7..9].parse().unwrap();
                let count: usize = text[9..11].parse().unwrap();
                let caps: Vec<u32> = (0..count)
                    .map(|i| text[11 + 2 * i..13 + 2 * i].parse().unwrap())
                    .collect();
                *p = apply(p, from, to, &caps);
            }
            Some('E') => {
                match phase {
                    // The one confirmation of its own GAMEEND: the game is over.
                    Phase::Confirming => {}
                    Phase::Over => {
                        if script.strict {
                            violation(script, "a second GAMEEND after the game ended");
                        }
                    }
                    Phase::Playing => {
                        let on_turn = pos.as_ref().is_some_and(|(p, me, _)| p.side() == *me);
                        if on_turn && script.strict {
                            violation(script, "a GAMEEND out of turn (it was my turn)");
                        }
                        if !script.silent {
                            send(&mut stream, "E00");
                        }
                    }
                }
                phase = Phase::Over;
                pos = None;
                continue;
            }
            _ => continue,
        }
        // Its turn, with a move to make?
        let Some((p, me, n)) = pos.as_mut() else {
            continue;
        };
        if p.side() != *me {
            continue;
        }
        if script.strict {
            // It thinks; nothing may come from the referee meanwhile.
            std::thread::sleep(Duration::from_millis(script.think));
            if pending(&reader, &stream) {
                let mut next = Vec::new();
                let _ = reader.read_until(0, &mut next);
                let what = String::from_utf8_lossy(&next)
                    .trim_end_matches('\0')
                    .to_string();
                if what.starts_with('E') {
                    violation(
                        script,
                        &format!("a GAMEEND out of turn (it was my turn): {what}"),
                    );
                }
                violation(script, &format!("a message during my turn: {what}"));
            }
        }
        let moves = variant().legal_moves(p, &Budget::unlimited()).unwrap();
        if moves.is_empty() {
            // No legal move: it gives up, and waits for the confirmation.
            send(&mut stream, "E10");
            phase = Phase::Confirming;
            pos = None;
            continue;
        }
        *n += 1;
        match decide(script, *n, p) {
            Act::Move(f, t, c) => {
                let mut m = format!("M0001{}{}{}", two(f), two(t), two(c.len() as u32));
                for x in &c {
                    m.push_str(&two(*x));
                }
                if script.wrongside == Some(*n) {
                    // The move and the same move again out of turn, in one write: the second
                    // is there as soon as the first, whatever the scheduling.
                    let _ = stream.write_all(format!("{m}\0{m}\0").as_bytes());
                } else {
                    send(&mut stream, &m);
                }
                if script.illegal != Some(*n) {
                    *p = apply(p, f, t, &c);
                }
            }
            Act::Garbage => send(&mut stream, "M00zz"),
            Act::Oversized => {
                let _ = stream.write_all(&vec![b'C'; 70_000]);
            }
            Act::Claim(c) => {
                let reason = match c.as_str() {
                    "loss" => '1',
                    "draw" => '2',
                    _ => '3',
                };
                send(&mut stream, &format!("E{reason}0"));
                phase = Phase::Confirming;
                pos = None;
            }
            Act::Crash => std::process::exit(3),
            Act::Disconnect => {
                let _ = stream.shutdown(std::net::Shutdown::Both);
                std::thread::sleep(Duration::from_secs(30));
                return;
            }
        }
    }
}

/// A DXP engine process: listens on `--port P` (one connection after the other), or connects
/// to `--connect ADDR`.
pub fn dxp_process(args: &[String]) {
    let script = Script::parse(args);
    let value = |key: &str| {
        args.iter()
            .position(|a| a == key)
            .map(|i| args[i + 1].clone())
    };
    if let Some(addr) = value("--connect") {
        let stream = TcpStream::connect(addr).expect("connect to the referee");
        dxp_conversation(stream, &script);
        return;
    }
    let port = value("--port").expect("--port");
    let listener = TcpListener::bind(format!("127.0.0.1:{port}")).expect("listen");
    for stream in listener.incoming() {
        match stream {
            Ok(s) => dxp_conversation(s, &script),
            Err(_) => return,
        }
    }
}

/// A Hub engine on standard input and output.
pub fn hub_process(args: &[String]) {
    let script = Script::parse(args);
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut pos = variant().start();
    let mut n = 0u32;
    let mut lines = stdin.lock().lines();
    while let Some(Ok(line)) = lines.next() {
        let mut words = line.split_whitespace();
        let command = words.next().unwrap_or("");
        let reply = |out: &mut std::io::Stdout, s: &str| {
            let _ = writeln!(out, "{s}");
            let _ = out.flush();
        };
        match command {
            "hub" => {
                reply(&mut out, "id name=peer version=1");
                reply(
                    &mut out,
                    "param name=variant value=normal type=enum values=\"normal killer\"",
                );
                reply(&mut out, "wait");
            }
            "init" if !script.stall => reply(&mut out, "ready"),
            "ping" => reply(&mut out, "pong"),
            "new-game" => n = 0,
            "pos" => {
                let text = line.split("pos=").nth(1).unwrap();
                let board: String = text.chars().take(51).collect();
                pos = position_of(&board, 'b', 'B');
                if let Some(moves) = line.split("moves=\"").nth(1) {
                    for m in moves.trim_end_matches('"').split_whitespace() {
                        let (f, t, c) = hub_move(m);
                        pos = apply(&pos, f, t, &c);
                    }
                }
            }
            "go" => {
                n += 1;
                reply(&mut out, "info depth=1 score=0.00");
                match decide(&script, n, &pos) {
                    Act::Move(f, t, c) => {
                        let text = hub_text(f, t, &c);
                        reply(&mut out, &format!("done move={text}"));
                        if script.wrongside == Some(n) {
                            reply(&mut out, &format!("done move={text}"));
                        }
                    }
                    Act::Garbage => reply(&mut out, "done move=garbage"),
                    Act::Oversized => reply(&mut out, &"x".repeat(70_000)),
                    Act::Claim(c) => reply(&mut out, &format!("done claim={c}")),
                    Act::Crash => std::process::exit(3),
                    Act::Disconnect => {
                        // Close standard output and stay alive.
                        close_stdout();
                        let mut rest = Vec::new();
                        let _ = std::io::stdin().read_to_end(&mut rest);
                        std::thread::sleep(Duration::from_secs(30));
                        return;
                    }
                }
            }
            "quit" => return,
            _ => {}
        }
    }
}

#[cfg(unix)]
fn close_stdout() {
    // SAFETY: closes this process's standard output, which nothing uses afterwards.
    unsafe {
        libc_close(1);
    }
}

#[cfg(unix)]
extern "C" {
    #[link_name = "close"]
    fn libc_close(fd: i32) -> i32;
}

fn hub_text(f: u32, t: u32, c: &[u32]) -> String {
    if c.is_empty() {
        format!("{f}-{t}")
    } else {
        let mut s = format!("{f}x{t}");
        for x in c {
            s.push_str(&format!("x{x}"));
        }
        s
    }
}

fn hub_move(text: &str) -> (u32, u32, Vec<u32>) {
    if let Some((f, t)) = text.split_once('-') {
        return (f.parse().unwrap(), t.parse().unwrap(), vec![]);
    }
    let parts: Vec<u32> = text.split('x').map(|p| p.parse().unwrap()).collect();
    (parts[0], parts[1], parts[2..].to_vec())
}
