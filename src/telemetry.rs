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

/// Installs the global subscriber. Calling it twice is harmless (the second call is ignored).
pub fn init(format: LogFormat) {
    let filter = EnvFilter::try_from_env("ARBITER_LOG")
        .or_else(|_| EnvFilter::try_from_default_env())
        .unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(true)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stdout()));
    let _ = match format {
        LogFormat::Json => builder
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .try_init(),
        LogFormat::Pretty => builder.try_init(),
    };
}
