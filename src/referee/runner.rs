//! The match: the schedule of games (each opening twice, colours swapped, round after
//! round), K slots playing at once, each with its own engine processes, and the collector that
//! writes the PDN file in game order, the live statistics and the summary.

use std::collections::{BTreeMap, VecDeque};
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use arbiter_rules::{Color, Variant, Verdict};
use serde::Serialize;
use serde_json::json;
use tokio::sync::mpsc;

use super::clock::{clock_text, Clocks};
use super::dxp::{self, GameReq, Message, MoveMsg};
use super::engine::{
    EngineSpec, Fault, OpenError, Player, Protocol, Said, SharedListener, Timeouts,
};
use super::game::{Adjudicating, ClaimKind, ClaimRecord, Forfeit, Game, GameEnd};
use super::hub;
use super::openings::Opening;
use super::pdn;
use super::stats::{Report, Tally};
use crate::tables::TableStore;

/// Everything a match needs, read and checked from the command line.
pub struct Settings {
    pub variant: &'static Variant,
    pub openings: Vec<Opening>,
    /// The two engines; the first is the one the statistics speak for.
    pub engines: [Arc<EngineSpec>; 2],
    pub rounds: usize,
    /// At most this many games (`None`: every game of the rounds).
    pub games: Option<usize>,
    pub concurrency: usize,
    /// Default game time, seconds.
    pub tc: f64,
    /// DXP's number of moves (0: none); the game ends at that move.
    pub moves: u32,
    pub margin: Duration,
    pub adjudicating: Adjudicating,
    pub timeouts: Timeouts,
    pub pdn: std::path::PathBuf,
    pub json: bool,
    pub progress: bool,
    pub event: String,
    pub tables: Arc<TableStore>,
    /// The listeners of `listen=` engines.
    pub listeners: [Option<SharedListener>; 2],
    /// The Hub `variant` parameter value of the variant, if Hub has one.
    pub hub_variant: Option<&'static str>,
}

/// One game of the schedule.
#[derive(Clone, Copy, Debug)]
struct Scheduled {
    number: usize,
    round: usize,
    /// Index into the openings.
    opening: usize,
    /// The engine (0 or 1) that plays White.
    white: usize,
}

/// A played game, as the collector gets it.
struct Played {
    s: Scheduled,
    end: GameEnd,
    result: &'static str,
    plies: usize,
    seconds: f64,
    clocks: [Duration; 2],
    pdn: String,
}

fn idx(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The schedule: round after round, each opening twice, the first engine White first.
fn schedule(settings: &Settings) -> Vec<Scheduled> {
    let mut out = Vec::new();
    let per_round = settings.openings.len() * 2;
    let rounds = match settings.games {
        Some(n) => settings.rounds.max(n.div_ceil(per_round)),
        None => settings.rounds,
    };
    'rounds: for round in 1..=rounds {
        for opening in 0..settings.openings.len() {
            for white in [0, 1] {
                if settings.games.is_some_and(|n| out.len() >= n) {
                    break 'rounds;
                }
                out.push(Scheduled {
                    number: out.len() + 1,
                    round,
                    opening,
                    white,
                });
            }
        }
    }
    out
}

