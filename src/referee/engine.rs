//! The engines of a match: how each is given on the command line, started, reached and
//! spoken to.
//!
//! An engine is a list of `key=value` words after `--engine`:
//!
//! | key | meaning |
//! |---|---|
//! | `name=` | the name in the PDN file and the summary (default: the command's program name) |
//! | `proto=` | `dxp` or `hub` (default `hub`) |
//! | `cmd=` | the command line that starts it (split as a shell splits words; `{port}` is the port of a DXP engine, `{slot}` the number of the concurrent game slot, 1 to K) |
//! | `dir=` | the working folder of the command (`{slot}` allowed; created when missing) |
//! | `connect=host:port` | DXP: an engine already listening there (one game at a time) |
//! | `listen=[host:]port` | DXP: the referee listens there and the engine connects to it (after `cmd` starts it, if given) |
//! | `tc=` | the engine's game time in seconds (default `--tc`) |
//! | `movetime=` | Hub: `level move-time=` this value instead of the clock's time left |
//! | `option.NAME=VALUE` | Hub: `set-param name=NAME value=VALUE` before `init` |
//! | `gameend-wait=` | DXP: milliseconds to wait for the engine's answer to GAMEEND (default `--gameend-wait`) |
//!
//! A DXP engine started by the referee (`cmd` with `{port}`, no `listen`) listens on a free
//! loopback port that the referee picks and connects to.

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use arbiter_rules::{Color, Position, Variant, Verdict};
use async_trait::async_trait;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::process::{Child, Command};

use super::clock::Clocks;
use super::game::{ClaimKind, Forfeit, Game};

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Dxp,
    Hub,
}

impl Protocol {
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Dxp => "dxp",
            Protocol::Hub => "hub",
        }
    }
}

/// An engine as given on the command line.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    pub name: String,
    pub protocol: Protocol,
    /// The command line, split into words.
    pub cmd: Option<Vec<String>>,
    pub dir: Option<String>,
    pub connect: Option<String>,
    pub listen: Option<String>,
    /// Game time in seconds.
    pub tc: Option<f64>,
    pub movetime: Option<String>,
    pub options: Vec<(String, String)>,
    pub gameend_wait: Option<Duration>,
}

impl EngineSpec {
    /// Reads the words of one `--engine`.
    pub fn parse(words: &[String]) -> Result<EngineSpec, String> {
        let mut spec = EngineSpec {
            name: String::new(),
            protocol: Protocol::Hub,
            cmd: None,
            dir: None,
            connect: None,
            listen: None,
            tc: None,
            movetime: None,
            options: Vec::new(),
            gameend_wait: None,
        };
        for word in words {
            let Some((key, value)) = word.split_once('=') else {
                return Err(format!("'{word}' is not key=value"));
            };
            match key {
                "name" => spec.name = value.to_string(),
                "proto" | "protocol" => {
                    spec.protocol = match value.to_ascii_lowercase().as_str() {
                        "dxp" => Protocol::Dxp,
                        "hub" => Protocol::Hub,
                        _ => return Err(format!("proto={value}: dxp or hub")),
                    }
                }
                "cmd" => {
                    let split = shlex::split(value)
                        .filter(|w| !w.is_empty())
                        .ok_or_else(|| format!("cmd={value}: unbalanced quotes or empty"))?;
                    spec.cmd = Some(split);
                }
                "dir" => spec.dir = Some(value.to_string()),
                "connect" => spec.connect = Some(value.to_string()),
                "listen" => spec.listen = Some(value.to_string()),
                "tc" => spec.tc = Some(seconds(key, value)?),
                "movetime" => spec.movetime = Some(value.to_string()),
                "gameend-wait" => {
                    let ms: u64 = value
                        .parse()
                        .map_err(|_| format!("gameend-wait={value}: milliseconds"))?;
                    spec.gameend_wait = Some(Duration::from_millis(ms));
                }
                _ => match key.strip_prefix("option.") {
                    Some(name) if !name.is_empty() => {
                        spec.options.push((name.to_string(), value.to_string()))
                    }
                    _ => return Err(format!("unknown engine key '{key}'")),
                },
            }
        }
        if spec.name.is_empty() {
            spec.name = spec
                .cmd
                .as_ref()
                .and_then(|c| c.first())
                .map(|p| {
                    std::path::Path::new(p)
                        .file_name()
                        .map_or(p.clone(), |f| f.to_string_lossy().to_string())
                })
                .or_else(|| spec.connect.clone())
                .unwrap_or_else(|| "engine".into());
        }
        match spec.protocol {
            Protocol::Hub => {
                if spec.cmd.is_none() {
                    return Err(format!("{}: a Hub engine needs cmd=", spec.name));
                }
                if spec.connect.is_some() || spec.listen.is_some() {
                    return Err(format!(
                        "{}: connect= and listen= are for DXP engines",
                        spec.name
                    ));
                }
                if spec.gameend_wait.is_some() {
                    return Err(format!("{}: gameend-wait= is for DXP engines", spec.name));
                }
            }
            Protocol::Dxp => {
                let ways = [
                    spec.connect.is_some(),
                    spec.listen.is_some(),
                    spec.cmd.is_some() && spec.listen.is_none(),
                ];
                if ways.iter().filter(|&&w| w).count() != 1 {
                    return Err(format!(
                        "{}: a DXP engine is reached one way: cmd= (with {{port}}), \
                         connect=host:port, or listen=[host:]port (with cmd= or without)",
                        spec.name
                    ));
                }
                if spec.connect.is_some() && spec.cmd.is_some() {
                    return Err(format!("{}: connect= takes no cmd=", spec.name));
                }
                if spec.listen.is_none() {
                    if let Some(cmd) = &spec.cmd {
                        if !cmd.iter().any(|w| w.contains("{port}")) {
                            return Err(format!(
                                "{}: the command of a DXP engine needs {{port}}, the port it \
                                 listens on",
                                spec.name
                            ));
                        }
                    }
                }
                if spec.movetime.is_some() || !spec.options.is_empty() {
                    return Err(format!(
                        "{}: movetime= and option.*= are for Hub engines",
                        spec.name
                    ));
                }
            }
        }
        Ok(spec)
    }
}

