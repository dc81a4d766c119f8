//! Logging and tracing, set up in one place.
//!
//! `ARBITER_LOG`, else `RUST_LOG`, filters (default `info`); `ARBITER_LOG_FORMAT=json`
//! writes one JSON object per line, anything else human-readable lines. Each request has an
//! id (the client's `X-Request-Id`, or a new one), returned in the `x-request-id` response
//! header and, at DEBUG, carried by a span around the request's handling; when it is
//! answered, one access-log event (target `arbiter::access`) gives its method, route,
//! target, status and latency. The probes and `/metrics` are left out of the access log
//! unless `ARBITER_LOG_PROBES` is set ([`crate::http::frame`]).
//!
//! Lines are formatted on the thread that logs and appended to a shared buffer; a thread of
//! their own writes the buffer to stdout at most [`FLUSH_AFTER`] after its first line, one
//! write for every line gathered meanwhile. Under load that is one write for hundreds of
//! lines, instead of a write (and a thread wake-up) for every request. A thread that finds
//! [`MAX_PENDING_BYTES`] waiting writes them itself, in order, before it goes on: nothing is
//! dropped, and a stdout that cannot keep up slows the loggers down rather than filling the
//! memory.

use std::io::Write;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::EnvFilter;

use crate::config::LogFormat;

/// Longest a line waits in the buffer before it is written.
pub const FLUSH_AFTER: Duration = Duration::from_millis(20);

/// Most bytes of lines waiting; the thread that reaches it writes them out itself.
pub const MAX_PENDING_BYTES: usize = 1024 * 1024;

/// Installs the global subscriber, writing to stdout through a [`LogSink`]. Keep the returned
/// guard alive for as long as the process logs: dropping it writes what is left. Calling it
/// twice is harmless (the second subscriber is ignored).
pub fn init(format: LogFormat) -> LogGuard {
    let filter = EnvFilter::try_from_env("ARBITER_LOG")
        .or_else(|_| EnvFilter::try_from_default_env())
        .unwrap_or_else(|_| EnvFilter::new("info"));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stdout());
    let sink = LogSink::new(std::io::stdout());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(sink.clone())
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
    LogGuard(sink)
}

/// Writes what is left in the sink when dropped.
pub struct LogGuard(LogSink);

impl Drop for LogGuard {
    fn drop(&mut self) {
        self.0.flush_now();
    }
}

/// Log lines gathered in memory and written out in batches (see the module doc).
#[derive(Clone)]
pub struct LogSink {
    shared: Arc<Shared>,
}

struct Shared {
    /// The lines waiting, in the order they were logged.
    pending: Mutex<Vec<u8>>,
    /// Signalled when the first line goes into an empty buffer.
    first_line: Condvar,
    /// The output; held while a batch is taken and written, so batches go out in order.
    out: Mutex<Box<dyn Write + Send>>,
}

fn lock<T: ?Sized>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl LogSink {
    /// A sink writing to `out`, with its writer thread started.
    pub fn new(out: impl Write + Send + 'static) -> LogSink {
        let sink = LogSink {
            shared: Arc::new(Shared {
                pending: Mutex::new(Vec::with_capacity(64 * 1024)),
                first_line: Condvar::new(),
                out: Mutex::new(Box::new(out)),
            }),
        };
        let writer = sink.clone();
        let _ = std::thread::Builder::new()
            .name("arbiter-log".into())
            .spawn(move || writer.run());
        sink
    }

    /// The writer thread: waits for a first line, lets more gather for [`FLUSH_AFTER`],
    /// writes them all.
    fn run(&self) {
        loop {
            {
                let mut pending = lock(&self.shared.pending);
                while pending.is_empty() {
                    pending = self
                        .shared
                        .first_line
                        .wait(pending)
                        .unwrap_or_else(|p| p.into_inner());
                }
            }
            std::thread::sleep(FLUSH_AFTER);
            self.flush_now();
        }
    }

    /// Writes every line waiting, now.
    pub fn flush_now(&self) {
        let mut out = lock(&self.shared.out);
        let batch = std::mem::take(&mut *lock(&self.shared.pending));
        if !batch.is_empty() {
            // Nowhere to report a failing stdout: the lines are lost, the service goes on.
            let _ = out.write_all(&batch);
            let _ = out.flush();
        }
    }

    /// Appends one formatted line (or part of one).
    fn append(&self, bytes: &[u8]) {
        let mut pending = lock(&self.shared.pending);
        let was_empty = pending.is_empty();
        pending.extend_from_slice(bytes);
        let full = pending.len() >= MAX_PENDING_BYTES;
        drop(pending);
        if full {
            self.flush_now();
        } else if was_empty {
            self.shared.first_line.notify_one();
        }
    }
}

impl Write for &LogSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.append(buf);
        Ok(buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.append(buf);
        Ok(())
    }

    /// The writer thread writes within [`FLUSH_AFTER`]; nothing to do here.
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for LogSink {
    type Writer = &'a LogSink;

    fn make_writer(&'a self) -> Self::Writer {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An output that keeps what it is given.
    #[derive(Clone, Default)]
    struct Capture(Arc<Mutex<Vec<u8>>>);

    impl Write for Capture {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            lock(&self.0).extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn lines_are_written_in_order_within_the_delay_and_on_flush() {
        let out = Capture::default();
        let sink = LogSink::new(out.clone());
        let mut w = sink.make_writer();
        w.write_all(b"one\n").unwrap();
        w.write_all(b"two\n").unwrap();
        // The writer thread writes them within FLUSH_AFTER (allow a slow machine much more).
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while lock(&out.0).as_slice() != b"one\ntwo\n" {
            assert!(std::time::Instant::now() < deadline, "lines not written");
            std::thread::sleep(Duration::from_millis(5));
        }
        w.write_all(b"three\n").unwrap();
        sink.flush_now();
        assert_eq!(lock(&out.0).as_slice(), b"one\ntwo\nthree\n");
    }

    #[test]
    fn a_full_buffer_is_written_by_the_thread_that_fills_it_in_order() {
        let out = Capture::default();
        let sink = LogSink::new(out.clone());
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let sink = sink.clone();
                std::thread::spawn(move || {
                    let mut w = sink.make_writer();
                    for i in 0..20_000 {
                        w.write_all(format!("{t} {i:08} {}\n", "x".repeat(40)).as_bytes())
                            .unwrap();
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        sink.flush_now();
        let text = String::from_utf8(lock(&out.0).clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 80_000, "every line, none dropped or torn");
        for t in 0..4 {
            let mine: Vec<u32> = lines
                .iter()
                .filter(|l| l.starts_with(&format!("{t} ")))
                .map(|l| l[2..10].parse().unwrap())
                .collect();
            assert_eq!(mine, (0..20_000).collect::<Vec<_>>(), "thread {t} in order");
        }
    }
}