/// The match's figures as the summary gives them.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub games: usize,
    /// Games without a result (`*`).
    pub unfinished: usize,
    pub engines: Vec<EngineSummary>,
    pub openings: Vec<OpeningSummary>,
    /// How many games ended for each reason.
    pub reasons: BTreeMap<String, usize>,
    pub plies: usize,
    pub seconds: f64,
    pub pdn: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct EngineSummary {
    pub name: String,
    #[serde(flatten)]
    pub report: Report,
    /// Games won and lost with White, then with Black: `[[w, d, l], [w, d, l]]`.
    pub by_colour: [[u32; 3]; 2],
    /// Games this engine forfeited, by reason.
    pub forfeits: BTreeMap<String, usize>,
    /// Claims rejected as false.
    pub false_claims: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct OpeningSummary {
    pub number: usize,
    pub source: String,
    /// The first engine's figures with this opening.
    #[serde(flatten)]
    pub report: Report,
}

/// Runs the match; returns its summary, or why it stopped.
pub async fn run(settings: Settings) -> Result<Summary, String> {
    let settings = Arc::new(settings);
    let games = schedule(&settings);
    let total = games.len();
    let queue = Arc::new(Mutex::new(games.into_iter().collect::<VecDeque<_>>()));
    let (tx, mut rx) = mpsc::channel::<Played>(64);
    let started = Instant::now();
    let mut out = std::fs::File::create(&settings.pdn)
        .map(std::io::BufWriter::new)
        .map_err(|e| format!("cannot write {}: {e}", settings.pdn.display()))?;
    let slots = settings.concurrency.min(total.max(1));
    let mut workers = tokio::task::JoinSet::new();
    for slot in 1..=slots {
        let (settings, queue, tx) = (settings.clone(), queue.clone(), tx.clone());
        workers.spawn(async move { worker(slot, settings, queue, tx).await });
    }
    drop(tx);
    let names = [
        settings.engines[0].name.clone(),
        settings.engines[1].name.clone(),
    ];
    if settings.json {
        emit(&json!({
            "event": "start",
            "variant": settings.variant.id(),
            "games": total,
            "openings": settings.openings.len(),
            "concurrency": slots,
            "engines": [
                {"name": names[0], "protocol": settings.engines[0].protocol.name()},
                {"name": names[1], "protocol": settings.engines[1].protocol.name()},
            ],
            "pdn": settings.pdn.display().to_string(),
        }));
    }
    let bar = if settings.progress {
        indicatif::ProgressBar::new(total as u64).with_style(
            indicatif::ProgressStyle::with_template("{pos}/{len} {wide_msg} {elapsed}")
                .expect("a valid template"),
        )
    } else {
        indicatif::ProgressBar::hidden()
    };
    let mut tally = Tally::default();
    let mut colour = [[[0u32; 3]; 2]; 2];
    let mut per_opening = vec![Tally::default(); settings.openings.len()];
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    let mut forfeits: [BTreeMap<String, usize>; 2] = Default::default();
    let mut false_claims = [0usize; 2];
    let (mut plies, mut unfinished, mut done) = (0usize, 0usize, 0usize);
    // Games finish out of order; the file gets them in order.
    let mut pending: BTreeMap<usize, String> = BTreeMap::new();
    let mut next_to_write = 1;
    let mut failure: Option<String> = None;
    while let Some(p) = rx.recv().await {
        done += 1;
        plies += p.plies;
        *reasons.entry(p.end.code.to_string()).or_default() += 1;
        let white = p.s.white;
        let black = 1 - white;
        // The first engine's result.
        let first_colour = if white == 0 {
            Color::White
        } else {
            Color::Black
        };
        let r = match p.end.verdict {
            Verdict::Draw => Some(1),
            v if v == Verdict::win_for(first_colour) => Some(0),
            Verdict::WhiteWins | Verdict::BlackWins => Some(2),
            _ => None,
        };
        match r {
            Some(0) => {
                tally.wins += 1;
                per_opening[p.s.opening].wins += 1;
            }
            Some(1) => {
                tally.draws += 1;
                per_opening[p.s.opening].draws += 1;
            }
            Some(_) => {
                tally.losses += 1;
                per_opening[p.s.opening].losses += 1;
            }
            None => unfinished += 1,
        }
        if let Some(r) = r {
            colour[0][idx(first_colour)][r] += 1;
            colour[1][idx(first_colour.opponent())][2 - r] += 1;
        }
        if let Some((side, f)) = p.end.forfeit {
            let engine = if side == Color::White { white } else { black };
            *forfeits[engine].entry(f.code().to_string()).or_default() += 1;
        }
        if let Some(c) = &p.end.claim {
            if c.status == "false" {
                let engine = if c.by == "white" { white } else { black };
                false_claims[engine] += 1;
            }
        }
        pending.insert(p.s.number, p.pdn.clone());
        while let Some(text) = pending.remove(&next_to_write) {
            if next_to_write > 1 {
                let _ = writeln!(out);
            }
            if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                failure.get_or_insert(format!("cannot write {}: {e}", settings.pdn.display()));
            }
            next_to_write += 1;
        }
        let standing = tally.report();
        let opening = &settings.openings[p.s.opening];
        if settings.json {
            emit(&json!({
                "event": "game",
                "game": p.s.number,
                "round": p.s.round,
                "opening": opening.number,
                "opening_source": opening.source,
                "white": names[white],
                "black": names[black],
                "result": p.result,
                "verdict": verdict_code(p.end.verdict),
                "reason": p.end.code,
                "detail": p.end.detail,
                "violation": p.end.violation,
                "claim": p.end.claim,
                "plies": p.plies,
                "seconds": p.seconds,
                "clock": {
                    "white": clock_text(p.clocks[0]),
                    "black": clock_text(p.clocks[1]),
                },
                "played": done,
                "of": total,
                "standing": { "engine": names[0], "report": standing },
            }));
        } else {
            bar.set_position(done as u64);
            bar.set_message(format!("{}: {}", names[0], standing.line()));
            if !settings.progress {
                // No terminal: one line per game on standard error.
                eprintln!(
                    "game {}/{}: {} - {} {} ({}, {} plies); {}: {}",
                    p.s.number,
                    total,
                    names[white],
                    names[black],
                    p.result,
                    p.end.code,
                    p.plies,
                    names[0],
                    standing.line()
                );
            }
        }
    }
    bar.finish_and_clear();
    while let Some(joined) = workers.join_next().await {
        match joined {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                failure.get_or_insert(e);
            }
            Err(e) => {
                failure.get_or_insert(format!("a game slot failed: {e}"));
            }
        }
    }
    if let Some(e) = failure {
        return Err(e);
    }
    let engines = (0..2)
        .map(|i| EngineSummary {
            name: names[i].clone(),
            report: if i == 0 { tally } else { tally.mirrored() }.report(),
            by_colour: colour[i],
            forfeits: forfeits[i].clone(),
            false_claims: false_claims[i],
        })
        .collect();
    let openings = settings
        .openings
        .iter()
        .zip(&per_opening)
        .filter(|(_, t)| t.games() > 0)
        .map(|(o, t)| OpeningSummary {
            number: o.number,
            source: o.source.clone(),
            report: t.report(),
        })
        .collect();
    Ok(Summary {
        games: done,
        unfinished,
        engines,
        openings,
        reasons,
        plies,
        seconds: started.elapsed().as_secs_f64(),
        pdn: settings.pdn.display().to_string(),
    })
}

