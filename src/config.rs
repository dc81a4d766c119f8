//! Service configuration and request bounds.
//!
//! `arbiter serve` reads every setting from a flag with an environment fallback
//! ([`ServeArgs`]); the defaults suit a container (listen on `0.0.0.0:8080`, one worker per
//! CPU the process may use, JSON-friendly logs when `ARBITER_LOG_FORMAT=json`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Default largest accepted JSON request body, in bytes (256 KiB).
pub const MAX_BODY_BYTES: usize = 256 * 1024;

/// Most moves accepted in one `/play` or `/judge` request.
pub const MAX_MOVES: usize = 1000;

/// Default listen address of `arbiter serve`.
pub const DEFAULT_ADDR: &str = "0.0.0.0:8080";

/// Default request timeout, in seconds.
pub const DEFAULT_REQUEST_TIMEOUT_SECS: u64 = 10;

/// Default keep-alive of idle client connections, in seconds.
pub const DEFAULT_KEEP_ALIVE_SECS: u64 = 75;

/// Default graceful-shutdown bound, in seconds.
pub const DEFAULT_SHUTDOWN_TIMEOUT_SECS: u64 = 20;

/// Default largest number of pieces of a position whose endgame table is computed on first
/// use.
pub const DEFAULT_TABLES_BUILTIN_PIECES: u32 = 4;

/// Default bound on the positions of a table computed on first use: 50 million, the largest
/// 4-piece tables of the Canadian board (KMvKM, 45 million, a build that peaks at about 610 MiB)
/// and not Frisian's KMvKM (162 million with the king runs, about 2.6 GiB). Larger tables are
/// served only from prebuilt files.
pub const DEFAULT_TABLES_BUILTIN_MAX_POSITIONS: u64 = 50_000_000;

/// Default memory budget of the endgame tables computed on first use and of the build
/// computing them, together, in bytes (640 MiB): the largest 4-piece first-use build
/// (Canadian KMvKM) fits it alone.
pub const DEFAULT_TABLES_MEMORY_BYTES: u64 = 640 * 1024 * 1024;

/// Default time a request waits for an endgame table being computed, in seconds.
pub const DEFAULT_TABLES_BUILD_WAIT_SECS: u64 = 5;

/// Where the endgame tables come from and how much memory they may take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TablesConfig {
    /// A directory of prebuilt table files (`*.arbtb`, from `arbiter tables build`), read at
    /// startup.
    pub dir: Option<std::path::PathBuf>,
    /// Positions with at most this many pieces have their tables computed on first use (0:
    /// none).
    pub builtin_pieces: u32,
    /// The most positions a table computed on first use may have: a build holds about 8 bytes
    /// a position while it solves, so this bounds a replica's memory.
    pub builtin_max_positions: u64,
    /// Memory budget of the tables computed on first use and the build running, together, in
    /// bytes: a build starts only when its estimated peak fits beside the tables kept (the
    /// least recently used variants' are dropped for it), and a material whose build alone
    /// passes it is not computed.
    pub memory_bytes: u64,
    /// How long a request waits for a table being computed before it is answered 503
    /// `endgame-building` (the build goes on).
    pub build_wait: Duration,
}

impl Default for TablesConfig {
    fn default() -> Self {
        TablesConfig {
            dir: None,
            builtin_pieces: DEFAULT_TABLES_BUILTIN_PIECES,
            builtin_max_positions: DEFAULT_TABLES_BUILTIN_MAX_POSITIONS,
            memory_bytes: DEFAULT_TABLES_MEMORY_BYTES,
            build_wait: Duration::from_secs(DEFAULT_TABLES_BUILD_WAIT_SECS),
        }
    }
}

/// Default work budget of a `/moves`, `/play`, `/judge` or `/perft` request, in work units
/// (about half a second of CPU). The heaviest real game of the test archives needs under 1 % of
/// it; the heaviest legal position we know (22 flying kings on a Frisian board) needs 6.2
/// million; perft reaches depth 8 of International from the start.
pub const DEFAULT_WORK_BUDGET: u64 = 10_000_000;
/// Default work budget of a `/v1/judge/pdn` request (up to 200 games), in work units (one to
/// two seconds of CPU). The heaviest 200 real games of the test archives need under a tenth of
/// it (`tests/budgets.rs`).
pub const DEFAULT_PDN_WORK_BUDGET: u64 = 25_000_000;
/// Work tried on the I/O worker before a request moves to the engine pool.
pub const DEFAULT_INLINE_UNITS: u64 = 20_000;

