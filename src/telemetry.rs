//! Logging and tracing, set up in one place.
//!
//! `ARBITER_LOG`, else `RUST_LOG`, filters (default `info`); `ARBITER_LOG_FORMAT=json` writes one JSON object per
//! line, anything else human-readable lines. Each request runs in a span carrying its request
//! id (the client's `X-Request-Id`, or a new one), which is also returned in the
//! `x-request-id` response header; when it is answered, one access-log event (target
//! `arbiter::access`) gives its method, route, target, status and latency. The probes and
//! `/metrics` are left out of the access log unless `ARBITER_LOG_PROBES` is set
//! ([`crate::http::frame`]).

use tracing_subscriber::EnvFilter;

use crate::config::LogFormat;

/// Most log lines waiting for the writer thread; past it, a thread that logs waits (no line is
/// dropped).
pub const BUFFERED_LINES: usize = 64 * 1024;

/// Installs the global subscriber. Lines are formatted on the thread that logs and written to
/// stdout by a thread of their own, in batches (a buffered writer flushed whenever the queue is
/// empty), so a request does not wait for a write to stdout. Keep the returned guard alive
/// for as long as the process logs: dropping it writes what is left. Calling it twice is
/// harmless (the second subscriber is ignored).
pub fn init(format: LogFormat) -> tracing_appender::non_blocking::WorkerGuard {
    let filter = EnvFilter::try_from_env("ARBITER_LOG")
        .or_else(|_| EnvFilter::try_from_default_env())
        .unwrap_or_else(|_| EnvFilter::new("info"));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stdout());
    let (writer, guard) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .lossy(false)
        .buffered_lines_limit(BUFFERED_LINES)
        .thread_name("arbiter-log")
        .finish(std::io::BufWriter::with_capacity(
            64 * 1024,
            std::io::stdout(),
        ));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_target(true)
        .with_ansi(ansi);
    let _ = match format {
        LogFormat::Json => builder
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .try_init(),
        LogFormat::Pretty => builder.try_init(),
    };
    guard
}