fn verdict_code(v: Verdict) -> &'static str {
    match v {
        Verdict::WhiteWins => "white_wins",
        Verdict::BlackWins => "black_wins",
        Verdict::Draw => "draw",
        _ => "unknown",
    }
}

/// Prints a JSON line on standard output; a closed pipe ends the program quietly.
pub fn emit(value: &serde_json::Value) {
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{value}").and_then(|()| out.flush()).is_err() {
        std::process::exit(0);
    }
}

/// A game slot: takes games from the queue and plays them with its own engines, opening
/// (and after a fault reopening) them as needed.
async fn worker(
    slot: usize,
    settings: Arc<Settings>,
    queue: Arc<Mutex<VecDeque<Scheduled>>>,
    tx: mpsc::Sender<Played>,
) -> Result<(), String> {
    let mut players: [Option<Player>; 2] = [None, None];
    let squares = settings.variant.board().len();
    loop {
        let next = queue.lock().unwrap_or_else(|p| p.into_inner()).pop_front();
        let Some(s) = next else { break };
        let started = Instant::now();
        let opening = &settings.openings[s.opening];
        let mut game = Game::new(settings.variant, opening.position)?;
        let time = |engine: usize| {
            Duration::from_secs_f64(settings.engines[engine].tc.unwrap_or(settings.tc))
        };
        let mut clocks = Clocks::new(time(s.white), time(1 - s.white), settings.margin);
        // An engine whose process ended since its last game is started again.
        for p in players.iter_mut() {
            if p.as_mut().is_some_and(|p| p.exited()) {
                if let Some(p) = p.take() {
                    p.close().await;
                }
            }
        }
        // Open what is not open; a fault there forfeits the game.
        let mut faults: [Option<Fault>; 2] = [None, None];
        for e in 0..2 {
            if players[e].is_none() {
                match Player::open(
                    settings.engines[e].clone(),
                    slot,
                    settings.listeners[e].clone(),
                    squares,
                    settings.hub_variant,
                    settings.timeouts,
                )
                .await
                {
                    Ok(p) => players[e] = Some(p),
                    Err(OpenError::Fault(f)) => faults[e] = Some(f),
                    Err(OpenError::Fatal(e)) => {
                        close_all(&mut players).await;
                        return Err(e);
                    }
                }
            }
        }
        let colour_of = |engine: usize| {
            if engine == s.white {
                Color::White
            } else {
                Color::Black
            }
        };
        let end = if let Some((e, f)) = faults
            .iter()
            .enumerate()
            .find_map(|(e, f)| f.clone().map(|f| (e, f)))
        {
            game.forfeit(
                colour_of(e),
                f.forfeit,
                format!("the engine could not be started: {}", f.detail),
            )
        } else {
            let [a, b] = &mut players;
            let (a, b) = (a.as_mut().expect("open"), b.as_mut().expect("open"));
            let (w, bl) = if s.white == 0 { (a, b) } else { (b, a) };
            let end = match settings.engines[0].protocol {
                _ if w.spec.protocol != bl.spec.protocol => {
                    return Err("the two engines speak different protocols".into())
                }
                Protocol::Dxp => play_dxp(&settings, [w, bl], &mut game, &mut clocks).await,
                Protocol::Hub => play_hub(&settings, [w, bl], &mut game, &mut clocks).await,
            }?;
            if let Some((side, f)) = end.forfeit {
                if !f.keeps_connection() {
                    let e = if side == Color::White {
                        s.white
                    } else {
                        1 - s.white
                    };
                    if let Some(p) = players[e].as_mut() {
                        p.broken = true;
                    }
                }
            }
            end
        };
        for p in players.iter_mut() {
            if p.as_ref().is_some_and(|p| p.broken) {
                if let Some(p) = p.take() {
                    p.close().await;
                }
            }
        }
        let names = [&settings.engines[0].name, &settings.engines[1].name];
        let tags = pdn::Tags {
            event: &settings.event,
            round: s.round,
            number: s.number,
            white: names[s.white],
            black: names[1 - s.white],
            opening: &opening.source,
            time: [time(s.white).as_secs_f64(), time(1 - s.white).as_secs_f64()],
            moves: settings.moves,
        };
        let played = Played {
            s,
            result: pdn::result(&game, &end),
            plies: game.ply(),
            seconds: started.elapsed().as_secs_f64(),
            clocks: [clocks.left(Color::White), clocks.left(Color::Black)],
            pdn: pdn::game_text(&tags, &game, &end, &clocks),
            end,
        };
        if tx.send(played).await.is_err() {
            break;
        }
    }
    close_all(&mut players).await;
    Ok(())
}

