//! The `arbiter` command: serve the API, run perft, list moves, print the API document.

use std::process::ExitCode;
use std::time::Instant;

use arbiter::config::ServeArgs;
use arbiter::ops;
use arbiter::ops::judge::JudgeOptions;
use arbiter::ops::records::{FileOptions, NextGame, PdnGameResult, PdnSummary, RecordStream};
use arbiter::problem::{ApiError, ProblemCode};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// Arbiter: a stateless REST rules referee for draughts and its cousins.
#[derive(Parser, Debug)]
#[command(name = "arbiter", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Serve the HTTP API (graceful shutdown on SIGTERM/SIGINT).
    Serve(ServeArgs),
    /// Sleep SECONDS and exit (a Kubernetes preStop hook in an image without a shell).
    #[command(hide = true)]
    Sleep {
        /// Seconds to sleep.
        seconds: u64,
    },
    /// Count the leaf positions a number of plies below a position.
    Perft {
        /// Variant id (see `GET /v1/variants`).
        #[arg(long)]
        variant: String,
        /// Depth in plies.
        #[arg(long)]
        depth: u32,
        /// FEN of the position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// One line per first move with its count (in the order and notation of `moves`), then
        /// the total.
        #[arg(long)]
        divide: bool,
        /// Count every capture route separately ("keep duplicates" convention); by default
        /// routes with the same start, end and captured set are one move ("drop"). With
        /// `--divide`, a move's count is its routes times the count below it.
        #[arg(long)]
        keep: bool,
        /// End with a JSON line {"variant","depth","nodes","seconds","leaves_per_second"}.
        #[arg(long)]
        json: bool,
    },
    /// Print the legal moves of a position as JSON (the HTTP moves answer).
    Moves {
        /// Variant id.
        #[arg(long)]
        variant: String,
        /// FEN of the position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
    },
    /// Adjudicate a PDN file of any size, game by game: print the `POST /v1/judge/pdn`
    /// answer (pretty JSON), with `--ndjson` one JSON line per game then a summary line, or
    /// with `--pdn` the file as canonical PDN 3.0 text, each game's result set from the
    /// judgement. A progress bar is shown on standard error when it is a terminal.
    Judge {
        /// The PDN file (`-` reads standard input).
        file: String,
        /// Judge every game under this variant id, whatever its tags say.
        #[arg(long)]
        variant: Option<String>,
        /// Refuse a file with more games than this (exit code 2), printing nothing; the games
        /// are then held until the end of the file. Without it, any number of games is judged.
        #[arg(long)]
        max_games: Option<usize>,
        /// Whose score the results write first: `first-mover` (PDN 3.0: `1-0` is a Black win
        /// in English, Pool and Thai) or `white-first` (`1-0` is always a White win).
        #[arg(long, default_value = "first-mover", value_parser = ["first-mover", "white-first"])]
        result_convention: String,
        /// Print the games as canonical PDN text instead of the JSON answer: the `Result` tag
        /// set from the judgement, illegal moves and the readings a record needed in comments.
        #[arg(long, conflicts_with = "ndjson")]
        pdn: bool,
        /// Check each game against the PDN 3.0 grammar: a game it rejects is an entry with
        /// the `pdn-syntax` error instead of a judgement, and the first fault of the file is
        /// printed on stderr at the end, with exit code 1.
        #[arg(long)]
        strict: bool,
        /// Print one JSON line per game as it is judged, then `{"summary": ...}` (the lines
        /// of the HTTP stream, `Accept: application/x-ndjson`).
        #[arg(long)]
        ndjson: bool,
        /// Adjudicate the games the rules leave undecided: `tables` decides each one whose
        /// final position is in the endgame tables (reason `ENDGAME_TABLES`); `none` leaves
        /// them undecided. The rules, draw rules included, come first.
        #[arg(long, default_value = "none", value_parser = ["none", "tables"])]
        adjudicate: String,
        /// A move limit, in plies (1 to 1000): a game still running at this ply is decided
        /// there, by the tables with `--adjudicate tables` when they can, else drawn (reason
        /// `MOVE_LIMIT`); the moves after it are not judged.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1000))]
        max_plies: Option<u64>,
        /// With `--adjudicate tables`: a directory of prebuilt table files (`*.arbtb`) to
        /// load; small tables are computed on first use either way.
        #[arg(long, env = "ARBITER_TABLES_DIR")]
        tables_dir: Option<String>,
    },
    /// Build endgame table files, or describe one.
    #[command(subcommand)]
    Tables(TablesCommand),
    /// Referee a match or tournament between draughts engines over DXP or Hub: each opening
    /// played twice with colours swapped, every move checked, both clocks kept, every game
    /// ended for a stated reason; a PDN file of the games, live statistics (Elo, error margin,
    /// likelihood of superiority, pentanomial counts), an SPRT, resume and shards; `match
    /// report` reads the PDN files back. See docs/match.md.
    Match(arbiter::referee::MatchArgs),
    /// Print the OpenAPI document (pretty JSON).
    Openapi,
}

