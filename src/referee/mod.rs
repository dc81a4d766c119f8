//! `arbiter match`: a referee for matches and tournaments between draughts engines, a front
//! end on the rules engine and the operations like HTTP and the command line (it never imports
//! `api` or `http`). It starts or reaches engines that speak DXP or Hub, plays each opening
//! twice with colours swapped for each pairing, checks every move with the rules engine, keeps
//! both clocks, ends every game for a stated reason, writes a PDN file of the games, gives live
//! statistics and runs an SPRT; `arbiter match report` reads the files back. `docs/match.md`
//! explains the options and the reasons.
//!
//! | module | what |
//! |---|---|
//! | [`engine`] | the engines: their settings, processes, channels, and the engine interface |
//! | [`dxp`] | DXP: its messages, and an engine spoken to in it |
//! | [`hub`] | Hub: its lines, positions and moves, and an engine spoken to in it |
//! | [`launch`] | an engine opened in its protocol; the listeners of engines that connect |
//! | [`play`] | one game: the one game loop over the engine interface |
//! | [`game`] | one game's rules: moves checked, the rules, adjudication, forfeits, claims |
//! | [`clock`] | the clocks |
//! | [`openings`] | the openings file |
//! | [`schedule`] | pairings, game pairs, shards |
//! | [`pdn`] | the PDN record of a game |
//! | [`report`] | the games read back from PDN files, standings, crosstable, pentanomial counts |
//! | [`stats`] | score, Elo difference and margin, normalized Elo, likelihood of superiority |
//! | [`sprt`] | the SPRT of the pentanomial model |
//! | [`runner`] | the game slots, the collector, resume, the summary |

pub mod clock;
pub mod dxp;
pub mod engine;
pub mod game;
pub mod hub;
pub mod launch;
pub mod openings;
pub mod pdn;
pub mod play;
pub mod report;
pub mod runner;
pub mod schedule;
pub mod sprt;
pub mod stats;

use std::io::IsTerminal;
use std::sync::Arc;
use std::time::Duration;

use arbiter_rules::board::Squares;
use arbiter_rules::{BoardShape, Kind, Variant};

use engine::{EngineSpec, Protocol, Timeouts};
use game::Adjudicating;