/// How engine work is bounded and where it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Engine jobs running at once (the pool's threads); more are refused 503 `overloaded`.
    pub max_jobs: usize,
    /// Budget of a `/moves`, `/play`, `/judge` or `/perft` request, in work units.
    pub work_budget: u64,
    /// Budget of a `/v1/judge/pdn` request, in work units.
    pub pdn_work_budget: u64,
    /// Work tried on the I/O worker first.
    pub inline_units: u64,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            max_jobs: default_max_jobs(),
            work_budget: DEFAULT_WORK_BUDGET,
            pdn_work_budget: DEFAULT_PDN_WORK_BUDGET,
            inline_units: DEFAULT_INLINE_UNITS,
        }
    }
}

/// One engine slot per CPU the process may use (cgroup quotas included).
pub fn default_max_jobs() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

/// Default bound on the bytes of a streamed file, as sent and once decoded (1 GiB).
pub const DEFAULT_STREAM_MAX_BYTES: u64 = 1024 * 1024 * 1024;

/// Default bound on the time of a stream, in seconds (10 minutes).
pub const DEFAULT_STREAM_MAX_SECONDS: u64 = 600;

/// Default longest wait for the next bytes of the body, in seconds.
pub const DEFAULT_STREAM_IDLE_SECONDS: u64 = 30;

/// Default most stream units at once in a process: 64 plain or gzip streams, or 7 brotli or
/// zstd ones (a brotli or zstd decoding counts 9 units).
pub const DEFAULT_STREAM_UNITS: usize = 64;

/// The bounds of a streamed file (app data; the defaults when absent).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamLimits {
    /// Most bytes of the body, as sent and once decoded.
    pub max_bytes: u64,
    /// Longest time from the request to the last line.
    pub max_time: Duration,
    /// Longest wait for the next bytes of the body.
    pub idle: Duration,
    /// Most stream units at once (the stream units of the PDN stream: each stream holds up to a game's bytes
    /// and its decoders' windows); more are answered 503 `overloaded` with `Retry-After`.
    pub max_streams: usize,
}

impl Default for StreamLimits {
    fn default() -> Self {
        StreamLimits {
            max_bytes: DEFAULT_STREAM_MAX_BYTES,
            max_time: Duration::from_secs(DEFAULT_STREAM_MAX_SECONDS),
            idle: Duration::from_secs(DEFAULT_STREAM_IDLE_SECONDS),
            max_streams: DEFAULT_STREAM_UNITS,
        }
    }
}

/// Settings of the HTTP layer.
#[derive(Clone, Debug, Default)]
pub struct HttpConfig {
    /// Log the probes (`/healthz`, `/readyz`, `/metrics`) in the access log too.
    pub log_probes: bool,
    /// The origins allowed to call the API from a web page: `None` for any (`*`), an empty
    /// list for none (no CORS headers at all).
    pub cors_origins: Option<Vec<String>>,
    /// A request not answered in this time gets 503 `request-timeout` (set by the server from
    /// its configuration; `None`: no timeout).
    pub request_timeout: Option<std::time::Duration>,
}

impl HttpConfig {
    /// Reads the CORS setting: `*` for any origin, `none` (or empty) for no CORS, else a
    /// comma-separated list of origins (`https://a.example,https://b.example`).
    pub fn parse_origins(text: &str) -> Option<Vec<String>> {
        let t = text.trim();
        if t == "*" {
            return None;
        }
        if t.is_empty() || t.eq_ignore_ascii_case("none") {
            return Some(Vec::new());
        }
        Some(
            t.split(',')
                .map(|o| o.trim().trim_end_matches('/').to_string())
                .filter(|o| !o.is_empty())
                .collect(),
        )
    }
}