#[derive(Subcommand, Debug)]
enum TablesCommand {
    /// Build the endgame tables of every material of a variant up to a number of pieces, one
    /// file per material (`<variant>-<material>.arbtb`) in a directory, for
    /// `ARBITER_TABLES_DIR`, in the order of `tables plan`; or with `--material` (or `--wave`)
    /// one material, reading the tables it needs from the directory. A material whose valid
    /// file is there already is kept, so a build stopped at any moment finishes when started
    /// again. Prints a line per material and the totals; a progress bar is shown on standard
    /// error when it is a terminal.
    Build {
        /// Variant id.
        #[arg(long)]
        variant: String,
        /// Largest number of pieces on the board (both sides together); in a drop game,
        /// stones on the board and in hand (10 solves Hageby whole).
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=10),
              required_unless_present = "material")]
        pieces: Option<u32>,
        /// The directory to write the files to (created if missing). Each file is written
        /// under a temporary name, flushed and renamed.
        #[arg(long)]
        out: std::path::PathBuf,
        /// Build this material only (`KKvK`: White's pieces, `v`, Black's), reading the
        /// finished tables it needs from `--out`; exit code 2 if one is missing.
        #[arg(long, conflicts_with_all = ["wave", "jobs"])]
        material: Option<String>,
        /// Build one material of this wave of the plan of `--pieces`: the one of `--index`.
        #[arg(long, requires = "index", requires = "pieces", conflicts_with = "jobs")]
        wave: Option<u32>,
        /// With `--wave`: the material's index in the wave, from 0 (a pod of a Kubernetes
        /// Indexed Job has it in JOB_COMPLETION_INDEX; without `--wave` it is not read).
        #[arg(long, env = "JOB_COMPLETION_INDEX")]
        index: Option<usize>,
        /// Build this many materials of a wave at once.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        jobs: u64,
        /// With `--jobs`: start a build only while the estimated memory of the builds running
        /// stays within this many MiB (`tables plan` gives each build's estimate).
        #[arg(long)]
        max_memory_mib: Option<u64>,
        /// Print one JSON object with every material and the totals instead of the lines.
        #[arg(long)]
        json: bool,
    },
    /// Plan the build of a variant's tables up to a number of pieces: every material once, in
    /// waves whose materials build side by side (each after the tables its build reads), with
    /// its positions (as numbered), estimated file size, memory and time; or the Kubernetes
    /// Jobs that build it.
    Plan {
        /// Variant id.
        #[arg(long)]
        variant: String,
        /// Largest number of pieces (as `tables build`).
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=10))]
        pieces: u32,
        /// Print one JSON object instead of the lines.
        #[arg(long, conflicts_with = "emit")]
        json: bool,
        /// Print manifests instead: `kubernetes`, one Indexed Job per wave (k8s/tables-build/).
        #[arg(long, value_parser = ["kubernetes"])]
        emit: Option<String>,
        /// With `--emit kubernetes`: the pods of a wave that run at once (at most its
        /// materials).
        #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..))]
        parallelism: u32,
    },
    /// Check a table file (its header, rules fingerprint and checksum) and print what it
    /// holds.
    Info {
        /// The table file (`<variant>-<material>.arbtb`).
        file: std::path::PathBuf,
        /// Print a JSON object instead of lines.
        #[arg(long)]
        json: bool,
    },
}

/// Prints a line on stdout; a closed pipe (`arbiter ... | head`) ends the program quietly.
fn emit(line: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{line}").is_err() {
        std::process::exit(0);
    }
}

/// A CLI failure: a message and an exit code.
struct Failure(String, u8);

fn usage(msg: impl Into<String>) -> Failure {
    Failure(msg.into(), 2)
}