/// The options of `arbiter match`.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct MatchArgs {
    #[command(subcommand)]
    pub command: Option<MatchCommand>,
    /// An engine, as key=value words: name=, proto=dxp|hub, cmd= (its command line; {port}
    /// and {slot} are filled in), dir=, connect=host:port, listen=[host:]port, tc=SECONDS,
    /// movetime= (Hub), option.NAME=VALUE (Hub set-param), gameend-wait=MS (DXP). Give it
    /// once per engine, at least twice; the first engine is the one a match's statistics and
    /// SPRT speak for, and a gauntlet's challenger.
    #[arg(long, num_args = 1.., required = true, value_name = "KEY=VALUE", action = clap::ArgAction::Append)]
    pub engine: Vec<String>,
    /// How the engines meet: every engine against every other (round-robin), or the first
    /// against each of the others (gauntlet). Each pairing plays each opening twice, colours
    /// swapped.
    #[arg(long, default_value = "round-robin", value_parser = ["round-robin", "gauntlet"])]
    pub tournament: String,
    /// A sequential probability ratio test of the first engine against the second (a match of
    /// two): elo0= elo1= (normalized Elo) [alpha=0.05] [beta=0.05]. The match stops when the
    /// log likelihood ratio of the pentanomial counts crosses a bound.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// Go on from the games already in the PDN file (of a match started with the same
    /// arguments): a torn last game is cut off, and the rest of the schedule is played.
    #[arg(long)]
    pub resume: bool,
    /// Play the i-th of n slices of the schedule (1 <= i <= n): every n-th game pair. The
    /// slices together are the whole schedule; `arbiter match report` merges their files.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Variant id (see `GET /v1/variants`): any variant on the dark squares of a board with
    /// men and kings only; over DXP, at most 99 squares.
    #[arg(long, default_value = "international")]
    pub variant: String,
    /// The openings: a file of FEN lines, or of PDN games whose moves are played out first.
    /// Without it, the start position. Each opening is played twice, colours swapped.
    #[arg(long)]
    pub openings: Option<std::path::PathBuf>,
    /// Play the openings this many times over.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub rounds: u64,
    /// Play this many games (the rounds are repeated as needed, then cut).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub games: Option<u64>,
    /// Games at once, each with its own engine processes.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub concurrency: u64,
    /// Each side's time for the whole game, in seconds (DXP's thinking time; an engine's tc=
    /// sets its own).
    #[arg(long, default_value_t = 300.0)]
    pub tc: f64,
    /// DXP's number of moves: the game ends after this many moves of each side, adjudicated
    /// as at --max-plies (0: no limit). Hub engines are told the moves left.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=999))]
    pub moves: u32,
    /// Milliseconds past its time that a move is still accepted.
    #[arg(long, default_value_t = 0)]
    pub time_margin: u64,
    /// Adjudicate with the endgame tables (`tables`): a position in them ends the game with
    /// its value (ENDGAME_TABLES).
    #[arg(long, default_value = "none", value_parser = ["none", "tables"])]
    pub adjudicate: String,
    /// A move limit in plies: the game ends there, by the tables with --adjudicate tables
    /// when they can, else drawn (MOVE_LIMIT).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub max_plies: Option<u64>,
    /// A claim (DXP GAMEEND, Hub claim=) that the rules and the tables do not confirm loses
    /// for the claimant (FALSE_CLAIM). Without it, a claim they contradict gives their result,
    /// and one they cannot check is recorded as made (ENGINE_CLAIM).
    #[arg(long)]
    pub strict_claims: bool,
    /// A directory of prebuilt endgame table files (`*.arbtb`); small tables are computed on
    /// first use either way.
    #[arg(long, env = "ARBITER_TABLES_DIR")]
    pub tables_dir: Option<String>,
    /// Where the PDN file of the games goes.
    #[arg(long, default_value = "match.pdn")]
    pub pdn: std::path::PathBuf,
    /// The Event tag of the games.
    #[arg(long, default_value = "Arbiter match")]
    pub event: String,
    /// One JSON line per event on standard output (start, each game with the standing,
    /// summary) instead of the progress line and the text summary.
    #[arg(long)]
    pub json: bool,
    /// Seconds an engine has to start: to listen, to connect, to finish the Hub handshake.
    #[arg(long, default_value_t = 30.0)]
    pub startup_timeout: f64,
    /// Seconds an engine has to answer what is not a move (GAMEACC, Hub pong); past it, it
    /// stalls (STALL).
    #[arg(long, default_value_t = 10.0)]
    pub response_timeout: f64,
    /// Milliseconds the referee waits for an engine's answer to GAMEEND (DXP) or to `stop`
    /// (Hub) after a game.
    #[arg(long, default_value_t = 2000)]
    pub gameend_wait: u64,
}

/// What `arbiter match` does besides playing.
#[derive(clap::Subcommand, Debug)]
pub enum MatchCommand {
    /// The results of PDN files written by `arbiter match` (a match, a tournament, the shards
    /// of one): standings with Elo, margin and LOS, the crosstable, the pentanomial counts and
    /// their figures, and with --sprt the SPRT's state.
    Report(ReportArgs),
}