/// How logs are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// One JSON object per line.
    Json,
    /// Human-readable lines.
    #[value(name = "text", alias = "pretty")]
    Pretty,
}

/// The flags of `arbiter serve`, each with an environment fallback.
#[derive(clap::Args, Clone, Debug, PartialEq, Eq)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "ARBITER_ADDR", default_value = DEFAULT_ADDR)]
    pub addr: String,
    /// Worker threads (default: one per CPU the process may use, cgroup quotas included).
    #[arg(long, env = "ARBITER_WORKERS", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub workers: Option<u16>,
    /// Largest accepted request body, in bytes (413 above).
    #[arg(long, env = "ARBITER_BODY_LIMIT", default_value_t = MAX_BODY_BYTES,
          value_parser = parse_body_limit)]
    pub body_limit: usize,
    /// Request timeout in seconds: the time a client has to send its request head, and the
    /// time a request may take in the service before it is answered 503 `request-timeout`.
    #[arg(long, env = "ARBITER_REQUEST_TIMEOUT", default_value_t = DEFAULT_REQUEST_TIMEOUT_SECS,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub request_timeout: u64,
    /// Keep-alive of idle client connections, in seconds (0 disables keep-alive).
    #[arg(long, env = "ARBITER_KEEP_ALIVE", default_value_t = DEFAULT_KEEP_ALIVE_SECS,
          value_parser = clap::value_parser!(u64).range(0..=3600))]
    pub keep_alive: u64,
    /// On SIGTERM/SIGINT, how long in-flight requests may take to finish, in seconds.
    #[arg(long, env = "ARBITER_SHUTDOWN_TIMEOUT", default_value_t = DEFAULT_SHUTDOWN_TIMEOUT_SECS,
          value_parser = clap::value_parser!(u64).range(0..=3600))]
    pub shutdown_timeout: u64,
    /// On SIGTERM/SIGINT, seconds to keep serving with `/readyz` answering 503 before the
    /// listener closes (lets a load balancer notice; 0 with a Kubernetes preStop sleep).
    #[arg(long, env = "ARBITER_SHUTDOWN_DELAY", default_value_t = 0,
          value_parser = clap::value_parser!(u64).range(0..=600))]
    pub shutdown_delay: u64,
    /// Address of the admin listener: `/healthz`, `/readyz` and `/metrics` on a worker thread
    /// of their own, answered at once however busy the API is (point the orchestrator's probes
    /// and the metrics scraper at it). With one, `/metrics` is served there only; the probes
    /// are on `--addr` as well. Empty: none (all three on `--addr`).
    #[arg(long, env = "ARBITER_ADMIN_ADDR", default_value = "")]
    pub admin_addr: String,
    /// Engine jobs running at once (default: one per CPU the process may use); a request that
    /// needs the engine pool when every slot is busy is answered 503 `overloaded` at once.
    #[arg(long, env = "ARBITER_MAX_JOBS", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub max_jobs: Option<u16>,
    /// Engine work budget of a `/moves`, `/play` or `/judge` request, in work units (422
    /// `budget-exceeded` above).
    #[arg(long, env = "ARBITER_WORK_BUDGET", default_value_t = DEFAULT_WORK_BUDGET,
          value_parser = clap::value_parser!(u64).range(1000..))]
    pub work_budget: u64,
    /// Engine work budget of a `/v1/judge/pdn` request (a whole file), in work units.
    #[arg(long, env = "ARBITER_PDN_WORK_BUDGET",
          default_value_t = DEFAULT_PDN_WORK_BUDGET,
          value_parser = clap::value_parser!(u64).range(1000..))]
    pub pdn_work_budget: u64,
    /// Most bytes of a PDN file judged as a stream (`Accept: application/x-ndjson`), as sent
    /// and once decoded; past it the stream ends with an error line.
    #[arg(long, env = "ARBITER_PDN_STREAM_MAX_BYTES",
          default_value_t = DEFAULT_STREAM_MAX_BYTES,
          value_parser = clap::value_parser!(u64).range(1024..))]
    pub pdn_stream_max_bytes: u64,
    /// Longest time a PDN file may be judged as a stream, in seconds; past it the stream ends
    /// with an error line.
    #[arg(long, env = "ARBITER_PDN_STREAM_MAX_SECONDS",
          default_value_t = DEFAULT_STREAM_MAX_SECONDS,
          value_parser = clap::value_parser!(u64).range(1..=86400))]
    pub pdn_stream_max_seconds: u64,
    /// Log format: `json` (one object per line) or `text`. The filter is `ARBITER_LOG` or
    /// `RUST_LOG` (default `info`).
    #[arg(
        long,
        env = "ARBITER_LOG_FORMAT",
        value_enum,
        ignore_case = true,
        default_value = "text"
    )]
    pub log_format: LogFormat,
    /// Origins allowed to call the API from a web page (CORS): `*` for any (the default:
    /// every answer is public and no credentials are used), `none` for no CORS headers, or a
    /// comma-separated list such as `https://a.example,https://b.example`.
    #[arg(long, env = "ARBITER_CORS_ORIGINS", default_value = "*")]
    pub cors_origins: String,
    /// Also write the probes (`/healthz`, `/readyz`) and `/metrics` to the access log.
    #[arg(long, env = "ARBITER_LOG_PROBES", default_value_t = false,
          action = clap::ArgAction::Set, num_args = 0..=1, default_missing_value = "true")]
    pub log_probes: bool,
    /// A directory of prebuilt endgame tables (`*.arbtb` files written by `arbiter tables
    /// build`), read at startup; a file whose header does not match is skipped with a
    /// warning. Empty: none.
    #[arg(long, env = "ARBITER_TABLES_DIR", default_value = "")]
    pub tables_dir: String,
    /// Positions with at most this many pieces have their endgame table computed on first
    /// use (0: none; prebuilt tables are served whatever their size).
    #[arg(long, env = "ARBITER_TABLES_BUILTIN_PIECES", default_value_t = DEFAULT_TABLES_BUILTIN_PIECES,
          value_parser = clap::value_parser!(u32).range(0..=6))]
    pub tables_builtin_pieces: u32,
    /// The most positions a table computed on first use may have (a build holds about 8 bytes
    /// a position; a table solved over an explicit graph counts its estimated working memory
    /// in units of 8 bytes): a larger table is served only from a prebuilt file.
    #[arg(long, env = "ARBITER_TABLES_BUILTIN_MAX_POSITIONS",
          default_value_t = DEFAULT_TABLES_BUILTIN_MAX_POSITIONS,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub tables_builtin_max_positions: u64,
    /// Memory budget, in bytes, of the endgame tables computed on first use and the build
    /// computing them, together: a build starts when its estimated peak fits beside the
    /// tables kept (the tables of the variants used least recently are dropped for it); a
    /// material whose build alone would pass it is not computed (served from prebuilt files
    /// only). A replica's memory limit is this plus the service's own (docs/operations.md).
    #[arg(long, env = "ARBITER_TABLES_MEMORY_BYTES", default_value_t = DEFAULT_TABLES_MEMORY_BYTES,
          value_parser = clap::value_parser!(u64).range(1024 * 1024..))]
    pub tables_memory_bytes: u64,
    /// Seconds a request waits for an endgame table being computed before it is answered 503
    /// `endgame-building` with `Retry-After` (the computation goes on).
    #[arg(long, env = "ARBITER_TABLES_BUILD_WAIT", default_value_t = DEFAULT_TABLES_BUILD_WAIT_SECS,
          value_parser = clap::value_parser!(u64).range(0..=3600))]
    pub tables_build_wait: u64,
}