fn main() -> ExitCode {
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let outcome = match cli.command {
        Command::Serve(args) => serve(&args),
        Command::Sleep { seconds } => {
            std::thread::sleep(std::time::Duration::from_secs(seconds));
            Ok(())
        }
        Command::Perft {
            variant,
            depth,
            fen,
            divide,
            keep,
            json,
        } => perft(&variant, depth, fen.as_deref(), divide, keep, json),
        Command::Moves { variant, fen } => moves(&variant, fen.as_deref()),
        Command::Judge {
            file,
            variant,
            max_games,
            result_convention,
            pdn,
            ndjson,
            strict,
            adjudicate,
            max_plies,
            tables_dir,
        } => {
            let output = if pdn {
                Output::Pdn
            } else if ndjson {
                Output::Ndjson
            } else {
                Output::Json
            };
            judge(
                &file,
                variant.as_deref(),
                max_games,
                &result_convention,
                output,
                strict,
                Adjudicating {
                    adjudication: arbiter_rules::adjudication::Adjudication {
                        tables: adjudicate == "tables",
                        max_plies: max_plies.map(|n| n as usize),
                    },
                    tables_dir,
                },
            )
        }
        Command::Tables(TablesCommand::Build {
            variant,
            pieces,
            out,
            material,
            wave,
            index,
            jobs,
            max_memory_mib,
            json,
        }) => {
            let what = match (material, wave, index, pieces) {
                (Some(m), ..) => Ok(BuildWhat::Material(m, pieces)),
                (None, Some(w), Some(i), Some(p)) => Ok(BuildWhat::OfWave(p, w, i)),
                (None, None, _, Some(p)) => Ok(BuildWhat::Set {
                    pieces: p,
                    options: arbiter::ops::build::SetOptions {
                        jobs: jobs as usize,
                        memory: max_memory_mib.map(|m| m.saturating_mul(1 << 20)),
                    },
                }),
                _ => Err(usage("give --pieces, or --material")),
            };
            what.and_then(|w| tables_build(&variant, w, &out, json))
        }
        Command::Tables(TablesCommand::Plan {
            variant,
            pieces,
            json,
            emit,
            parallelism,
        }) => tables_plan(&variant, pieces, json, emit.is_some(), parallelism),
        Command::Tables(TablesCommand::Info { file, json }) => tables_info(&file, json),
        Command::Match(args) => {
            // The words of each --engine, one list per occurrence.
            let engines = matches
                .subcommand_matches("match")
                .and_then(|m| m.get_occurrences::<String>("engine"))
                .map(|o| o.map(|words| words.cloned().collect()).collect())
                .unwrap_or_default();
            arbiter::referee::run(args, engines)
                .map_err(|arbiter::referee::Failure(m, c)| Failure(m, c))
        }
        Command::Openapi => {
            emit(&arbiter::openapi::document_json());
            Ok(())
        }
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(msg, code)) => {
            eprintln!("arbiter: {msg}");
            ExitCode::from(code)
        }
    }
}

fn serve(args: &ServeArgs) -> Result<(), Failure> {
    // Held until the server has stopped, so that the last lines are written.
    let _log = arbiter::telemetry::init(args.log_format);
    let config = args.config();
    actix_web::rt::System::new()
        .block_on(arbiter::run(config.clone()))
        .map_err(|e| Failure(format!("cannot serve on {}: {e}", config.addr), 1))
}

fn find_variant(id: &str) -> Result<&'static arbiter_rules::Variant, Failure> {
    ops::find_variant(id).map_err(|e| usage(e.problem().detail.clone()))
}

/// A failure of an operation: its problem's detail, with exit code 2 for what the command
/// line asked (a bad position, a bound) and 1 for the rest.
fn failed(e: ApiError) -> Failure {
    let code = if e.status() < 500 { 2 } else { 1 };
    Failure(e.problem().detail.clone(), code)
}