async fn close_all(players: &mut [Option<Player>; 2]) {
    for p in players.iter_mut() {
        if let Some(p) = p.take() {
            p.close().await;
        }
    }
}

/// The game's end by the rules, the tables or the move limit, before the side to move plays.
/// Probing the tables may build one: the worker thread is handed over meanwhile.
fn check_end(settings: &Settings, game: &mut Game) -> Result<Option<GameEnd>, String> {
    let mut adjudicating = settings.adjudicating;
    if settings.moves > 0 {
        let limit = 2 * settings.moves as usize;
        adjudicating.max_plies = Some(adjudicating.max_plies.map_or(limit, |n| n.min(limit)));
    }
    if adjudicating.tables || adjudicating.max_plies.is_some() {
        tokio::task::block_in_place(|| game.check_end(adjudicating, &settings.tables))
    } else {
        game.check_end(adjudicating, &settings.tables)
    }
}

fn resolve_claim(settings: &Settings, game: &Game, by: Color, claim: ClaimKind) -> GameEnd {
    tokio::task::block_in_place(|| {
        game.resolve_claim(by, claim, settings.adjudicating, Some(&settings.tables))
    })
}

/// Records a claim made together with a move whose position the rules or the adjudication
/// ended: their result stands; the claim agrees with it or not.
fn note_claim(end: &mut GameEnd, by: Color, claim: ClaimKind, ply: usize) {
    let agrees = claim.verdict(by) == Some(end.verdict);
    end.claim = Some(ClaimRecord {
        by: by.name(),
        claim,
        ply,
        status: if agrees { "confirmed" } else { "false" },
        detail: format!("the game ended by {}", end.code),
    });
}

