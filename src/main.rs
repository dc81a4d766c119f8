//! The `arbiter` command: serve the API, run perft, list moves, print the API document.

use std::process::ExitCode;
use std::time::Instant;

use arbiter::api::moves::list_moves;
use arbiter::config::ServeArgs;
use clap::{Parser, Subcommand};

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
    /// Adjudicate a PDN file: print the `POST /v1/judge/pdn` answer (pretty JSON), or with
    /// `--pdn` the file as canonical PDN 3.0 text, each game's result set from the judgement.
    Judge {
        /// The PDN file (`-` reads standard input).
        file: String,
        /// Judge every game under this variant id, whatever its tags say.
        #[arg(long)]
        variant: Option<String>,
        /// Most games judged; a file with more is refused (exit code 2).
        #[arg(long, default_value_t = arbiter::api::pdn::MAX_GAMES)]
        max_games: usize,
        /// Whose score the results write first: `first-mover` (PDN 3.0: `1-0` is a Black win
        /// in English, Pool and Thai) or `white-first` (`1-0` is always a White win).
        #[arg(long, default_value = "first-mover", value_parser = ["first-mover", "white-first"])]
        result_convention: String,
        /// Print the games as canonical PDN text instead of the JSON answer: the `Result` tag
        /// set from the judgement, illegal moves and the readings a record needed in comments.
        #[arg(long)]
        pdn: bool,
        /// Refuse a file that is not PDN 3.0 as the standard's grammar writes it: print where
        /// it first breaks the grammar and exit with code 1.
        #[arg(long)]
        strict: bool,
    },
    /// Print the OpenAPI document (pretty JSON).
    Openapi,
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
    let cli = Cli::parse();
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
            strict,
        } => judge(
            &file,
            variant.as_deref(),
            max_games,
            &result_convention,
            (pdn, strict),
        ),
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
    arbiter_rules::variant_named(id).ok_or_else(|| {
        usage(format!(
            "unknown variant '{id}'; known variants: {}",
            arbiter_rules::ids().join(", ")
        ))
    })
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
    let pos = match fen {
        Some(f) => v
            .parse_fen(f)
            .map_err(|e| usage(format!("invalid FEN: {e}")))?,
        None => v.start(),
    };
    let limit = |e: arbiter_rules::GenError| usage(e.to_string());
    let routes = if keep {
        arbiter_rules::Routes::Each
    } else {
        arbiter_rules::Routes::Merged
    };
    let unlimited = arbiter_rules::Budget::unlimited();
    let started = Instant::now();
    let nodes = if divide {
        // The split of the HTTP answer: the moves in the order and notation of `/moves`.
        let names = v.list_moves(&pos, &unlimited).map_err(limit)?;
        let split =
            arbiter_rules::divide_with(v, &pos, depth, routes, &unlimited).map_err(limit)?;
        let named = arbiter::api::perft::name_divide(v, depth, &split, &names, routes)
            .map_err(|e| Failure(e.problem().detail.clone(), 1))?;
        for m in &named {
            match m.routes {
                Some(n) if n > 1 => emit(&format!("{}: {} ({n} routes)", m.notation, m.nodes)),
                _ => emit(&format!("{}: {}", m.notation, m.nodes)),
            }
        }
        if depth == 0 {
            1
        } else {
            named.iter().map(|m| m.nodes).sum()
        }
    } else {
        arbiter_rules::count_leaves(v, &pos, depth, routes, &unlimited).map_err(limit)?
    };
    let seconds = started.elapsed().as_secs_f64();
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
    let v = arbiter::api::find_variant(variant).map_err(|e| usage(e.problem().detail.clone()))?;
    let answer = list_moves(v, fen, &arbiter_rules::Budget::unlimited())
        .map_err(|e| usage(e.problem().detail.clone()))?;
    let text = serde_json::to_string_pretty(&answer)
        .map_err(|e| Failure(format!("cannot write JSON: {e}"), 1))?;
    emit(&text);
    Ok(())
}

fn judge(
    file: &str,
    variant: Option<&str>,
    max_games: usize,
    convention: &str,
    (pdn, strict): (bool, bool),
) -> Result<(), Failure> {
    use arbiter_rules::adjudication::{ReadOptions, ResultConvention};
    use std::io::Read;
    let explicit = variant.map(find_variant).transpose()?;
    let options = ReadOptions {
        convention: ResultConvention::parse(convention)
            .ok_or_else(|| usage(format!("unknown result convention '{convention}'")))?,
        ..ReadOptions::default()
    };
    let mut bytes = Vec::new();
    let read = if file == "-" {
        std::io::stdin().read_to_end(&mut bytes)
    } else {
        std::fs::File::open(file).and_then(|mut f| f.read_to_end(&mut bytes))
    };
    read.map_err(|e| usage(format!("cannot read {file}: {e}")))?;
    let text = arbiter::api::pdn::decode_pdn(&bytes);
    if strict {
        arbiter::api::pdn::check_strict(&text, &arbiter_rules::Budget::unlimited())
            .map_err(|e| Failure(format!("{file}: {}", e.problem().detail), 1))?;
    }
    let answer = arbiter::api::pdn::judge_pdn_text(
        &text,
        explicit,
        max_games,
        options,
        pdn,
        &arbiter_rules::Budget::unlimited(),
    )
    .map_err(|e| usage(e.problem().detail.clone()))?;
    if pdn {
        // Games in file order, a blank line between them; a game that could not be judged is
        // a comment saying why.
        let games: Vec<String> = answer
            .games
            .iter()
            .map(|g| match (&g.pdn, &g.error) {
                (Some(text), _) => text.clone(),
                (None, Some(e)) => format!(
                    "{{game {} (line {}) could not be judged: {}: {}}}\n",
                    g.index + 1,
                    g.line,
                    e.code,
                    e.detail.replace(['{', '}'], "")
                ),
                (None, None) => String::new(),
            })
            .collect();
        emit(games.join("\n").trim_end());
        return Ok(());
    }
    let text = serde_json::to_string_pretty(&answer)
        .map_err(|e| Failure(format!("cannot write JSON: {e}"), 1))?;
    emit(&text);
    Ok(())
}