fn perft(
    variant: &str,
    depth: u32,
    fen: Option<&str>,
    divide: bool,
    keep: bool,
    json: bool,
) -> Result<(), Failure> {
    let v = find_variant(variant)?;
    let input = ops::perft::PerftInput {
        position: fen.map(str::to_string),
        depth,
        divide,
        keep,
    };
    let started = Instant::now();
    let count =
        ops::perft::count(v, &input, &arbiter_rules::Budget::unlimited()).map_err(failed)?;
    let seconds = started.elapsed().as_secs_f64();
    for m in count.divide.iter().flatten() {
        match m.routes {
            Some(n) if n > 1 => emit(&format!("{}: {} ({n} routes)", m.notation, m.nodes)),
            _ => emit(&format!("{}: {}", m.notation, m.nodes)),
        }
    }
    let nodes = count.nodes;
    let per_second = if seconds > 0.0 {
        (nodes as f64 / seconds).round() as u64
    } else {
        0
    };
    emit(&format!("nodes: {nodes}"));
    emit(&format!("time: {seconds:.3} s"));
    emit(&format!("leaves per second: {per_second}"));
    if json {
        let line = serde_json::json!({
            "variant": v.id(),
            "depth": depth,
            "nodes": nodes,
            "seconds": seconds,
            "leaves_per_second": per_second,
        });
        emit(&line.to_string());
    }
    Ok(())
}

fn moves(variant: &str, fen: Option<&str>) -> Result<(), Failure> {
    let v = find_variant(variant)?;
    let answer =
        ops::moves::list_moves(v, fen, &arbiter_rules::Budget::unlimited()).map_err(failed)?;
    let text = serde_json::to_string_pretty(&answer)
        .map_err(|e| Failure(format!("cannot write JSON: {e}"), 1))?;
    emit(&text);
    Ok(())
}

/// How `arbiter judge` prints its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Output {
    Json,
    Ndjson,
    Pdn,
}

/// Writes the answer of `arbiter judge` game by game.
struct JudgeWriter<W: std::io::Write> {
    out: W,
    output: Output,
    summary: PdnSummary,
}

impl<W: std::io::Write> JudgeWriter<W> {
    fn game(&mut self, g: &PdnGameResult) -> std::io::Result<()> {
        let first = self.summary.games == 0;
        self.summary.count(g);
        match self.output {
            Output::Ndjson => {
                serde_json::to_writer(&mut self.out, g)?;
                writeln!(self.out)
            }
            Output::Json => {
                // The pretty JSON of the whole answer, written one entry at a time.
                write!(
                    self.out,
                    "{}",
                    if first { "{\n  \"games\": [\n" } else { ",\n" }
                )?;
                let text = serde_json::to_string_pretty(g)?;
                for (i, line) in text.lines().enumerate() {
                    write!(self.out, "{}    {line}", if i == 0 { "" } else { "\n" })?;
                }
                Ok(())
            }
            Output::Pdn => {
                // Games in file order, a blank line between them; a game that could not be
                // judged is a comment saying why.
                if !first {
                    writeln!(self.out)?;
                }
                match (&g.pdn, &g.error) {
                    (Some(text), _) => writeln!(self.out, "{}", text.trim_end()),
                    (None, Some(e)) => writeln!(
                        self.out,
                        "{{game {} (line {}) could not be judged: {}: {}}}",
                        g.index + 1,
                        g.line,
                        e.code,
                        e.detail.replace(['{', '}'], "")
                    ),
                    (None, None) => Ok(()),
                }
            }
        }
    }

    fn finish(mut self) -> std::io::Result<()> {
        match self.output {
            Output::Ndjson => {
                serde_json::to_writer(
                    &mut self.out,
                    &serde_json::json!({ "summary": self.summary }),
                )?;
                writeln!(self.out)?;
            }
            Output::Json => {
                let games = if self.summary.games == 0 {
                    "{\n  \"games\": [],\n".to_string()
                } else {
                    "\n  ],\n".to_string()
                };
                let summary = serde_json::to_string_pretty(&self.summary)?.replace('\n', "\n  ");
                writeln!(self.out, "{games}  \"summary\": {summary}\n}}")?;
            }
            Output::Pdn => {}
        }
        self.out.flush()
    }
}

/// How `arbiter judge` adjudicates: the options and where its tables come from.
struct Adjudicating {
    adjudication: arbiter_rules::adjudication::Adjudication,
    tables_dir: Option<String>,
}

