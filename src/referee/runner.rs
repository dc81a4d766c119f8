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
use super::engine::{self, EngineSpec, Fault, OpenError, Player, SharedListener, Timeouts};
use super::game::{Adjudicating, Game, GameEnd};
use super::play;
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
            if p.as_mut().is_some_and(|p| p.channel().exited()) {
                if let Some(p) = p.take() {
                    p.close().await;
                }
            }
        }
        // Open what is not open; a fault there forfeits the game.
        let mut faults: [Option<Fault>; 2] = [None, None];
        for e in 0..2 {
            if players[e].is_none() {
                let o = engine::Opening {
                    slot,
                    listener: settings.listeners[e].clone(),
                    squares,
                    variant_param: settings.hub_variant,
                    timeouts: settings.timeouts,
                };
                match engine::open(settings.engines[e].clone(), &o).await {
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
            let rules = play::Rules {
                moves: settings.moves,
                adjudicating: settings.adjudicating,
                tables: settings.tables.clone(),
                timeouts: settings.timeouts,
                margin: settings.margin,
            };
            play::play(&rules, [w, bl], &mut game, &mut clocks).await?.end
        };
        for p in players.iter_mut() {
            if p.as_mut().is_some_and(|p| p.channel().broken) {
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

