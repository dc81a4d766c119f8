//! The match: the schedule of games ([`super::schedule`]: each pairing plays each opening
//! twice, colours swapped, round after round; a shard's slice of it), K slots playing at once,
//! each with its own engine processes, and the collector that writes the PDN file in schedule
//! order (each game in one write, synced), the live standing and SPRT, and the summary. With
//! `--resume` the games already in the file are read back and only the rest is played.

use std::collections::{BTreeMap, VecDeque};
use std::io::{Seek, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use arbiter_rules::{Color, Variant};
use serde::Serialize;
use serde_json::json;
use tokio::sync::mpsc;

use super::clock::{clock_text, Clocks};
use super::engine::{self, EngineSpec, OpenError, Player, SharedListener, Timeouts};
use super::game::{Adjudicating, Game, GameEnd};
use super::launch;
use super::openings::Opening;
use super::pdn;
use super::play;
use super::report::{self, Outcome, Record, Results};
use super::schedule::{Scheduled, Shard, Tournament};
use super::sprt::{Decision, Sprt};
use super::stats::{Report, Tally};
use crate::tables::TableStore;

/// Everything a match needs, read and checked from the command line.
pub struct Settings {
    pub variant: &'static Variant,
    pub openings: Vec<Opening>,
    /// The engines, in `--engine` order; the first is the one a match's statistics speak for.
    pub engines: Vec<Arc<EngineSpec>>,
    pub tournament: Tournament,
    pub rounds: usize,
    /// At most this many games (`None`: every game of the rounds).
    pub games: Option<usize>,
    pub shard: Option<Shard>,
    pub sprt: Option<Sprt>,
    pub resume: bool,
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
    /// The listeners of `listen=` engines, by engine.
    pub listeners: Vec<Option<SharedListener>>,
    /// The Hub `variant` parameter value of the variant, if Hub has one.
    pub hub_variant: Option<&'static str>,
    /// The match's identity (`MatchId` of its games).
    pub match_id: String,
}

/// A played game, as the collector gets it.
struct Finished {
    s: Scheduled,
    end: GameEnd,
    result: &'static str,
    plies: usize,
    seconds: f64,
    clocks: [Duration; 2],
    pdn: String,
    opening: String,
}

/// The match's figures as the summary gives them.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    #[serde(flatten)]
    pub results: Results,
    /// Games read back from the PDN file (`--resume`).
    pub resumed: usize,
    /// The games of the schedule (of the shard).
    pub scheduled: usize,
    /// Why the match stopped before its schedule's end, if it did (`sprt`).
    pub stopped: Option<String>,
    /// Per opening, the first engine's figures (a match between two engines).
    pub openings: Vec<OpeningSummary>,
    /// Engines started again after they failed at the start of a game they then replayed.
    pub restarts: usize,
    pub seconds: f64,
    pub pdn: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct OpeningSummary {
    pub source: String,
    #[serde(flatten)]
    pub report: Report,
}

/// What the slots tell the collector.
enum Event {
    Game(Box<Finished>),
    /// An engine failed at the start of a game after an earlier game: started again, and
    /// the game played from its start.
    Restart {
        game: usize,
        engine: String,
        reason: &'static str,
        detail: String,
    },
}

fn names(settings: &Settings) -> Vec<String> {
    settings.engines.iter().map(|e| e.name.clone()).collect()
}

/// The games of the PDN file already there (`--resume`), checked against the schedule, and
/// the file opened to append the rest: a torn last game is cut off.
fn open_pdn(
    settings: &Settings,
    schedule: &[Scheduled],
) -> Result<(std::fs::File, Vec<Record>), String> {
    let path = &settings.pdn;
    let cannot = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    if !settings.resume || !path.exists() {
        let f = std::fs::File::create(path).map_err(cannot)?;
        return Ok((f, Vec::new()));
    }
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let text = String::from_utf8_lossy(&bytes);
    let name = path.display().to_string();
    let read = report::read_text(&text, &name)?;
    for r in &read.records {
        if r.match_id.as_deref() != Some(settings.match_id.as_str()) {
            return Err(format!(
                "{name}: its games are of another match (MatchId {}, this match's {}): \
                 --resume needs the arguments the match started with",
                r.match_id.as_deref().unwrap_or("none"),
                settings.match_id
            ));
        }
        let s = schedule.iter().find(|s| s.number == r.number);
        let names = names(settings);
        let fits = s.is_some_and(|s| names[s.white] == r.white && names[s.black] == r.black);
        if !fits {
            return Err(format!(
                "{name}: game {} ({} - {}) is not in this match's schedule{}",
                r.number,
                r.white,
                r.black,
                if settings.shard.is_some() {
                    " (of this shard)"
                } else {
                    ""
                }
            ));
        }
    }
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .map_err(cannot)?;
    // Cut off a torn last game; the rest is appended.
    f.set_len(read.whole_len as u64).map_err(cannot)?;
    f.seek(std::io::SeekFrom::End(0)).map_err(cannot)?;
    Ok((f, read.records))
}

/// The record of a game just played, as the file will give it back.
fn record_of(settings: &Settings, p: &Finished) -> Record {
    let names = names(settings);
    Record {
        number: p.s.number,
        round: p.s.round,
        white: names[p.s.white].clone(),
        black: names[p.s.black].clone(),
        outcome: match p.end.verdict {
            arbiter_rules::Verdict::WhiteWins => Outcome::WhiteWins,
            arbiter_rules::Verdict::BlackWins => Outcome::BlackWins,
            arbiter_rules::Verdict::Draw => Outcome::Draw,
            _ => Outcome::Unknown,
        },
        termination: p.end.code.to_string(),
        plies: p.plies,
        opening: p.opening.clone(),
        match_id: Some(settings.match_id.clone()),
    }
}

/// Runs the match; returns its summary, or why it stopped and the exit code (2: the PDN file
/// does not fit `--resume`; 1: the match could not go on).
pub async fn run(settings: Settings) -> Result<Summary, (String, u8)> {
    let settings = Arc::new(settings);
    let names = names(&settings);
    let pairings = settings.tournament.pairings(settings.engines.len());
    let full = super::schedule::schedule(
        settings.openings.len(),
        &pairings,
        settings.rounds,
        settings.games,
    );
    let schedule = match settings.shard {
        Some(shard) => shard.slice(&full),
        None => full,
    };
    let started = Instant::now();
    let (mut out, mut records) = open_pdn(&settings, &schedule).map_err(|e| (e, 2))?;
    let resumed = records.len();
    let done: std::collections::HashSet<usize> = records.iter().map(|r| r.number).collect();
    let remaining: Vec<Scheduled> = schedule
        .iter()
        .filter(|s| !done.contains(&s.number))
        .copied()
        .collect();
    let sprt = settings.sprt.as_ref();
    let decided = |records: &[Record]| {
        sprt.is_some_and(|s| {
            report::results(&names, records, Some(s))
                .sprt
                .is_some_and(|st| st.decision != Decision::Continue)
        })
    };
    let already = decided(&records);
    let queue: VecDeque<Scheduled> = if already {
        VecDeque::new()
    } else {
        remaining.iter().copied().collect()
    };
    let total = queue.len();
    let queue = Arc::new(Mutex::new(queue));
    let (tx, mut rx) = mpsc::channel::<Event>(64);
    let slots = settings.concurrency.min(total.max(1));
    let mut workers = tokio::task::JoinSet::new();
    if total > 0 {
        for slot in 1..=slots {
            let (settings, queue, tx) = (settings.clone(), queue.clone(), tx.clone());
            workers.spawn(async move { worker(slot, settings, queue, tx).await });
        }
    }
    drop(tx);
    if settings.json {
        emit(&json!({
            "event": "start",
            "variant": settings.variant.id(),
            "tournament": settings.tournament.name(),
            "games": schedule.len(),
            "resumed": resumed,
            "to_play": total,
            "shard": settings.shard,
            "openings": settings.openings.len(),
            "concurrency": slots,
            "engines": settings.engines.iter().map(|e| json!({
                "name": e.name, "protocol": e.protocol.name(),
            })).collect::<Vec<_>>(),
            "sprt": settings.sprt,
            "pdn": settings.pdn.display().to_string(),
            "match_id": settings.match_id,
        }));
    }
    let bar = if settings.progress {
        indicatif::ProgressBar::new(schedule.len() as u64).with_style(
            indicatif::ProgressStyle::with_template("{pos}/{len} {wide_msg} {elapsed}")
                .expect("a valid template"),
        )
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_position(resumed as u64);
    // Games finish out of order; the file gets them in schedule order.
    let mut pending: BTreeMap<usize, Box<Finished>> = BTreeMap::new();
    let mut next = 0;
    let mut failure: Option<String> = None;
    let mut stopped: Option<String> = None;
    let mut restarts = 0;
    while let Some(event) = rx.recv().await {
        let p = match event {
            Event::Game(p) => p,
            Event::Restart {
                game,
                engine,
                reason,
                detail,
            } => {
                restarts += 1;
                if settings.json {
                    emit(&json!({
                        "event": "restart", "game": game, "engine": engine,
                        "reason": reason, "detail": detail,
                    }));
                } else {
                    bar.suspend(|| {
                        eprintln!(
                            "game {game}: {engine} failed at its start ({reason}: {detail}); \
                             started again, the game is played from its start"
                        )
                    });
                }
                continue;
            }
        };
        pending.insert(p.s.number, p);
        while let Some(p) = remaining.get(next).and_then(|s| pending.remove(&s.number)) {
            next += 1;
            let mut text = p.pdn.clone();
            text.push('\n');
            if let Err(e) = out
                .write_all(text.as_bytes())
                .and_then(|()| out.sync_data())
            {
                failure.get_or_insert(format!("cannot write {}: {e}", settings.pdn.display()));
            }
            records.push(record_of(&settings, &p));
            let results = report::results(&names, &records, sprt);
            emit_game(
                &settings,
                &names,
                &p,
                &results,
                records.len(),
                schedule.len(),
                &bar,
            );
            if results
                .sprt
                .is_some_and(|s| s.decision != Decision::Continue)
            {
                stopped = Some("sprt".into());
                break;
            }
        }
        if stopped.is_some() || failure.is_some() {
            break;
        }
    }
    if stopped.is_some() || failure.is_some() {
        // The games still being played are abandoned: their engines end with their slots.
        queue.lock().unwrap_or_else(|p| p.into_inner()).clear();
        workers.abort_all();
    }
    bar.finish_and_clear();
    while let Some(joined) = workers.join_next().await {
        match joined {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                failure.get_or_insert(e);
            }
            Err(e) if e.is_cancelled() => {}
            Err(e) => {
                failure.get_or_insert(format!("a game slot failed: {e}"));
            }
        }
    }
    if let Some(e) = failure {
        return Err((e, 1));
    }
    if already {
        stopped = Some("sprt".into());
    }
    let results = report::results(&names, &records, sprt);
    let openings = if names.len() == 2 {
        let mut by: BTreeMap<String, Tally> = BTreeMap::new();
        let mut order: Vec<String> = Vec::new();
        let mut sorted: Vec<&Record> = records.iter().collect();
        sorted.sort_by_key(|r| r.number);
        for r in sorted {
            let t = by.entry(r.opening.clone()).or_insert_with(|| {
                order.push(r.opening.clone());
                Tally::default()
            });
            let first_white = r.white == names[0];
            match (r.outcome, first_white) {
                (Outcome::Draw, _) => t.draws += 1,
                (Outcome::WhiteWins, true) | (Outcome::BlackWins, false) => t.wins += 1,
                (Outcome::WhiteWins, false) | (Outcome::BlackWins, true) => t.losses += 1,
                (Outcome::Unknown, _) => {}
            }
        }
        order
            .into_iter()
            .map(|o| OpeningSummary {
                report: by[&o].report(),
                source: o,
            })
            .collect()
    } else {
        Vec::new()
    };
    Ok(Summary {
        results,
        resumed,
        scheduled: schedule.len(),
        stopped,
        openings,
        restarts,
        seconds: started.elapsed().as_secs_f64(),
        pdn: settings.pdn.display().to_string(),
    })
}

/// The event of a game written: an NDJSON line, or the progress line (a line on standard
/// error without a terminal).
fn emit_game(
    settings: &Settings,
    names: &[String],
    p: &Finished,
    results: &Results,
    played: usize,
    of: usize,
    bar: &indicatif::ProgressBar,
) {
    let first = results.standings.iter().find(|s| s.name == names[0]);
    let standing = first.map(|s| s.report);
    if settings.json {
        emit(&json!({
            "event": "game",
            "game": p.s.number,
            "round": p.s.round,
            "opening": settings.openings[p.s.opening].number,
            "opening_source": p.opening,
            "white": names[p.s.white],
            "black": names[p.s.black],
            "result": p.result,
            "verdict": play::verdict_code(p.end.verdict),
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
            "played": played,
            "of": of,
            "standing": { "engine": names[0], "report": standing },
            "standings": results.standings.iter().map(|s| json!({
                "name": s.name, "points": s.report.points, "games": s.report.games,
            })).collect::<Vec<_>>(),
            "pentanomial": results.pairings.iter().map(|x| json!({
                "first": x.first, "second": x.second, "counts": x.pentanomial.counts,
            })).collect::<Vec<_>>(),
            "sprt": results.sprt,
        }));
        return;
    }
    let mut line = match standing {
        Some(r) if names.len() == 2 => format!("{}: {}", names[0], r.line()),
        _ => results
            .standings
            .iter()
            .map(|s| format!("{} {}/{}", s.name, s.report.points, s.report.games))
            .collect::<Vec<_>>()
            .join(", "),
    };
    if let Some(s) = &results.sprt {
        line.push_str(&format!("; LLR {}", s.line()));
    }
    bar.set_position(played as u64);
    bar.set_message(line.clone());
    if !settings.progress {
        // No terminal: one line per game on standard error.
        eprintln!(
            "game {}/{}: {} - {} {} ({}, {} plies); {line}",
            p.s.number, of, names[p.s.white], names[p.s.black], p.result, p.end.code, p.plies,
        );
    }
}

/// Prints a JSON line on standard output; a closed pipe ends the program quietly.
pub fn emit(value: &serde_json::Value) {
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{value}").and_then(|()| out.flush()).is_err() {
        std::process::exit(0);
    }
}