fn judge(
    file: &str,
    variant: Option<&str>,
    max_games: Option<usize>,
    convention: &str,
    output: Output,
    strict: bool,
    adjudicating: Adjudicating,
) -> Result<(), Failure> {
    use arbiter_rules::adjudication::ResultConvention;
    use std::io::{IsTerminal, Read};
    let Adjudicating {
        adjudication,
        tables_dir,
    } = adjudicating;
    let file_options = FileOptions {
        explicit: variant.map(find_variant).transpose()?,
        options: JudgeOptions {
            convention: ResultConvention::parse(convention)
                .ok_or_else(|| usage(format!("unknown result convention '{convention}'")))?,
            include_pdn: output == Output::Pdn,
            adjudication,
        },
        strict,
    };
    // The tables of the command: computed on first use as the service computes them, and
    // waited for as long as a build takes.
    let store = if adjudication.tables {
        let config = arbiter::config::TablesConfig {
            dir: tables_dir
                .filter(|d| !d.trim().is_empty())
                .map(std::path::PathBuf::from),
            build_wait: std::time::Duration::from_secs(7 * 24 * 3600),
            ..arbiter::config::TablesConfig::default()
        };
        Some(arbiter::tables::TableStore::from_config(&config).map_err(usage)?)
    } else {
        None
    };
    let (mut input, size): (Box<dyn Read>, Option<u64>) = if file == "-" {
        (Box::new(std::io::stdin().lock()), None)
    } else {
        let f = std::fs::File::open(file).map_err(|e| usage(format!("cannot read {file}: {e}")))?;
        let size = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
        (Box::new(f), size)
    };
    let progress = if std::io::stderr().is_terminal() {
        match size {
            Some(n) => indicatif::ProgressBar::new(n).with_style(
                indicatif::ProgressStyle::with_template(
                    "{wide_bar} {bytes}/{total_bytes} {msg} ({eta} left)",
                )
                .expect("a valid template"),
            ),
            None => indicatif::ProgressBar::new_spinner().with_style(
                indicatif::ProgressStyle::with_template("{spinner} {bytes} {msg}")
                    .expect("a valid template"),
            ),
        }
    } else {
        indicatif::ProgressBar::hidden()
    };
    let mut writer = JudgeWriter {
        out: std::io::BufWriter::new(std::io::stdout().lock()),
        output,
        summary: PdnSummary::new(),
    };
    // With --max-games, the entries are held until the whole file is known to be within it.
    let mut held = Vec::new();
    let mut counted = 0usize;
    let mut records = RecordStream::new(file_options);
    let mut first_fault: Option<String> = None;
    let mut buf = vec![0u8; 64 * 1024];
    let budget = arbiter_rules::Budget::unlimited();
    let closed = |e: std::io::Error| -> Failure {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            // `arbiter judge ... | head`: the reader has what it wanted.
            std::process::exit(0);
        }
        Failure(format!("cannot write the answer: {e}"), 1)
    };
    loop {
        let n = match input.read(&mut buf) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(usage(format!("cannot read {file}: {e}"))),
        };
        if n == 0 {
            records.finish();
        } else {
            records.push(&buf[..n]);
            progress.inc(n as u64);
        }
        while let Some(next) = records.next_game() {
            counted += 1;
            if max_games.is_some_and(|max| counted > max) {
                continue; // counted only, for the message
            }
            let entry = match next {
                NextGame::Entry(entry) => *entry,
                NextGame::Judge(game) => game.judge(store.as_ref(), &budget).map_err(failed)?,
            };
            if let Some(e) = entry
                .error
                .as_ref()
                .filter(|e| e.code == ProblemCode::PdnSyntax)
            {
                first_fault.get_or_insert_with(|| format!("{file}: {}", e.detail));
            }
            if max_games.is_some() {
                held.push(entry);
            } else {
                writer.game(&entry).map_err(closed)?;
            }
            progress.set_message(format!("{counted} games"));
        }
        if n == 0 {
            break;
        }
    }
    progress.finish_and_clear();
    if let Some(max) = max_games {
        if counted > max {
            return Err(usage(format!(
                "the PDN text has {counted} games; --max-games allows {max} (without it, any \
                 number of games is judged)"
            )));
        }
        for entry in &held {
            writer.game(entry).map_err(closed)?;
        }
    }
    writer.finish().map_err(closed)?;
    match first_fault {
        Some(fault) => Err(Failure(fault, 1)),
        None => Ok(()),
    }
}

/// What `arbiter tables` says about one table.
fn table_summary(
    table: &arbiter_rules::tables::Table,
    file_bytes: u64,
    seconds: Option<f64>,
) -> serde_json::Value {
    let s = table.stats();
    let mut line = serde_json::json!({
        "variant": table.variant(),
        "material": table.material().name(),
        "positions": s.positions,
        "wins": s.wins,
        "draws": s.draws,
        "losses": s.losses,
        "longest_win_plies": s.longest,
        "file_bytes": file_bytes,
        "memory_bytes": table.bytes(),
    });
    if let Some(r) = table.rule_stats() {
        line["cursed_wins"] = serde_json::json!(r.cursed_wins);
        line["blessed_losses"] = serde_json::json!(r.blessed_losses);
    }
    if let Some(seconds) = seconds {
        line["seconds"] = serde_json::json!(seconds);
    }
    line
}