fn seconds(key: &str, value: &str) -> Result<f64, String> {
    match value.parse::<f64>() {
        Ok(s) if s > 0.0 && s.is_finite() && s <= 1e6 => Ok(s),
        _ => Err(format!("{key}={value}: seconds, more than 0")),
    }
}

/// A fault of an engine: the forfeit it costs and what happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub forfeit: Forfeit,
    pub detail: String,
}

impl Fault {
    pub fn new(forfeit: Forfeit, detail: impl Into<String>) -> Fault {
        Fault {
            forfeit,
            detail: detail.into(),
        }
    }
}

/// Why an engine could not be opened: a fault of the engine (the game is forfeit), or a
/// mistake of the match's settings (the match stops).
#[derive(Debug)]
pub enum OpenError {
    Fault(Fault),
    Fatal(String),
}

/// Timeouts of the conversation with engines.
#[derive(Clone, Copy, Debug)]
pub struct Timeouts {
    /// Starting an engine: connecting, the Hub handshake.
    pub startup: Duration,
    /// An answer that is not a move (GAMEACC, `pong`).
    pub response: Duration,
    /// The answer to GAMEEND.
    pub gameend: Duration,
}

/// A listener shared by the slots of a `listen=` engine.
pub type SharedListener = Arc<TcpListener>;

/// What a channel read: a message or line (without its delimiter), one over the bound, or the
/// end of the engine (the fault to charge: a crash, a disconnect).
#[derive(Debug)]
pub enum Frame {
    Bytes(Vec<u8>),
    Oversized,
    Gone(Fault),
}

/// The bytes between the referee and an engine: a TCP connection (DXP, messages ended by NUL)
/// or the standard input and output of its process (Hub, lines), and the process the referee
/// started, if any.
pub struct Channel {
    child: Option<Child>,
    reader: Box<dyn AsyncBufRead + Send + Unpin>,
    writer: Box<dyn AsyncWrite + Send + Unpin>,
    delim: u8,
    max: usize,
    /// Whether an end of the process ends the conversation even while its connection is open
    /// (DXP: a process may leave its socket to a child).
    watch_exit: bool,
    /// What closing looks like in words: "the connection", "its output".
    what: &'static str,
    /// The bytes of a message or line read so far.
    buf: Vec<u8>,
    /// Set when the conversation can no longer be trusted: the engine is ended and started
    /// again before its next game.
    pub broken: bool,
}