/// Opens the engine `e` for slot `slot` if it is not open.
async fn ensure_open(
    settings: &Settings,
    slot: usize,
    players: &mut [Option<Player>],
    e: usize,
) -> Result<Option<engine::Fault>, String> {
    if players[e].is_some() {
        return Ok(None);
    }
    let o = launch::Opening {
        slot,
        listener: settings.listeners[e].clone(),
        squares: settings.variant.board().len(),
        variant_param: settings.hub_variant,
        timeouts: settings.timeouts,
    };
    match launch::open(settings.engines[e].clone(), &o).await {
        Ok(p) => {
            players[e] = Some(p);
            Ok(None)
        }
        Err(OpenError::Fault(f)) => Ok(Some(f)),
        Err(OpenError::Fatal(e)) => Err(e),
    }
}

/// A game slot: takes games from the queue and plays them with its own engines, opening
/// (and after a fault reopening) them as needed.
async fn worker(
    slot: usize,
    settings: Arc<Settings>,
    queue: Arc<Mutex<VecDeque<Scheduled>>>,
    tx: mpsc::Sender<Event>,
) -> Result<(), String> {
    let mut players: Vec<Option<Player>> = (0..settings.engines.len()).map(|_| None).collect();
    let result = async {
        loop {
            let next = queue.lock().unwrap_or_else(|p| p.into_inner()).pop_front();
            let Some(s) = next else { break };
            let finished = play_scheduled(&settings, slot, &mut players, s, &tx).await?;
            if tx.send(Event::Game(Box::new(finished))).await.is_err() {
                break;
            }
        }
        Ok(())
    }
    .await;
    for p in players.iter_mut() {
        if let Some(p) = p.take() {
            p.close().await;
        }
    }
    result
}