/// One line of `arbiter tables` for a summary of [`table_summary`].
fn summary_line(name: &str, s: &serde_json::Value) -> String {
    let mut line = format!(
        "{name}: {} positions, {} wins, {} draws, {} losses, longest win {} plies, {} bytes",
        s["positions"], s["wins"], s["draws"], s["losses"], s["longest_win_plies"], s["file_bytes"]
    );
    if let (Some(c), Some(b)) = (s["cursed_wins"].as_u64(), s["blessed_losses"].as_u64()) {
        line.push_str(&format!(
            ", under the counting rules {c} wins and {b} losses drawn"
        ));
    }
    if let Some(seconds) = s["seconds"].as_f64() {
        line.push_str(&format!(", {seconds:.2} s"));
    }
    line
}

/// What `arbiter tables build` builds.
enum BuildWhat {
    /// Every material up to a number of pieces.
    Set {
        pieces: u32,
        options: arbiter::ops::build::SetOptions,
    },
    /// One material (within a number of pieces, if given).
    Material(String, Option<u32>),
    /// The material of an index of a wave of the plan of a number of pieces.
    OfWave(u32, u32, usize),
}

fn build_failure(e: arbiter::ops::build::BuildError) -> Failure {
    match e {
        arbiter::ops::build::BuildError::Usage(m) => usage(m),
        arbiter::ops::build::BuildError::Failed(m) => Failure(m, 1),
    }
}

fn tables_build(
    variant: &str,
    what: BuildWhat,
    out: &std::path::Path,
    json: bool,
) -> Result<(), Failure> {
    use arbiter::ops::build::{self as b, Event};
    use arbiter_rules::tables::{plan, supported, Material};
    use std::io::IsTerminal;
    let v = find_variant(variant)?;
    supported(v).map_err(|u| usage(format!("{} has no endgame tables: {}", v.id(), u.reason)))?;
    let progress = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(0).with_style(
            indicatif::ProgressStyle::with_template(
                "{msg:>10} {wide_bar} {human_pos}/{human_len} ({eta} left)",
            )
            .expect("a valid template"),
        )
    } else {
        indicatif::ProgressBar::hidden()
    };
    let show = |p: arbiter_rules::tables::Progress| {
        progress.set_message(p.material.name());
        progress.set_length(p.total);
        progress.set_position(p.done);
    };
    let started = Instant::now();
    let (pieces, done) = match what {
        BuildWhat::Set { pieces, options } => {
            let steps = plan(v, pieces);
            let on = |e: Event| match e {
                Event::Progress(p) => show(p),
                Event::Done(d) if !json => {
                    let line = done_line(d);
                    progress.suspend(|| emit(&line));
                }
                Event::Done(_) => {}
            };
            let done = b::build_set(v, &steps, out, options, &on).map_err(build_failure)?;
            (Some(pieces), done)
        }
        BuildWhat::Material(name, pieces) => {
            let m = Material::parse(&name).ok_or_else(|| {
                usage(format!(
                    "'{name}' is not a material: White's pieces, 'v', Black's (K a king, M a \
                     man, P a parachutist, N a knight), e.g. KKvK"
                ))
            })?;
            if let Some(p) = pieces.filter(|&p| m.pieces() > p) {
                return Err(usage(format!("{m} has more than {p} pieces")));
            }
            let d = b::build_material(v, m, out, &mut |p| show(p)).map_err(build_failure)?;
            if !json {
                progress.suspend(|| emit(&done_line(&d)));
            }
            (pieces, vec![d])
        }
        BuildWhat::OfWave(pieces, wave, index) => {
            let steps = plan(v, pieces);
            let m = b::material_of_wave(&steps, wave, index).map_err(build_failure)?;
            let d = b::build_material(v, m, out, &mut |p| show(p)).map_err(build_failure)?;
            if !json {
                progress.suspend(|| emit(&done_line(&d)));
            }
            (Some(pieces), vec![d])
        }
    };
    progress.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let lines: Vec<serde_json::Value> = done.iter().map(done_summary).collect();
    let positions: u64 = lines.iter().filter_map(|l| l["positions"].as_u64()).sum();
    let bytes: u64 = done.iter().map(|d| d.file_bytes).sum();
    let built = done.iter().filter(|d| !d.kept).count();
    if json {
        let answer = serde_json::json!({
            "variant": v.id(),
            "pieces": pieces,
            "tables": lines,
            "total": {
                "tables": lines.len(),
                "built": built,
                "kept": lines.len() - built,
                "positions": positions,
                "file_bytes": bytes,
                "seconds": seconds,
            },
        });
        emit(&answer.to_string());
    } else {
        emit(&format!(
            "total: {} tables ({built} built, {} kept), {positions} positions, {bytes} bytes, \
             {seconds:.2} s, in {}",
            lines.len(),
            lines.len() - built,
            out.display()
        ));
    }
    Ok(())
}