/// The claim of a DXP GAMEEND's reason, from the sender's side.
fn dxp_claim(reason: u8) -> Option<ClaimKind> {
    match reason {
        0 => Some(ClaimKind::Unknown),
        1 => Some(ClaimKind::Loss),
        2 => Some(ClaimKind::Draw),
        3 => Some(ClaimKind::Win),
        _ => None,
    }
}

/// The GAMEEND the referee sends `side`: the referee stands for its opponent, so `1` (the
/// sender loses) when `side` won.
fn gameend_for(side: Color, verdict: Verdict) -> Message {
    let reason = match verdict {
        Verdict::Draw => 2,
        v if v == Verdict::win_for(side) => 1,
        Verdict::WhiteWins | Verdict::BlackWins => 3,
        _ => 0,
    };
    Message::GameEnd { reason, stop: 0 }
}

fn message_name(m: &Message) -> &'static str {
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

/// Waits for the GAMEACC of an engine sent a GAMEREQ. Stale messages of the previous game
/// (a MOVE, a GAMEEND, a CHAT) are passed over.
async fn await_gameacc(p: &mut Player, deadline: Instant) -> Result<(), Fault> {
    loop {
        match tokio::time::timeout_at(deadline.into(), p.recv()).await {
            Err(_) => return Err(Fault::new(Forfeit::Stall, "no GAMEACC in time")),
            Ok(Said::Dxp(Message::GameAcc { code: 0, .. })) => return Ok(()),
            Ok(Said::Dxp(Message::GameAcc { code, .. })) => {
                return Err(Fault::new(
                    Forfeit::Refused,
                    format!("GAMEACC with code {code}: the game is refused"),
                ))
            }
            Ok(Said::Dxp(
                Message::Move(_)
                | Message::GameEnd { .. }
                | Message::Chat(_)
                | Message::BackAcc { .. },
            )) => {}
            Ok(Said::Dxp(m)) => {
                return Err(Fault::new(
                    Forfeit::ProtocolError,
                    format!("a {} instead of GAMEACC", message_name(&m)),
                ))
            }
            Ok(Said::Garbage(why)) => return Err(Fault::new(Forfeit::ProtocolError, why)),
            Ok(Said::Oversized) => {
                return Err(Fault::new(
                    Forfeit::ProtocolError,
                    format!("a message longer than {} bytes", dxp::MAX_MESSAGE),
                ))
            }
            Ok(Said::Gone(f)) => return Err(f),
            Ok(Said::Hub(_)) => {}
        }
    }
}

/// Waits up to `wait` for an engine's GAMEEND after the referee's (other messages are passed
/// over). An engine that closes the connection is restarted before the next game.
async fn await_gameend(p: &mut Player, wait: Duration) {
    let deadline = Instant::now() + wait;
    loop {
        match tokio::time::timeout_at(deadline.into(), p.recv()).await {
            Err(_) | Ok(Said::Dxp(Message::GameEnd { .. })) => return,
            Ok(Said::Gone(_)) | Ok(Said::Oversized) => {
                p.broken = true;
                return;
            }
            Ok(_) => {}
        }
    }
}

/// Sends GAMEEND to an engine still connected and waits for its answer.
async fn goodbye(p: &mut Player, m: Message, default_wait: Duration) {
    if p.broken {
        return;
    }
    let wait = p.spec.gameend_wait.unwrap_or(default_wait);
    if p.send(&m).await.is_err() {
        p.broken = true;
        return;
    }
    await_gameend(p, wait).await;
}

/// Splits the two players into the one of `side` and the other.
fn pair<'a>(players: &'a mut [&mut Player; 2], side: Color) -> (&'a mut Player, &'a mut Player) {
    let [w, b] = players;
    match side {
        Color::White => (&mut **w, &mut **b),
        Color::Black => (&mut **b, &mut **w),
    }
}

/// A DXP game: GAMEREQ to both engines (the referee is the initiator towards both), each
/// move checked and relayed to the other, GAMEEND to both at the end.
async fn play_dxp(
    settings: &Settings,
    mut players: [&mut Player; 2],
    game: &mut Game,
    clocks: &mut Clocks,
) -> Result<GameEnd, String> {
    let end = dxp_moves(settings, &mut players, game, clocks).await?;
    // GAMEEND to both, and their answers, at once.
    let [w, b] = &mut players;
    let ends = [
        gameend_for(Color::White, end.verdict),
        gameend_for(Color::Black, end.verdict),
    ];
    let [ew, eb] = ends;
    let wait = settings.timeouts.gameend;
    tokio::join!(goodbye(w, ew, wait), goodbye(b, eb, wait));
    Ok(end)
}

