//! Service configuration and request bounds.

/// Largest accepted JSON request body, in bytes (256 KiB).
pub const MAX_BODY_BYTES: usize = 256 * 1024;

/// Most moves accepted in one `/play` or `/judge` request.
pub const MAX_MOVES: usize = 1000;

/// Default listen address of `arbiter serve`.
pub const DEFAULT_ADDR: &str = "0.0.0.0:8080";

/// How logs are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogFormat {
    /// One JSON object per line (`ARBITER_LOG_FORMAT=json`).
    Json,
    /// Human-readable lines.
    Pretty,
}

impl LogFormat {
    /// Reads `ARBITER_LOG_FORMAT` (`json` selects JSON; anything else is human-readable).
    pub fn from_env() -> LogFormat {
        match std::env::var("ARBITER_LOG_FORMAT") {
            Ok(v) if v.eq_ignore_ascii_case("json") => LogFormat::Json,
            _ => LogFormat::Pretty,
        }
    }
}

/// Settings of a server instance.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to bind, e.g. `0.0.0.0:8080` or `127.0.0.1:0` (any free port).
    pub addr: String,
    /// Worker threads; `None` = one per CPU core.
    pub workers: Option<usize>,
}

impl Config {
    /// A configuration binding `addr` with the default number of workers.
    pub fn new(addr: impl Into<String>) -> Config {
        Config {
            addr: addr.into(),
            workers: None,
        }
    }
}