/// Reads from `reader` into `buf` up to `delim` (not kept), within `max` bytes. Safe to
/// cancel: what was read stays in `buf` for the next call. `Ok(None)` at the end of the input
/// with nothing pending; `Err(true)` when the message is over the bound.
async fn read_frame<R: AsyncBufRead + Unpin + ?Sized>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    delim: u8,
    max: usize,
) -> Result<Option<Vec<u8>>, bool> {
    loop {
        let available = match reader.fill_buf().await {
            Ok(b) => b,
            Err(_) => return Ok(None),
        };
        if available.is_empty() {
            return Ok(None);
        }
        if let Some(at) = available.iter().position(|&b| b == delim) {
            if buf.len() + at > max {
                reader.consume(at + 1);
                buf.clear();
                return Err(true);
            }
            buf.extend_from_slice(&available[..at]);
            reader.consume(at + 1);
            return Ok(Some(std::mem::take(buf)));
        }
        let n = available.len();
        if buf.len() + n > max {
            reader.consume(n);
            buf.clear();
            return Err(true);
        }
        buf.extend_from_slice(available);
        reader.consume(n);
    }
}

impl Channel {
    /// A channel over `reader` and `writer`, read in frames ended by `delim` of at most `max`
    /// bytes; `child` is the process the referee started, if any; `watch_exit`: whether its
    /// end ends the conversation while the connection is open; `what` names the closing.
    pub(crate) fn new(
        child: Option<Child>,
        reader: Box<dyn AsyncBufRead + Send + Unpin>,
        writer: Box<dyn AsyncWrite + Send + Unpin>,
        (delim, max): (u8, usize),
        watch_exit: bool,
        what: &'static str,
    ) -> Channel {
        Channel {
            child,
            reader,
            writer,
            delim,
            max,
            watch_exit,
            what,
            buf: Vec::new(),
            broken: false,
        }
    }

    /// The next message or line. Safe to cancel (in a `select!`).
    pub async fn recv(&mut self) -> Frame {
        let frame = if self.watch_exit {
            let child = &mut self.child;
            tokio::select! {
                f = read_frame(&mut self.reader, &mut self.buf, self.delim, self.max) => f,
                status = async {
                    match child.as_mut() {
                        Some(c) => c.wait().await,
                        None => std::future::pending().await,
                    }
                } => {
                    self.broken = true;
                    let words = status.map(exit_words).unwrap_or_else(|e| e.to_string());
                    return Frame::Gone(Fault::new(Forfeit::Crash, words));
                }
            }
        } else {
            read_frame(&mut self.reader, &mut self.buf, self.delim, self.max).await
        };
        match frame {
            Err(_) => Frame::Oversized,
            Ok(None) => Frame::Gone(self.gone().await),
            Ok(Some(bytes)) => Frame::Bytes(bytes),
        }
    }

    /// Sends bytes as they are.
    pub async fn send(&mut self, bytes: &[u8]) -> Result<(), Fault> {
        if self.writer.write_all(bytes).await.is_err() || self.writer.flush().await.is_err() {
            return Err(self.gone().await);
        }
        Ok(())
    }

    /// The fault of an engine whose input ended: a crash when its process has ended (within
    /// half a second), else a disconnect.
    async fn gone(&mut self) -> Fault {
        self.broken = true;
        if let Some(c) = self.child.as_mut() {
            if let Ok(Ok(status)) = tokio::time::timeout(Duration::from_millis(500), c.wait()).await
            {
                return Fault::new(Forfeit::Crash, exit_words(status));
            }
        }
        Fault::new(
            Forfeit::Disconnect,
            format!("the engine closed {}", self.what),
        )
    }

    /// Whether the engine's process has ended (between games: it is started again).
    pub fn exited(&mut self) -> bool {
        self.child
            .as_mut()
            .is_some_and(|c| matches!(c.try_wait(), Ok(Some(_))))
    }

    /// Ends the conversation: `last` is sent (Hub `quit`), the writing half is shut, the
    /// process is given a moment to exit, then killed.
    pub async fn close(mut self, last: Option<&[u8]>) {
        if let Some(bytes) = last {
            let _ = tokio::time::timeout(Duration::from_millis(200), self.send(bytes)).await;
        }
        let _ = tokio::time::timeout(Duration::from_millis(200), self.writer.shutdown()).await;
        if let Some(mut c) = self.child.take() {
            if tokio::time::timeout(Duration::from_millis(500), c.wait())
                .await
                .is_err()
            {
                let _ = c.kill().await;
            }
        }
    }
}

