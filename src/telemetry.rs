//! Logging and tracing, set up in one place.
//!
//! `ARBITER_LOG`, else `RUST_LOG`, filters (default `info`); `ARBITER_LOG_FORMAT=json`
//! writes one JSON object per line, anything else human-readable lines (tracing-subscriber's
//! own formats, both). Each request has an id (the client's `X-Request-Id`, or a new one),
//! returned in the `x-request-id` response header and, at DEBUG, carried by a span around the
//! request's handling; when it is answered, one access-log event (target `arbiter::access`)
//! gives its method, route, target, status, latency and request id. The probes and `/metrics`
//! are left out of the access log unless `ARBITER_LOG_PROBES` is set (`http::middleware::frame`).
//!
//! Lines are formatted on the thread that logs and handed to tracing-appender's non-blocking
//! writer, whose thread writes them to stdout, every line waiting in one write. It is set up
//! not to drop lines: when its queue is full, a thread that logs waits for room, so a stdout
//! that cannot keep up slows the service down rather than losing lines or filling memory.

use std::io::{BufWriter, IsTerminal};

use tracing::Subscriber;
use tracing_appender::non_blocking::{NonBlockingBuilder, WorkerGuard};
use tracing_subscriber::fmt::{self, MakeWriter};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer};

use crate::config::LogFormat;

/// The target of the access-log event (`http::middleware::frame`).
pub const ACCESS_TARGET: &str = "arbiter::access";

/// Installs the global subscriber, writing to stdout through a non-blocking, non-lossy
/// writer. Keep the returned guard alive for as long as the process logs: dropping it writes
/// what is left. Calling it twice is harmless (the second subscriber is ignored).
pub fn init(format: LogFormat) -> WorkerGuard {
    let filter = EnvFilter::try_from_env("ARBITER_LOG")
        .or_else(|_| EnvFilter::try_from_default_env())
        .unwrap_or_else(|_| EnvFilter::new("info"));
    let ansi = std::io::stdout().is_terminal();
    // The worker flushes after every batch it takes, so the buffer makes a batch one write.
    let (writer, guard) = NonBlockingBuilder::default()
        .lossy(false)
        .thread_name("arbiter-log")
        .finish(BufWriter::new(std::io::stdout()));
    let _ = subscriber(format, filter, writer, ansi).try_init();
    guard
}

/// The subscriber writing events that pass `filter` in `format` to `writer`.
pub fn subscriber<W>(
    format: LogFormat,
    filter: EnvFilter,
    writer: W,
    ansi: bool,
) -> impl Subscriber + Send + Sync
where
    W: for<'a> MakeWriter<'a> + Send + Sync + 'static,
{
    let lines = match format {
        LogFormat::Json => fmt::layer()
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .with_writer(writer)
            .boxed(),
        LogFormat::Pretty => fmt::layer().with_ansi(ansi).with_writer(writer).boxed(),
    };
    tracing_subscriber::registry().with(filter).with(lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::sync::{Arc, Mutex};

    /// An output that keeps what it is given.
    #[derive(Clone, Default)]
    struct Capture(Arc<Mutex<Vec<u8>>>);

    impl Write for Capture {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// The lines written for many access events through the non-blocking writer, set up as
    /// [`init`] does; every line is there once the guard is dropped.
    fn access_lines(format: LogFormat, events: usize) -> Vec<String> {
        let out = Capture::default();
        let (writer, guard) = NonBlockingBuilder::default()
            .lossy(false)
            .buffered_lines_limit(16)
            .finish(BufWriter::new(out.clone()));
        let subscriber = subscriber(format, EnvFilter::new("info"), writer, false);
        tracing::subscriber::with_default(subscriber, || {
            for i in 0..events {
                tracing::info!(
                    target: "arbiter::access",
                    request_id = %format!("id-{i}"),
                    method = "POST",
                    route = "/v1/variants/{variant}/moves",
                    target = "/v1/variants/international/moves",
                    status = 200u16,
                    latency_ms = 0.25,
                    "request"
                );
            }
            tracing::debug!(target: "arbiter::access", "filtered out at info");
        });
        drop(guard);
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn text_access_lines_carry_every_field_and_none_is_dropped() {
        // Far more events than the queue holds: a lossy writer would drop some.
        let lines = access_lines(LogFormat::Pretty, 2000);
        assert_eq!(lines.len(), 2000);
        for (i, line) in lines.iter().enumerate() {
            assert!(
                line.ends_with(&format!(
                    " INFO arbiter::access: request request_id=id-{i} method=\"POST\" \
                     route=\"/v1/variants/{{variant}}/moves\" \
                     target=\"/v1/variants/international/moves\" status=200 latency_ms=0.25"
                )),
                "{line}"
            );
        }
    }

    #[test]
    fn json_access_lines_are_objects_with_the_fields() {
        let lines = access_lines(LogFormat::Json, 500);
        assert_eq!(lines.len(), 500);
        for (i, line) in lines.iter().enumerate() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(v["level"], "INFO");
            assert_eq!(v["target"], ACCESS_TARGET);
            let f = &v["fields"];
            assert_eq!(f["message"], "request");
            assert_eq!(f["request_id"], format!("id-{i}"));
            assert_eq!(f["method"], "POST");
            assert_eq!(f["route"], "/v1/variants/{variant}/moves");
            assert_eq!(f["target"], "/v1/variants/international/moves");
            assert_eq!(f["status"], 200);
            assert_eq!(f["latency_ms"], 0.25);
        }
    }
}