/// The summary of one material of a build.
fn done_summary(d: &arbiter::ops::build::Done) -> serde_json::Value {
    let mut s = match &d.table {
        Some(t) => table_summary(t, d.file_bytes, d.seconds),
        None => serde_json::json!({
            "material": d.material.name(),
            "file_bytes": d.file_bytes,
        }),
    };
    s["kept"] = serde_json::json!(d.kept);
    s
}

/// The line of one material of a build.
fn done_line(d: &arbiter::ops::build::Done) -> String {
    let name = d.material.name();
    match &d.table {
        Some(_) => {
            let mut line = summary_line(&name, &done_summary(d));
            if d.kept {
                line.push_str(", kept (its valid file was there)");
            }
            line
        }
        None => format!(
            "{name}: kept (its valid file was there), {} bytes",
            d.file_bytes
        ),
    }
}

fn tables_plan(
    variant: &str,
    pieces: u32,
    json: bool,
    kubernetes: bool,
    parallelism: u32,
) -> Result<(), Failure> {
    use arbiter::ops::build as b;
    let v = find_variant(variant)?;
    arbiter_rules::tables::supported(v)
        .map_err(|u| usage(format!("{} has no endgame tables: {}", v.id(), u.reason)))?;
    let steps = arbiter_rules::tables::plan(v, pieces);
    if kubernetes {
        emit(b::kubernetes(v, pieces, &steps, parallelism).trim_end());
        return Ok(());
    }
    if json {
        emit(&b::plan_json(v, pieces, &steps).to_string());
        return Ok(());
    }
    let answer = b::plan_json(v, pieces, &steps);
    let mut by_wave: Vec<&serde_json::Value> = answer["materials"]
        .as_array()
        .into_iter()
        .flatten()
        .collect();
    by_wave.sort_by_key(|m| m["wave"].as_u64());
    for m in by_wave {
        emit(&format!(
            "wave {}: {}: {} positions, {} file bytes, {} MiB to build, {} s ({})",
            m["wave"],
            m["material"].as_str().unwrap_or_default(),
            m["positions"],
            m["file_bytes"],
            m["memory_bytes"].as_u64().unwrap_or(0).div_ceil(1 << 20),
            m["seconds"],
            m["method"].as_str().unwrap_or_default(),
        ));
    }
    let t = &answer["total"];
    emit(&format!(
        "total: {} materials in {} waves, {} positions, {} file bytes, largest build {} MiB \
         ({}), {} s of work ({:.1} pod-hours), {} s with a pod per material",
        t["materials"],
        t["waves"],
        t["positions"],
        t["file_bytes"],
        t["largest_memory_bytes"]
            .as_u64()
            .unwrap_or(0)
            .div_ceil(1 << 20),
        t["largest_memory_material"].as_str().unwrap_or("-"),
        t["seconds"],
        t["seconds"].as_f64().unwrap_or(0.0) / 3600.0,
        t["critical_path_seconds"],
    ));
    Ok(())
}

fn tables_info(file: &std::path::Path, json: bool) -> Result<(), Failure> {
    let table = arbiter::tables::load_file(file)
        .map_err(|e| Failure(format!("{}: {e}", file.display()), 1))?;
    let size = std::fs::metadata(file).map_or(0, |m| m.len());
    let summary = table_summary(&table, size, None);
    if json {
        emit(&summary.to_string());
    } else {
        emit(&summary_line(
            &format!("{} {}", table.variant(), table.material()),
            &summary,
        ));
    }
    Ok(())
}
