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
//!
//! The human-readable lines are tracing-subscriber's full format. The access-log line, the
//! one logged for every request, is written by [`Lines`] directly, with the same text.

use std::cell::Cell;
use std::fmt;
use std::io::Write;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::fmt::format::{self as line_format, FormatEvent, FormatFields, Writer};
use tracing_subscriber::fmt::{FmtContext, MakeWriter};
use tracing_subscriber::registry::LookupSpan;
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
        LogFormat::Pretty => builder.event_format(Lines::default()).try_init(),
    };
    LogGuard(sink)
}

/// The target of the access-log event ([`crate::http::frame`]).
pub const ACCESS_TARGET: &str = "arbiter::access";

/// The human-readable line format: tracing-subscriber's full format (`Format<Full>`), with
/// one difference in how, not in what, it writes. The access-log event is written here
/// directly: the time from a per-thread copy of the current second's text, then the level,
/// the target and the fields as the full format writes them. The generic formatter goes
/// through `fmt` machinery (and colour wrappers that write nothing) for every part, which cost
/// about a microsecond per request. Every other event, an access event inside a span (at
/// DEBUG) and every line on a terminal (colours) go to the full format.
#[derive(Default)]
pub struct Lines {
    full: line_format::Format<line_format::Full>,
}

impl<S, N> FormatEvent<S, N> for Lines
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        let meta = event.metadata();
        if meta.target() != ACCESS_TARGET
            || writer.has_ansi_escapes()
            || ctx.event_scope().is_some()
            || !write_timestamp(&mut writer, SystemTime::now())?
        {
            return self.full.format_event(ctx, writer, event);
        }
        writer.write_str(match *meta.level() {
            Level::TRACE => "TRACE ",
            Level::DEBUG => "DEBUG ",
            Level::INFO => " INFO ",
            Level::WARN => " WARN ",
            Level::ERROR => "ERROR ",
        })?;
        writer.write_str(ACCESS_TARGET)?;
        writer.write_str(": ")?;
        let mut fields = FieldWriter {
            out: &mut writer,
            first: true,
            result: Ok(()),
        };
        event.record(&mut fields);
        fields.result?;
        writer.write_char('\n')
    }
}

/// Writes the fields of an event as the full format does: the message first as it is, then
/// `name=value` with the value's `Debug` text, separated by spaces.
struct FieldWriter<'a, 'w> {
    out: &'a mut Writer<'w>,
    first: bool,
    result: fmt::Result,
}

impl FieldWriter<'_, '_> {
    /// Writes the separator and `name=`; false for a field that is not written (the `log.`
    /// fields of events from the `log` crate, as the full format does).
    fn start(&mut self, field: &Field) -> bool {
        let name = field.name();
        if self.result.is_err() || name.starts_with("log.") {
            return false;
        }
        if !std::mem::take(&mut self.first) {
            self.result = self.out.write_char(' ');
        }
        if name != "message" {
            let name = name.strip_prefix("r#").unwrap_or(name);
            self.result = self
                .result
                .and_then(|()| self.out.write_str(name))
                .and_then(|()| self.out.write_char('='));
        }
        true
    }
}

impl Visit for FieldWriter<'_, '_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            return self.record_debug(field, &format_args!("{value}"));
        }
        if !self.start(field) {
            return;
        }
        // `Debug` of a string: quoted, with escapes; plain ASCII needs none but `"` and `\`.
        let plain = value
            .bytes()
            .all(|b| (b' '..=b'~').contains(&b) && b != b'"' && b != b'\\');
        self.result = if plain {
            self.out
                .write_char('"')
                .and_then(|()| self.out.write_str(value))
                .and_then(|()| self.out.write_char('"'))
        } else {
            write!(self.out, "{value:?}")
        };
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        if self.start(field) {
            self.result = write!(self.out, "{value}");
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        if self.start(field) {
            self.result = write!(self.out, "{value:?}");
        }
    }
}

thread_local! {
    /// The second last written by this thread, and its text `YYYY-MM-DDTHH:MM:SS.`.
    static SECOND: Cell<(u64, [u8; 20])> = const { Cell::new((u64::MAX, [0; 20])) };
}

/// Writes `time` as tracing-subscriber's timer does (`2026-11-25T17:26:24.610350Z `, UTC,
/// microseconds, then a space); false, writing nothing, for a time before 1970 or after 9999.
fn write_timestamp(out: &mut impl fmt::Write, time: SystemTime) -> Result<bool, fmt::Error> {
    let Ok(since) = time.duration_since(SystemTime::UNIX_EPOCH) else {
        return Ok(false);
    };
    let secs = since.as_secs();
    if secs >= 253_402_300_800 {
        return Ok(false); // year 10000
    }
    let (cached, mut text) = SECOND.with(Cell::get);
    if cached != secs {
        text = second_text(secs);
        SECOND.with(|c| c.set((secs, text)));
    }
    let mut micros = since.subsec_micros();
    let mut tail = *b"000000Z ";
    for digit in tail[..6].iter_mut().rev() {
        *digit = b'0' + (micros % 10) as u8;
        micros /= 10;
    }
    out.write_str(std::str::from_utf8(&text).map_err(|_| fmt::Error)?)?;
    out.write_str(std::str::from_utf8(&tail).map_err(|_| fmt::Error)?)?;
    Ok(true)
}