/// Plays game `s` with the slot's engines. An engine that fails at the start of the game
/// (before it accepted it) after an earlier game on the same connection is started again and
/// the game played from its start, once: the failure is the engine's, but a game that never
/// started hands out no point for what the previous game left behind.
async fn play_scheduled(
    settings: &Settings,
    slot: usize,
    players: &mut [Option<Player>],
    s: Scheduled,
    tx: &mpsc::Sender<Event>,
) -> Result<Finished, String> {
    let mut retried = false;
    loop {
        let started = Instant::now();
        let opening = &settings.openings[s.opening];
        let mut game = Game::new(settings.variant, opening.position)?;
        let time =
            |e: usize| Duration::from_secs_f64(settings.engines[e].tc.unwrap_or(settings.tc));
        let mut clocks = Clocks::new(time(s.white), time(s.black), settings.margin);
        // An engine whose process ended since its last game is started again.
        for e in [s.white, s.black] {
            if players[e].as_mut().is_some_and(|p| p.channel().exited()) {
                if let Some(p) = players[e].take() {
                    p.close().await;
                }
            }
        }
        let mut fresh = [false; 2];
        let mut fault = None;
        for (i, (e, side)) in [(s.white, Color::White), (s.black, Color::Black)]
            .into_iter()
            .enumerate()
        {
            fresh[i] = players[e].is_none();
            if let Some(f) = ensure_open(settings, slot, players, e).await? {
                fault.get_or_insert((side, f));
            }
        }
        let played = if let Some((side, f)) = fault {
            play::Played {
                end: game.forfeit(
                    side,
                    f.forfeit,
                    format!("the engine could not be started: {}", f.detail),
                ),
                failed_to_start: None,
            }
        } else {
            let mut w = players[s.white].take().expect("open");
            let mut b = players[s.black].take().expect("open");
            let rules = play::Rules {
                moves: settings.moves,
                adjudicating: settings.adjudicating,
                tables: settings.tables.clone(),
                timeouts: settings.timeouts,
                margin: settings.margin,
            };
            let r = play::play(&rules, [&mut w, &mut b], &mut game, &mut clocks).await;
            players[s.white] = Some(w);
            players[s.black] = Some(b);
            r?
        };
        for e in [s.white, s.black] {
            if players[e].as_mut().is_some_and(|p| p.channel().broken) {
                if let Some(p) = players[e].take() {
                    p.close().await;
                }
            }
        }
        if let Some(side) = played.failed_to_start {
            let i = if side == Color::White { 0 } else { 1 };
            let e = [s.white, s.black][i];
            if !fresh[i] && !retried {
                retried = true;
                if let Some(p) = players[e].take() {
                    p.close().await;
                }
                let _ = tx
                    .send(Event::Restart {
                        game: s.number,
                        engine: settings.engines[e].name.clone(),
                        reason: played.end.code,
                        detail: played.end.detail.clone(),
                    })
                    .await;
                continue;
            }
        }
        let names = [
            &settings.engines[s.white].name,
            &settings.engines[s.black].name,
        ];
        let tags = pdn::Tags {
            event: &settings.event,
            round: s.round,
            number: s.number,
            white: names[0],
            black: names[1],
            opening: &opening.source,
            time: [time(s.white).as_secs_f64(), time(s.black).as_secs_f64()],
            moves: settings.moves,
            match_id: &settings.match_id,
        };
        let end = played.end;
        return Ok(Finished {
            s,
            result: pdn::result(&game, &end),
            plies: game.ply(),
            seconds: started.elapsed().as_secs_f64(),
            clocks: [clocks.left(Color::White), clocks.left(Color::Black)],
            pdn: pdn::game_text(&tags, &game, &end, &clocks),
            opening: opening.source.clone(),
            end,
        });
    }
}