async fn dxp_moves(
    settings: &Settings,
    players: &mut [&mut Player; 2],
    game: &mut Game,
    clocks: &mut Clocks,
) -> Result<GameEnd, String> {
    let v = settings.variant;
    let position = (game.start != v.start()).then(|| dxp::position_letters(v, &game.start));
    for side in Color::BOTH {
        let req = Message::GameReq(GameReq {
            name: "Arbiter".into(),
            follower: side,
            minutes: dxp::minutes_field(clocks.initial(side).as_secs_f64()),
            moves: settings.moves,
            position: position.clone(),
        });
        let (p, _) = pair(players, side);
        if let Err(f) = p.send(&req).await {
            return Ok(game.forfeit(side, f.forfeit, f.detail));
        }
    }
    let deadline = Instant::now() + settings.timeouts.response;
    for side in Color::BOTH {
        let (p, _) = pair(players, side);
        if let Err(f) = await_gameacc(p, deadline).await {
            return Ok(game.forfeit(side, f.forfeit, f.detail));
        }
    }
    loop {
        if let Some(end) = check_end(settings, game)? {
            return Ok(end);
        }
        let mover = game.side();
        let other = mover.opponent();
        clocks.start(mover);
        let deadline = clocks.deadline().expect("a running clock");
        loop {
            let (m, o) = pair(players, mover);
            // The other side first: a message out of turn already there is seen before the
            // mover's answer.
            let (side, said) = tokio::select! {
                biased;
                s = o.recv() => (other, s),
                s = m.recv() => (mover, s),
                _ = tokio::time::sleep_until(deadline.into()) => {
                    clocks.flag(Instant::now());
                    return Ok(game.forfeit(mover, Forfeit::TimeForfeit, format!(
                        "no move within its time ({}) and the margin",
                        clock_text(clocks.initial(mover))
                    )));
                }
            };
            let message = match said {
                Said::Dxp(message) => message,
                Said::Hub(_) => continue,
                Said::Garbage(why) => {
                    return Ok(game.forfeit(side, Forfeit::ProtocolError, why));
                }
                Said::Oversized => {
                    return Ok(game.forfeit(
                        side,
                        Forfeit::ProtocolError,
                        format!("a message longer than {} bytes", dxp::MAX_MESSAGE),
                    ));
                }
                Said::Gone(f) => return Ok(game.forfeit(side, f.forfeit, f.detail)),
            };
            match message {
                Message::Move(mv) if side == mover => {
                    let Some(used) = clocks.stop() else {
                        return Ok(game.forfeit(
                            mover,
                            Forfeit::TimeForfeit,
                            "its move came after its time and the margin".into(),
                        ));
                    };
                    let text = hub::move_text(mv.from, mv.to, &mv.captured);
                    let d = match game.find_move(mv.from, mv.to, &mv.captured) {
                        Ok(d) => d,
                        Err(e) => return Ok(game.illegal_move(mover, &text, e)),
                    };
                    let (from, to, captured) = game.numbers(&d);
                    game.play(d)?;
                    let relay = Message::Move(MoveMsg {
                        seconds: used.as_secs_f64().round() as u32,
                        from,
                        to,
                        captured,
                    });
                    let (_, o) = pair(players, mover);
                    if let Err(f) = o.send(&relay).await {
                        return Ok(game.forfeit(other, f.forfeit, f.detail));
                    }
                    break;
                }
                Message::Move(mv) => {
                    return Ok(game.forfeit(
                        side,
                        Forfeit::ProtocolError,
                        format!(
                            "a move ({}) while it is not its turn",
                            hub::move_text(mv.from, mv.to, &mv.captured)
                        ),
                    ));
                }
                Message::GameEnd { reason, .. } => {
                    let Some(claim) = dxp_claim(reason) else {
                        return Ok(game.forfeit(
                            side,
                            Forfeit::ProtocolError,
                            format!("GAMEEND with reason {reason}"),
                        ));
                    };
                    if side == mover {
                        clocks.stop();
                    }
                    return Ok(resolve_claim(settings, game, side, claim));
                }
                Message::Chat(_) | Message::BackAcc { .. } => {}
                Message::BackReq { .. } => {
                    // Taking moves back is not part of a refereed game: refused (code 1).
                    let (p, _) = pair(players, side);
                    if let Err(f) = p.send(&Message::BackAcc { code: 1 }).await {
                        return Ok(game.forfeit(side, f.forfeit, f.detail));
                    }
                }
                m @ (Message::GameReq(_) | Message::GameAcc { .. }) => {
                    return Ok(game.forfeit(
                        side,
                        Forfeit::ProtocolError,
                        format!("an unexpected {} during the game", message_name(&m)),
                    ));
                }
            }
        }
    }
}