/// `YYYY-MM-DDTHH:MM:SS.` of `secs` seconds after 1970-01-01T00:00:00Z (before year 10000).
fn second_text(secs: u64) -> [u8; 20] {
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // The civil date of a day number (Howard Hinnant's days-to-civil algorithm): eras of
    // 400 years, years starting on March 1st so that the leap day comes last.
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    let mut text = *b"0000-00-00T00:00:00.";
    let mut put = |at: usize, width: usize, mut n: u64| {
        for i in (at..at + width).rev() {
            text[i] = b'0' + (n % 10) as u8;
            n /= 10;
        }
    };
    put(0, 4, year);
    put(5, 2, month);
    put(8, 2, day);
    put(11, 2, rest / 3_600);
    put(14, 2, rest / 60 % 60);
    put(17, 2, rest % 60);
    text
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

    /// The lines `format` writes for access events like the one of `crate::http::frame` (and
    /// one inside a span), with colours off.
    fn access_lines<F>(format: F) -> Vec<String>
    where
        F: FormatEvent<tracing_subscriber::Registry, line_format::DefaultFields>
            + Send
            + Sync
            + 'static,
    {
        let out = Capture::default();
        let writer = out.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_ansi(false)
            .with_max_level(Level::TRACE)
            .with_writer(move || writer.clone())
            .event_format(format)
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            let id = "4f1c2a9e-07b3-4d5e-9a21-8c3f6e0d1b27".to_string();
            let method = "POST".to_string();
            for (route, target) in [
                (
                    "/v1/variants/{variant}/moves",
                    "/v1/variants/international/moves",
                ),
                ("unmatched", "/x?q=%22a%20b%22&n=\u{e9}"),
                ("odd \"route\" \\ \u{e9}\n", "/y"),
            ] {
                tracing::info!(
                    target: "arbiter::access",
                    request_id = %id,
                    method = %method,
                    route = route,
                    target = %target,
                    status = 200u16,
                    latency_ms = 0.159476,
                    "request"
                );
            }
            tracing::warn!(target: "arbiter::access", status = 503u16, "request");
            tracing::info!(target: "arbiter::other", n = 1u64, "not an access line");
            let span = tracing::debug_span!("request", request_id = %id);
            span.in_scope(|| tracing::info!(target: "arbiter::access", status = 200u16, "request"));
        });
        let text = String::from_utf8(lock(&out.0).clone()).unwrap();
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn access_lines_are_the_full_format_text() {
        // The direct path was taken: only it keeps the second's text.
        let taken = || SECOND.with(Cell::get).0 != u64::MAX;
        SECOND.with(|c| c.set((u64::MAX, [0; 20])));
        let full = access_lines(line_format::Format::default());
        assert!(!taken());
        let fast = access_lines(Lines::default());
        assert!(taken());
        assert_eq!(fast.len(), 6);
        assert_eq!(fast.len(), full.len());
        for (a, b) in fast.iter().zip(&full) {
            // The same text after the time: 2026-11-25T17:26:24.610350Z (27 characters).
            let shape = |l: &str| {
                let t = l.as_bytes();
                t.len() > 28
                    && t[..27].iter().enumerate().all(|(i, &c)| match i {
                        4 | 7 => c == b'-',
                        10 => c == b'T',
                        13 | 16 => c == b':',
                        19 => c == b'.',
                        26 => c == b'Z',
                        _ => c.is_ascii_digit(),
                    })
            };
            assert!(shape(a) && shape(b), "{a}\n{b}");
            assert_eq!(a[27..], b[27..]);
        }
        assert!(fast[0].ends_with(
            "  INFO arbiter::access: request request_id=4f1c2a9e-07b3-4d5e-9a21-8c3f6e0d1b27 \
             method=POST route=\"/v1/variants/{variant}/moves\" \
             target=/v1/variants/international/moves status=200 latency_ms=0.159476"
        ));
        assert!(
            fast[2].contains(r#"route="odd \"route\" \\ é\n""#),
            "{}",
            fast[2]
        );
        assert!(
            fast[5].contains(" request{request_id=4f1c2a9e"),
            "{}",
            fast[5]
        );
    }

    #[test]
    fn timestamps_are_utc_dates() {
        let at = |secs: u64, micros: u32| {
            let mut s = String::new();
            let t = SystemTime::UNIX_EPOCH
                + Duration::from_secs(secs)
                + Duration::from_micros(micros.into());
            assert!(write_timestamp(&mut s, t).unwrap());
            s
        };
        // Expected texts from Python's datetime.
        assert_eq!(at(0, 0), "1970-01-01T00:00:00.000000Z ");
        assert_eq!(at(951_868_799, 7), "2000-02-29T23:59:59.000007Z ");
        assert_eq!(at(1_700_000_000, 999_999), "2023-11-14T22:13:20.999999Z ");
        assert_eq!(at(1_796_229_984, 610_350), "2026-12-02T16:46:24.610350Z ");
        assert_eq!(at(4_102_444_799, 123_456), "2099-12-31T23:59:59.123456Z ");
        // The cached second is not reused for another one.
        assert_eq!(at(4_102_444_800, 0), "2100-01-01T00:00:00.000000Z ");
        assert_eq!(at(4_102_444_800, 5), "2100-01-01T00:00:00.000005Z ");
        let mut s = String::new();
        let far = SystemTime::UNIX_EPOCH + Duration::from_secs(253_402_300_800);
        assert!(!write_timestamp(&mut s, far).unwrap());
        assert!(s.is_empty());
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