/// The options of `arbiter match report`.
#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// The PDN files (games of one match, merged by their numbers).
    #[arg(value_name = "FILE.pdn")]
    pub files: Vec<std::path::PathBuf>,
    /// The SPRT of the first engine against the second: elo0= elo1= [alpha=] [beta=].
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// One JSON document instead of the text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `arbiter match report`.
pub fn run_report(mut args: ReportArgs) -> Result<(), Failure> {
    let usage = |m: String| Failure(m, 2);
    // `--sprt elo0=0 elo1=5 a.pdn`: the words after --sprt without `=` are files.
    if let Some(words) = args.sprt.as_mut() {
        let files: Vec<String> = words.iter().filter(|w| !w.contains('=')).cloned().collect();
        words.retain(|w| w.contains('='));
        args.files
            .extend(files.into_iter().map(std::path::PathBuf::from));
    }
    if args.files.is_empty() {
        return Err(usage("match report: give the PDN files to read".into()));
    }
    let sprt = args
        .sprt
        .as_deref()
        .map(sprt::Sprt::parse)
        .transpose()
        .map_err(|e| usage(format!("--sprt: {e}")))?;
    let mut files = Vec::new();
    for path in &args.files {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| usage(format!("cannot read {name}: {e}")))?;
        let read = report::read_text(&String::from_utf8_lossy(&bytes), &name).map_err(usage)?;
        files.push((name, read));
    }
    let (records, torn) = report::merge(files).map_err(usage)?;
    let names = report::engine_order(&records);
    if sprt.is_some() && names.len() != 2 {
        return Err(usage(format!(
            "--sprt: the games are between {} engines; an SPRT is of a match of two",
            names.len()
        )));
    }
    let results = report::results(&names, &records, sprt.as_ref());
    if args.json {
        let mut v = serde_json::to_value(&results).unwrap_or_default();
        v["files"] = args
            .files
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .into();
        v["torn"] = torn.into();
        runner::emit(&v);
    } else {
        let mut lines = results.text();
        if torn > 0 {
            lines.push(format!(
                "{torn} torn game(s) at the end of a file, not counted (a write cut short)"
            ));
        }
        print_lines(&lines);
    }
    Ok(())
}

fn print_lines(lines: &[String]) {
    let mut out = std::io::stdout().lock();
    for l in lines {
        if std::io::Write::write_all(&mut out, format!("{l}\n").as_bytes()).is_err() {
            return;
        }
    }
}

/// The identity of a match (its games' `MatchId`): a hash of what decides its schedule and its
/// games (the variant, the engines' names and settings, the openings, the tournament, rounds
/// and games, the clocks and the adjudication), not of what only decides how it is run
/// (concurrency, shard, SPRT, output, timeouts).
fn match_id(args: &MatchArgs, specs: &[EngineSpec], openings: &[openings::Opening]) -> String {
    let mut s = format!(
        "{}|{}|{}|{:?}|{}|{}|{}|{:?}|{}|{}",
        args.variant,
        args.tournament,
        args.rounds,
        args.games,
        args.tc,
        args.moves,
        args.adjudicate,
        args.max_plies,
        args.strict_claims,
        args.time_margin
    );
    for e in specs {
        s.push_str(&format!("|{}:{:?}:{:?}", e.name, e.tc, e.movetime));
    }
    for o in openings {
        s.push_str(&format!("|{}:{:?}", o.source, o.position));
    }
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(s.as_bytes()))
}

/// Whether the referee plays `v` over `protocol`: a variant on the dark squares of a grid
/// (every square numbered), with men and kings only (the protocols' positions know no other
/// piece), no drops, no opening removals, no castles; over DXP at most 99 squares (two
/// digits).
pub fn accepts(v: &Variant, protocol: Protocol) -> Result<(), String> {
    let dark = matches!(
        v.spec().board,
        BoardShape::Grid(Squares::DarkA1 | Squares::LightA1)
    );
    if !dark {
        return Err(format!(
            "{}: the referee plays variants on the dark squares of a board (their squares are \
             numbered)",
            v.id()
        ));
    }
    let other_pieces = [Kind::Parachutist, Kind::Knight].iter().any(|&k| {
        let p = v.rules().piece(k);
        !p.moves[0].is_empty()
            || !p.moves[1].is_empty()
            || !p.captures[0].is_empty()
            || !p.captures[1].is_empty()
    });
    let r = v.rules();
    if other_pieces || r.stones_in_hand > 0 || !r.opening_removals.is_empty() || r.castles.is_some()
    {
        return Err(format!(
            "{}: DXP and Hub positions hold men and kings only",
            v.id()
        ));
    }
    if protocol == Protocol::Dxp && v.board().len() > 99 {
        return Err(format!(
            "{}: DXP writes squares with two digits; this board has {}",
            v.id(),
            v.board().len()
        ));
    }
    Ok(())
}