fn parse_body_limit(s: &str) -> Result<usize, String> {
    let n: usize = s
        .trim()
        .parse()
        .map_err(|e| format!("'{s}' is not a number of bytes: {e}"))?;
    if !(1024..=64 * 1024 * 1024).contains(&n) {
        return Err(format!(
            "{n} bytes is out of range (1024 to {} bytes)",
            64 * 1024 * 1024
        ));
    }
    Ok(n)
}

impl ServeArgs {
    /// The server configuration these flags describe.
    pub fn config(&self) -> Config {
        Config {
            addr: self.addr.clone(),
            admin_addr: Some(self.admin_addr.trim().to_string()).filter(|a| !a.is_empty()),
            workers: self.workers.map(usize::from),
            body_limit: self.body_limit,
            request_timeout: Duration::from_secs(self.request_timeout),
            keep_alive: Duration::from_secs(self.keep_alive),
            shutdown_timeout: Duration::from_secs(self.shutdown_timeout),
            shutdown_delay: Duration::from_secs(self.shutdown_delay),
            shutdown: ShutdownFlag::default(),
            engine: EngineConfig {
                max_jobs: self.max_jobs.map_or_else(default_max_jobs, usize::from),
                work_budget: self.work_budget,
                pdn_work_budget: self.pdn_work_budget,
                ..EngineConfig::default()
            },
            pdn_stream: StreamLimits {
                max_bytes: self.pdn_stream_max_bytes,
                max_time: Duration::from_secs(self.pdn_stream_max_seconds),
                ..StreamLimits::default()
            },
            tables: TablesConfig {
                dir: Some(self.tables_dir.trim())
                    .filter(|d| !d.is_empty())
                    .map(std::path::PathBuf::from),
                builtin_pieces: self.tables_builtin_pieces,
                builtin_max_positions: self.tables_builtin_max_positions,
                memory_bytes: self.tables_memory_bytes,
                build_wait: Duration::from_secs(self.tables_build_wait),
            },
            http: HttpConfig {
                log_probes: self.log_probes,
                cors_origins: HttpConfig::parse_origins(&self.cors_origins),
                request_timeout: None,
            },
        }
    }
}