/// Hub: `ping`, and every line up to the `pong`: a `done` among them is a move sent out of
/// turn (a forfeit), and nothing of an earlier search is left pending.
async fn sync(p: &mut Player, response: Duration) -> Result<(), Fault> {
    p.send_line("ping").await?;
    let deadline = Instant::now() + response;
    loop {
        match tokio::time::timeout_at(deadline.into(), p.recv()).await {
            Err(_) => return Err(Fault::new(Forfeit::Stall, "no 'pong' in time")),
            Ok(Said::Hub(line)) if line.command == "pong" => return Ok(()),
            Ok(Said::Hub(line)) if line.command == "done" => {
                return Err(Fault::new(
                    Forfeit::ProtocolError,
                    format!(
                        "'done' with a move ({}) while it is not its turn",
                        line.arg("move").unwrap_or("none")
                    ),
                ));
            }
            Ok(Said::Oversized) => {
                return Err(Fault::new(
                    Forfeit::ProtocolError,
                    format!("a line longer than {} bytes", hub::MAX_LINE),
                ));
            }
            Ok(Said::Gone(f)) => return Err(f),
            Ok(_) => {}
        }
    }
}

/// The `level` line of a Hub search: the engine's `movetime=` if set, else its time left
/// (and the moves left to DXP's number of moves, never 0).
fn level_line(settings: &Settings, p: &Player, game: &Game, clocks: &Clocks) -> String {
    if let Some(t) = &p.spec.movetime {
        return format!("level move-time={}", hub::quote(t));
    }
    let mover = game.side();
    let left = clocks.left(mover).as_secs_f64();
    // It is the mover's turn: it has made half the plies, rounded down.
    let made = (game.ply() / 2) as u32;
    if settings.moves > made {
        format!("level moves={} time={left:.3}", settings.moves - made)
    } else {
        format!("level time={left:.3}")
    }
}