/// What an engine said, as the game reads it.
#[derive(Debug)]
pub enum Heard {
    /// A move, by its squares (`text` as the engine wrote it), with a result claimed about the
    /// position after it (Hub `claim=`).
    Move {
        from: u32,
        to: u32,
        captured: Vec<u32>,
        text: String,
        claim: Option<ClaimKind>,
    },
    /// A move that cannot be read as one: an `ILLEGAL_MOVE` (`unparsable`).
    Unreadable { text: String, reason: String },
    /// The engine ends the game with a claim (DXP GAMEEND; Hub `done` with `claim=` and no
    /// move): about the position it was given.
    Claim(ClaimKind),
    /// A breach of the protocol, or the engine gone.
    Fault(Fault),
    /// Something to pass over (`info`, a chat, a stale answer).
    Nothing,
}

/// A game as an engine is told of it when it starts.
pub struct GameStart {
    pub variant: &'static Variant,
    /// Where the game starts.
    pub start: Position,
    /// The engine's colour.
    pub side: Color,
    /// The engine's time for the game.
    pub time: Duration,
    /// DXP's number of moves (0: none).
    pub moves: u32,
    pub timeouts: Timeouts,
}

impl GameStart {
    pub fn new(game: &Game, side: Color, clocks: &Clocks, moves: u32, t: Timeouts) -> GameStart {
        GameStart {
            variant: game.variant,
            start: game.start,
            side,
            time: clocks.initial(side),
            moves,
            timeouts: t,
        }
    }
}

/// A move as the protocols write it: from, to and the captured squares, as numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveNumbers {
    pub from: u32,
    pub to: u32,
    pub captured: Vec<u32>,
}

/// A request for a move: the position as Hub hands it over (the position after the last
/// irreversible move, and the king moves since), the moves made, the time left.
pub struct Ask {
    pub variant: &'static Variant,
    pub pos: Position,
    pub since: Vec<String>,
    /// Plies played so far.
    pub ply: usize,
    /// The mover's time left.
    pub left: Duration,
    pub moves: u32,
    pub timeouts: Timeouts,
}

impl Ask {
    pub fn new(game: &Game, clocks: &Clocks, moves: u32, timeouts: Timeouts) -> Ask {
        let (pos, since) = game.hub_history();
        Ask {
            variant: game.variant,
            pos,
            since,
            ply: game.ply(),
            left: clocks.left(game.side()),
            moves,
            timeouts,
        }
    }
}

/// The end of a game as an engine is told of it.
pub struct Ending {
    pub verdict: Verdict,
    /// The engine's colour.
    pub side: Color,
    /// An engine whose turn it is may say its last word (a move, or its own end of the game)
    /// until then.
    pub last_word_by: Instant,
    /// How long to wait for an answer to the referee's end of the game (DXP GAMEEND, Hub
    /// `stop`).
    pub wait: Duration,
}

/// An engine in its protocol: what the one game loop ([`super::play`]) needs of it. Each
/// protocol is a file implementing it ([`super::dxp::DxpEngine`], [`super::hub::HubEngine`]);
/// [`open`] starts or reaches an engine in its protocol.
#[async_trait]
pub trait Engine: Send {
    fn spec(&self) -> &Arc<EngineSpec>;
    fn channel(&mut self) -> &mut Channel;
    /// Starts a game: the engine is told the position, its colour and its time, and has
    /// accepted by the response timeout (the start-up timeout for the first answer of an
    /// engine just started).
    async fn start_game(&mut self, start: &GameStart) -> Result<(), Fault>;
    /// Hands over the opponent's move, just played in `used`.
    async fn moved(&mut self, mv: &MoveNumbers, used: Duration) -> Result<(), Fault>;
    /// Asks for a move: it is the engine's turn.
    async fn go(&mut self, ask: &Ask) -> Result<(), Fault>;
    /// What the engine says next; `on_turn`: whether it is its turn. Safe to cancel.
    async fn next(&mut self, on_turn: bool) -> Heard;
    /// Ends the game as the protocol wants it, from where the engine stands in it.
    async fn end_game(&mut self, ending: &Ending);
    /// Ends the conversation and the process.
    async fn close(self: Box<Self>);
}

/// An engine the referee speaks to.
pub type Player = Box<dyn Engine>;

/// Replaces the placeholders of a command word or folder.
fn fill(text: &str, port: Option<u16>, slot: usize) -> String {
    let mut s = text.replace("{slot}", &slot.to_string());
    if let Some(p) = port {
        s = s.replace("{port}", &p.to_string());
    }
    s
}