/// The ids of the variants the referee plays over `protocol`.
pub fn accepted(protocol: Protocol) -> Vec<&'static str> {
    arbiter_rules::variants()
        .iter()
        .filter(|v| accepts(v, protocol).is_ok())
        .map(|v| v.id())
        .collect()
}

/// The value of Scan's Hub `variant` parameter for a variant, where Hub names it.
pub fn hub_variant(v: &Variant) -> Option<&'static str> {
    Some(match v.id() {
        "international" => "normal",
        "killer" => "killer",
        "breakthrough" => "bt",
        "frisian" => "frisian",
        "antidraughts" => "losing",
        _ => return None,
    })
}

/// A failure of the command: its message and exit code (2: the command line or a file it
/// names; 1: the match could not go on).
pub struct Failure(pub String, pub u8);

fn seconds(name: &str, s: f64) -> Result<Duration, Failure> {
    if s.is_finite() && s > 0.0 && s <= 1e6 {
        Ok(Duration::from_secs_f64(s))
    } else {
        Err(Failure(format!("--{name}: seconds, more than 0"), 2))
    }
}

/// Runs `arbiter match`; `engines` holds the words of each `--engine`
/// (`ArgMatches::get_occurrences`).
pub fn run(mut args: MatchArgs, engines: Vec<Vec<String>>) -> Result<(), Failure> {
    if let Some(MatchCommand::Report(r)) = args.command.take() {
        return run_report(r);
    }
    let usage = |m: String| Failure(m, 2);
    let variant =
        crate::ops::find_variant(&args.variant).map_err(|e| usage(e.problem().detail.clone()))?;
    if engines.len() < 2 {
        return Err(usage(format!(
            "a match is between at least two engines: --engine was given {} time(s)",
            engines.len()
        )));
    }
    let tournament = schedule::Tournament::parse(&args.tournament).map_err(usage)?;
    let sprt = args
        .sprt
        .as_deref()
        .map(sprt::Sprt::parse)
        .transpose()
        .map_err(|e| usage(format!("--sprt: {e}")))?;
    if sprt.is_some() && engines.len() != 2 {
        return Err(usage(format!(
            "--sprt: an SPRT is of a match of two engines; --engine was given {} times",
            engines.len()
        )));
    }
    let shard = args
        .shard
        .as_deref()
        .map(schedule::Shard::parse)
        .transpose()
        .map_err(usage)?;
    if sprt.is_some() && shard.is_some() {
        return Err(usage(
            "--sprt with --shard: a sharded run is of fixed length; give the SPRT to \
             `arbiter match report --sprt` over the shards' files"
                .into(),
        ));
    }
    let specs: Vec<EngineSpec> = engines
        .iter()
        .map(|w| EngineSpec::parse(w))
        .collect::<Result<_, _>>()
        .map_err(|e| usage(format!("--engine: {e}")))?;
    for s in &specs {
        accepts(variant, s.protocol).map_err(usage)?;
    }
    if args.concurrency > 1 {
        if let Some(s) = specs.iter().find(|s| s.connect.is_some()) {
            return Err(usage(format!(
                "{}: an engine at a fixed address (connect=) plays one game at a time; use \
                 --concurrency 1, or cmd= so that each slot starts its own",
                s.name
            )));
        }
    }
    for (i, a) in specs.iter().enumerate() {
        if specs[..i].iter().any(|b| b.name == a.name) {
            return Err(usage(format!(
                "two engines are named '{}': give them different name= values",
                a.name
            )));
        }
    }
    for s in &specs {
        if let Some(tc) = s.tc {
            seconds("tc", tc)?;
        }
    }
    let tc = seconds("tc", args.tc)?;
    let openings = match &args.openings {
        Some(path) => {
            let text = std::fs::read(path)
                .map_err(|e| usage(format!("cannot read {}: {e}", path.display())))?;
            let text = String::from_utf8_lossy(&text);
            let name = path.display().to_string();
            openings::read(variant, &name, &text).map_err(usage)?
        }
        None => openings::start_only(variant),
    };
    let tables_config = crate::config::TablesConfig {
        dir: args
            .tables_dir
            .as_deref()
            .filter(|d| !d.trim().is_empty())
            .map(std::path::PathBuf::from),
        build_wait: Duration::from_secs(7 * 24 * 3600),
        ..crate::config::TablesConfig::default()
    };
    let tables = crate::tables::TableStore::from_config(&tables_config).map_err(usage)?;
    let timeouts = Timeouts {
        startup: seconds("startup-timeout", args.startup_timeout)?,
        response: seconds("response-timeout", args.response_timeout)?,
        gameend: Duration::from_millis(args.gameend_wait),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure(format!("cannot start the runtime: {e}"), 1))?;
    let json = args.json;
    let id = match_id(&args, &specs, &openings);
    let summary = runtime.block_on(async {
        let mut listeners = Vec::new();
        for s in specs.iter() {
            listeners.push(launch::bind_listener(s).await.map_err(usage)?);
        }
        let settings = runner::Settings {
            variant,
            openings,
            engines: specs.into_iter().map(Arc::new).collect(),
            tournament,
            rounds: args.rounds as usize,
            games: args.games.map(|g| g as usize),
            shard,
            sprt,
            resume: args.resume,
            concurrency: args.concurrency as usize,
            tc: tc.as_secs_f64(),
            moves: args.moves,
            margin: Duration::from_millis(args.time_margin),
            adjudicating: Adjudicating {
                tables: args.adjudicate == "tables",
                max_plies: args.max_plies.map(|n| n as usize),
                strict_claims: args.strict_claims,
            },
            timeouts,
            pdn: args.pdn.clone(),
            json,
            progress: !json && std::io::stderr().is_terminal(),
            event: args.event.clone(),
            tables: Arc::new(tables),
            listeners,
            hub_variant: hub_variant(variant),
            match_id: id,
        };
        // A signal ends the match here: the runtime is dropped with its tasks, and with them
        // the engine processes (started with `kill_on_drop`).
        tokio::select! {
            r = runner::run(settings) => r.map_err(|(e, code)| Failure(e, code)),
            _ = stop_signal() => Err(Failure(
                "the match was stopped by a signal; its engines were ended".into(),
                130,
            )),
        }
    })?;
    // The slots have closed their engines; what is left (a process that ignored it) is killed.
    runtime.shutdown_timeout(Duration::from_secs(1));
    if json {
        let mut line = serde_json::to_value(&summary).unwrap_or_default();
        line["event"] = "summary".into();
        runner::emit(&line);
    } else {
        print_summary(&summary);
    }
    Ok(())
}