/// Set once shutdown has started: `/readyz` then answers 503. Clones share the flag.
#[derive(Clone, Debug, Default)]
pub struct ShutdownFlag(Arc<AtomicBool>);

impl ShutdownFlag {
    /// Marks the server as shutting down.
    pub fn start(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether shutdown has started.
    pub fn is_shutting_down(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// The body limit of a running app (app data read by the body extractor).
#[derive(Clone, Copy, Debug)]
pub struct BodyLimit(pub usize);

/// Settings of a server instance.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to bind, e.g. `0.0.0.0:8080` or `127.0.0.1:0` (any free port).
    pub addr: String,
    /// Address of the admin listener (probes and metrics only), if any; with one, `/metrics`
    /// is not served on `addr`.
    pub admin_addr: Option<String>,
    /// Worker threads; `None` = one per CPU core.
    pub workers: Option<usize>,
    /// Largest accepted request body, in bytes.
    pub body_limit: usize,
    /// Client request-head timeout and per-request handling timeout.
    pub request_timeout: Duration,
    /// Keep-alive of idle connections (zero disables it).
    pub keep_alive: Duration,
    /// Bound on the graceful shutdown.
    pub shutdown_timeout: Duration,
    /// Time between the signal (readiness 503) and closing the listener.
    pub shutdown_delay: Duration,
    /// Flipped when shutdown starts (shared with `/readyz`).
    pub shutdown: ShutdownFlag,
    /// Engine slots and work budgets.
    pub engine: EngineConfig,
    /// Bounds of a PDN file judged as a stream.
    pub pdn_stream: StreamLimits,
    /// Endgame tables: prebuilt files and the tables computed on first use.
    pub tables: TablesConfig,
    /// CORS origins and the access log.
    pub http: HttpConfig,
}

impl Config {
    /// A configuration binding `addr` with the defaults of `arbiter serve`.
    pub fn new(addr: impl Into<String>) -> Config {
        Config {
            addr: addr.into(),
            admin_addr: None,
            workers: None,
            body_limit: MAX_BODY_BYTES,
            request_timeout: Duration::from_secs(DEFAULT_REQUEST_TIMEOUT_SECS),
            keep_alive: Duration::from_secs(DEFAULT_KEEP_ALIVE_SECS),
            shutdown_timeout: Duration::from_secs(DEFAULT_SHUTDOWN_TIMEOUT_SECS),
            shutdown_delay: Duration::ZERO,
            shutdown: ShutdownFlag::default(),
            engine: EngineConfig::default(),
            pdn_stream: StreamLimits::default(),
            tables: TablesConfig::default(),
            http: HttpConfig::default(),
        }
    }
}