pub(crate) fn spawn(
    spec: &EngineSpec,
    port: Option<u16>,
    slot: usize,
    piped_stdout: bool,
) -> Result<Child, OpenError> {
    let cmd = spec.cmd.as_ref().expect("a command");
    let words: Vec<String> = cmd.iter().map(|w| fill(w, port, slot)).collect();
    let mut command = Command::new(&words[0]);
    command
        .args(&words[1..])
        .stdin(Stdio::piped())
        .stdout(if piped_stdout {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stderr(Stdio::null())
        .kill_on_drop(true);
    if let Some(dir) = &spec.dir {
        let dir = PathBuf::from(fill(dir, port, slot));
        std::fs::create_dir_all(&dir).map_err(|e| {
            OpenError::Fatal(format!(
                "{}: cannot create the folder {}: {e}",
                spec.name,
                dir.display()
            ))
        })?;
        command.current_dir(dir);
    }
    command
        .spawn()
        .map_err(|e| OpenError::Fatal(format!("{}: cannot start {}: {e}", spec.name, words[0])))
}

/// A free loopback port (bound, then released for the engine to take).
pub(crate) fn free_port() -> Result<u16, OpenError> {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| OpenError::Fatal(format!("no free port: {e}")))
}

pub(crate) fn exit_words(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return format!("the engine was ended by signal {sig}");
        }
    }
    match status.code() {
        Some(c) => format!("the engine exited with status {c}"),
        None => "the engine exited".into(),
    }
}

/// Keeps trying to connect to `addr` until `deadline`, as long as `child` (if any) runs.
pub(crate) async fn connect_until(
    addr: &str,
    deadline: Instant,
    child: &mut Option<Child>,
) -> Result<TcpStream, Fault> {
    loop {
        if let Some(c) = child.as_mut() {
            if let Ok(Some(status)) = c.try_wait() {
                return Err(Fault::new(Forfeit::Crash, exit_words(status)));
            }
        }
        match TcpStream::connect(addr).await {
            Ok(s) => return Ok(s),
            Err(e) => {
                if Instant::now() >= deadline {
                    return Err(Fault::new(
                        Forfeit::Stall,
                        format!("cannot connect to {addr} in time: {e}"),
                    ));
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::BufReader;

    fn words(s: &str) -> Vec<String> {
        shlex::split(s).unwrap()
    }

    #[test]
    fn engine_words() {
        let e = EngineSpec::parse(&words(
            "name=GWD proto=hub 'cmd=/opt/gwd hub' dir=/tmp/g{slot} tc=60 option.threads=1",
        ))
        .unwrap();
        assert_eq!(e.cmd.unwrap(), ["/opt/gwd", "hub"]);
        assert_eq!(e.tc, Some(60.0));
        assert_eq!(e.options, [("threads".to_string(), "1".to_string())]);
        let d = EngineSpec::parse(&words("proto=dxp 'cmd=/opt/mobydam -p {port}'")).unwrap();
        assert_eq!(d.name, "mobydam");
        assert!(EngineSpec::parse(&words("proto=dxp cmd=/opt/mobydam")).is_err());
        assert!(EngineSpec::parse(&words("proto=dxp connect=h:1 listen=2")).is_err());
        assert!(EngineSpec::parse(&words("proto=hub connect=h:1")).is_err());
        assert!(EngineSpec::parse(&words("proto=hub")).is_err());
        assert!(EngineSpec::parse(&words("cmd=x tc=0")).is_err());
        assert!(EngineSpec::parse(&words("cmd=x colour=red")).is_err());
        assert!(EngineSpec::parse(&words("proto=dxp listen=27531")).is_ok());
    }

    #[tokio::test]
    async fn frames_are_bounded_and_resumable() {
        let data: &[u8] = b"M0001322800\0Cabc";
        let mut r = BufReader::with_capacity(4, data);
        let mut buf = Vec::new();
        assert_eq!(
            read_frame(&mut r, &mut buf, 0, 64).await,
            Ok(Some(b"M0001322800".to_vec()))
        );
        // No delimiter before the end: nothing is handed out.
        assert_eq!(read_frame(&mut r, &mut buf, 0, 64).await, Ok(None));
        let long = [b'x'; 100];
        let mut r = BufReader::new(&long[..]);
        let mut buf = Vec::new();
        assert_eq!(read_frame(&mut r, &mut buf, 0, 64).await, Err(true));
    }
}