fn print_summary(s: &runner::Summary) {
    let mut lines = vec![format!(
        "{} games of {} ({} read back from the file), {:.1} s; PDN: {}{}",
        s.results.games,
        s.scheduled,
        s.resumed,
        s.seconds,
        s.pdn,
        match (&s.stopped, &s.results.sprt) {
            (Some(_), Some(st)) => format!("; stopped: {}", st.words()),
            _ => String::new(),
        }
    )];
    lines.extend(s.results.text());
    for e in &s.results.standings {
        if !e.forfeits.is_empty() || e.false_claims > 0 {
            let f: Vec<String> = e.forfeits.iter().map(|(k, n)| format!("{k} {n}")).collect();
            lines.push(format!(
                "{}: forfeits: {}; false claims: {}",
                e.name,
                if f.is_empty() {
                    "none".into()
                } else {
                    f.join(", ")
                },
                e.false_claims
            ));
        }
    }
    if s.restarts > 0 {
        lines.push(format!(
            "engines started again after failing at a game's start: {}",
            s.restarts
        ));
    }
    if let Some(first) = s.results.engines.first().filter(|_| !s.openings.is_empty()) {
        lines.push(format!("openings ({first}'s score):"));
        for o in &s.openings {
            lines.push(format!("  {}: {}", o.source, o.report.line()));
        }
    }
    print_lines(&lines);
}

/// SIGINT or SIGTERM.
async fn stop_signal() {
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
    let term = async {
        match term.as_mut() {
            Some(t) => {
                t.recv().await;
            }
            None => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term => {}
    }
}