/// A Hub game: each move asked for with `pos`, `level` and `go think`, checked when `done`
/// brings it.
async fn play_hub(
    settings: &Settings,
    mut players: [&mut Player; 2],
    game: &mut Game,
    clocks: &mut Clocks,
) -> Result<GameEnd, String> {
    let v = settings.variant;
    for side in Color::BOTH {
        let (p, _) = pair(&mut players, side);
        let deadline = Instant::now() + settings.timeouts.response;
        // `ping` after `new-game`: the `pong` shows that nothing of the last game is pending.
        let ready = async {
            p.send_line("new-game").await?;
            p.send_line("ping").await?;
            p.wait_for("pong", deadline, false).await
        };
        if let Err(f) = ready.await {
            return Ok(game.forfeit(side, f.forfeit, f.detail));
        }
    }
    loop {
        if let Some(end) = check_end(settings, game)? {
            return Ok(end);
        }
        let mover = game.side();
        let other = mover.opponent();
        let (pos, moves) = game.hub_history();
        let mut pos_line = format!("pos pos={}", hub::position_string(v, &pos));
        if !moves.is_empty() {
            pos_line.push_str(&format!(" moves=\"{}\"", moves.join(" ")));
        }
        let (m, _) = pair(&mut players, mover);
        // `ping` first: a `done` before the `pong` was sent out of turn.
        if let Err(f) = sync(m, settings.timeouts.response).await {
            return Ok(game.forfeit(mover, f.forfeit, f.detail));
        }
        let level = level_line(settings, m, game, clocks);
        for line in [pos_line.as_str(), level.as_str(), "go think"] {
            if let Err(f) = m.send_line(line).await {
                return Ok(game.forfeit(mover, f.forfeit, f.detail));
            }
        }
        clocks.start(mover);
        let deadline = clocks.deadline().expect("a running clock");
        loop {
            let (m, o) = pair(&mut players, mover);
            // The other side first: a message out of turn already there is seen before the
            // mover's answer.
            let (side, said) = tokio::select! {
                biased;
                s = o.recv() => (other, s),
                s = m.recv() => (mover, s),
                _ = tokio::time::sleep_until(deadline.into()) => {
                    clocks.flag(Instant::now());
                    // End the search; an engine that does not answer is restarted.
                    let wait = Instant::now() + settings.timeouts.gameend;
                    if m.send_line("stop").await.is_err() || m.wait_for("done", wait, false).await.is_err() {
                        m.broken = true;
                    }
                    return Ok(game.forfeit(mover, Forfeit::TimeForfeit, format!(
                        "no move within its time ({}) and the margin",
                        clock_text(clocks.initial(mover))
                    )));
                }
            };
            let line = match said {
                Said::Hub(line) => line,
                Said::Dxp(_) | Said::Garbage(_) => continue,
                Said::Oversized => {
                    return Ok(game.forfeit(
                        side,
                        Forfeit::ProtocolError,
                        format!("a line longer than {} bytes", hub::MAX_LINE),
                    ));
                }
                Said::Gone(f) => return Ok(game.forfeit(side, f.forfeit, f.detail)),
            };
            if line.command != "done" {
                // `info`, `pong`, `error` and lines the protocol says to ignore.
                continue;
            }
            if side != mover {
                return Ok(game.forfeit(
                    side,
                    Forfeit::ProtocolError,
                    format!(
                        "'done' with a move ({}) while it is not its turn",
                        line.arg("move").unwrap_or("none")
                    ),
                ));
            }
            if clocks.stop().is_none() {
                return Ok(game.forfeit(
                    mover,
                    Forfeit::TimeForfeit,
                    "its move came after its time and the margin".into(),
                ));
            }
            let claim = match line.arg("claim") {
                None => None,
                Some("win") => Some(ClaimKind::Win),
                Some("draw") => Some(ClaimKind::Draw),
                Some("loss") => Some(ClaimKind::Loss),
                Some(other) => {
                    return Ok(game.forfeit(
                        mover,
                        Forfeit::ProtocolError,
                        format!("claim={other} (win, draw or loss)"),
                    ))
                }
            };
            let text = line.arg("move").map(str::trim).filter(|t| !t.is_empty());
            let Some(text) = text else {
                return Ok(match claim {
                    Some(claim) => resolve_claim(settings, game, mover, claim),
                    None => game.illegal_move(
                        mover,
                        "",
                        arbiter_rules::MoveError::Syntax {
                            reason: "'done' without a move".into(),
                        },
                    ),
                });
            };
            let Some((from, to, captured)) = hub::parse_move(text) else {
                return Ok(game.illegal_move(
                    mover,
                    text,
                    arbiter_rules::MoveError::Syntax {
                        reason: "not a Hub move (from-to, or fromxto then x and each captured \
                                 square)"
                            .into(),
                    },
                ));
            };
            let d = match game.find_move(from, to, &captured) {
                Ok(d) => d,
                Err(e) => return Ok(game.illegal_move(mover, text, e)),
            };
            game.play(d)?;
            if let Some(claim) = claim {
                if let Some(mut end) = check_end(settings, game)? {
                    note_claim(&mut end, mover, claim, game.ply());
                    return Ok(end);
                }
                return Ok(resolve_claim(settings, game, mover, claim));
            }
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gameend_speaks_for_the_opponent() {
        assert_eq!(
            gameend_for(Color::White, Verdict::WhiteWins),
            Message::GameEnd { reason: 1, stop: 0 }
        );
        assert_eq!(
            gameend_for(Color::Black, Verdict::WhiteWins),
            Message::GameEnd { reason: 3, stop: 0 }
        );
        assert_eq!(
            gameend_for(Color::Black, Verdict::Draw),
            Message::GameEnd { reason: 2, stop: 0 }
        );
        assert_eq!(
            gameend_for(Color::Black, Verdict::Undecided),
            Message::GameEnd { reason: 0, stop: 0 }
        );
        assert_eq!(dxp_claim(3), Some(ClaimKind::Win));
        assert_eq!(dxp_claim(7), None);
    }
}
