//! `POST /v1/judge/pdn` with `Accept: application/x-ndjson`: a PDN file of any size, judged
//! game by game as its bytes come, one JSON line per game written as soon as the game is
//! judged.
//!
//! The body is read chunk by chunk (and decoded chunk by chunk when it has a
//! `Content-Encoding`) into a [`RecordStream`], which holds only the bytes of the game being
//! read (at most 1 MiB; a larger game is an entry with an error, and reading goes on at the
//! next game). Each game is judged as engine work of its own, within the
//! budget of a `/judge` request: no engine slot is held while the body's bytes are awaited,
//! and a full pool makes the stream wait, not fail. The lines are:
//!
//! - one per game, in file order: the object of one entry of the JSON answer's `games`;
//! - then, last, `{"summary": {"games", "judged", "errors"}}`;
//! - or, when the stream cannot go on (its bounds on bytes and time, a body that stops
//!   coming or cannot be decoded), last instead of the summary:
//!   `{"error": <problem document>, "summary": <the counts so far>}`. The status was 200
//!   already: the last line tells whether the whole file was judged.
//!
//! A client that goes away drops the stream, and with it the reading and the judging.

use std::cell::Cell;
use std::io;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use actix_web::http::header;
use actix_web::web::Bytes;
use actix_web::{web, HttpRequest, HttpResponse};
use futures_util::io::{AsyncRead, AsyncReadExt, BufReader};
use futures_util::{FutureExt, TryStreamExt};
use serde::Serialize;

use crate::config::StreamLimits;
use crate::engine::{Engine, Work, RETRY_AFTER_SECS};
use crate::http::body;
use crate::http::coding::Coding;
use crate::metrics::Metrics;
use crate::ops::records::{
    FileOptions, GameOutcome, GameToJudge, NextGame, PdnGameResult, PdnSummary, RecordStream,
};
use crate::problem::{ApiError, Problem, ProblemCode};
use crate::tables::TableStore;

/// The media type of the streamed answer: newline-delimited JSON.
pub const NDJSON: &str = "application/x-ndjson";

/// Stream units a brotli or zstd decoding adds to its stream: its window takes up to 16 MiB
/// (brotli) or 8 MiB (zstd), against about 1 MiB for the rest of a stream (its game and read
/// buffer) and 32 KiB for a gzip or deflate window.
pub const WIDE_WINDOW_UNITS: usize = 8;

/// What a stream counts against [`StreamLimits::max_streams`]: 1, plus
/// [`WIDE_WINDOW_UNITS`] for each brotli or zstd decoding of its body. So the streams of a
/// replica hold at most about 64 MiB with the default bound, whatever their encodings (a
/// pod's memory limit is 256 MiB).
pub fn stream_units(codings: &[Coding]) -> usize {
    1 + WIDE_WINDOW_UNITS
        * codings
            .iter()
            .filter(|c| matches!(c, Coding::Brotli | Coding::Zstd))
            .count()
}

/// Stream units running now in this process.
static STREAMS: AtomicUsize = AtomicUsize::new(0);

/// A running stream's units, counted until it ends (or its client goes away).
struct Running(usize);

impl Drop for Running {
    fn drop(&mut self) {
        STREAMS.fetch_sub(self.0, Ordering::AcqRel);
    }
}

/// Bytes read from the body at a time.
const READ_CHUNK: usize = 64 * 1024;

/// Wait before asking again for an engine slot when every one is busy.
const SLOT_RETRY: Duration = Duration::from_millis(50);

/// Wait before judging a game again when a table its adjudication needs is being computed.
const TABLE_RETRY: Duration = Duration::from_millis(500);

/// Whether the request asks for the streamed answer: its `Accept` header names
/// `application/x-ndjson` (with a q-value above 0).
pub fn wants_ndjson(req: &HttpRequest) -> bool {
    req.headers().get_all(header::ACCEPT).any(|v| {
        String::from_utf8_lossy(v.as_bytes())
            .split(',')
            .any(|range| {
                let mut parts = range.split(';');
                let essence = parts.next().unwrap_or("").trim();
                let refused = parts.any(|p| {
                    let p = p.trim();
                    p.strip_prefix("q=")
                        .or_else(|| p.strip_prefix("Q="))
                        .and_then(|q| q.trim().parse::<f32>().ok())
                        .is_some_and(|q| q <= 0.0)
                });
                essence.eq_ignore_ascii_case(NDJSON) && !refused
            })
    })
}

/// 415: a JSON body asking for the streamed answer (a stream is read as PDN text).
pub fn json_refused() -> ApiError {
    ApiError::new(
        415,
        ProblemCode::UnsupportedMediaType,
        "Unsupported media type",
        format!(
            "a streamed answer (Accept: {NDJSON}) is given for a PDN file sent as text \
             (text/plain or application/x-pdn), not as JSON; pass the variant, the result \
             convention, include_pdn and the adjudication options as query parameters"
        ),
    )
}

/// 413: a declared length over the stream's bound on bytes.
fn too_large(length: u64, limit: u64) -> ApiError {
    ApiError::new(
        413,
        ProblemCode::PayloadTooLarge,
        "Request body too large",
        format!("the request body has {length} bytes; a streamed PDN file has at most {limit}"),
    )
    .with_limit("body", limit)
}

/// The lines of the stream besides the games.
#[derive(Serialize)]
struct SummaryLine<'a> {
    summary: &'a PdnSummary,
}

#[derive(Serialize)]
struct ErrorLine<'a> {
    error: &'a Problem,
    summary: &'a PdnSummary,
}

/// Starts the streamed answer: 200 at once, the lines as the games are judged.
pub fn judge_stream(
    req: &HttpRequest,
    engine: web::Data<Engine>,
    tables: Option<web::Data<TableStore>>,
    payload: web::Payload,
    codings: Vec<Coding>,
    file: FileOptions,
) -> Result<HttpResponse, ApiError> {
    let limits = req
        .app_data::<web::Data<StreamLimits>>()
        .map(|l| *l.get_ref())
        .unwrap_or_default();
    if let Some(n) = body::declared_length(req) {
        if n as u64 > limits.max_bytes {
            return Err(too_large(n as u64, limits.max_bytes));
        }
    }
    let units = stream_units(&codings);
    if STREAMS.fetch_add(units, Ordering::AcqRel) + units > limits.max_streams {
        STREAMS.fetch_sub(units, Ordering::AcqRel);
        let n = limits.max_streams;
        let retry = RETRY_AFTER_SECS;
        return Err(ApiError::new(
            503,
            ProblemCode::Overloaded,
            "Overloaded",
            format!(
                "the PDN streams of this replica use all its {n} stream units (a stream \
                 counts 1, and {WIDE_WINDOW_UNITS} more for each brotli or zstd decoding); \
                 the request was not started: retry after {retry} s or on another replica"
            ),
        )
        .with_limit("streams", n as u64)
        .with_header("retry-after", &retry.to_string()));
    }
    let running = Running(units);
    let metrics = req.app_data::<web::Data<Metrics>>().cloned();
    let sent = Rc::new(Cell::new(0u64));
    let counted = sent.clone();
    let raw = payload
        .inspect_ok(move |chunk| counted.set(counted.get() + chunk.len() as u64))
        .map_err(|e| io::Error::other(e.to_string()))
        .into_async_read();
    let reader = decoder(Box::pin(raw), &codings);
    let state = Judging {
        reader,
        read_buf: vec![0; READ_CHUNK],
        records: RecordStream::new(file),
        engine,
        tables,
        metrics,
        limits,
        started: Instant::now(),
        sent,
        decoded: 0,
        eof: false,
        done: false,
        _running: running,
    };
    let lines = futures_util::stream::unfold(state, |mut s| async move {
        let line = s.next_line().await?;
        Some((Ok::<_, actix_web::Error>(line), s))
    });
    Ok(HttpResponse::Ok()
        .content_type(NDJSON)
        .insert_header((header::CACHE_CONTROL, "no-store"))
        // Lines as they come, through nginx too.
        .insert_header(("x-accel-buffering", "no"))
        .streaming(lines))
}

type Reader = Pin<Box<dyn AsyncRead>>;

/// The body with its content codings undone as it is read (a bounded buffer each).
fn decoder(raw: Reader, codings: &[Coding]) -> Reader {
    use async_compression::futures::bufread::{
        BrotliDecoder, GzipDecoder, ZlibDecoder, ZstdDecoder,
    };
    let mut reader = raw;
    for coding in codings.iter().rev() {
        let input = BufReader::new(reader);
        reader = match coding {
            Coding::Gzip => {
                let mut d = GzipDecoder::new(input);
                d.multiple_members(true);
                Box::pin(d)
            }
            Coding::Deflate => Box::pin(ZlibDecoder::new(input)),
            Coding::Brotli => Box::pin(BrotliDecoder::new(input)),
            Coding::Zstd => {
                // A frame may ask for a window of up to 2 GiB; 8 MiB is the bound of the
                // whole-body decoder too.
                let params = [async_compression::zstd::DParameter::window_log_max(23)];
                let mut d = ZstdDecoder::with_params(input, &params);
                d.multiple_members(true);
                Box::pin(d)
            }
        };
    }
    reader
}

/// The state of a streamed answer.
struct Judging {
    reader: Reader,
    read_buf: Vec<u8>,
    records: RecordStream,
    engine: web::Data<Engine>,
    tables: Option<web::Data<TableStore>>,
    metrics: Option<web::Data<Metrics>>,
    limits: StreamLimits,
    started: Instant,
    /// Bytes of the body as sent.
    sent: Rc<Cell<u64>>,
    /// Bytes of the body once decoded.
    decoded: u64,
    eof: bool,
    done: bool,
    _running: Running,
}

impl Judging {
    /// The next line, or `None` after the last.
    async fn next_line(&mut self) -> Option<Bytes> {
        if self.done {
            return None;
        }
        let deadline = self.started + self.limits.max_time;
        loop {
            if let Some(next) = self.records.next_game() {
                return Some(match self.judge(next, deadline).await {
                    Ok(entry) => self.game_line(&entry),
                    Err(problem) => self.end_with(&problem),
                });
            }
            if self.eof {
                self.done = true;
                return Some(json_line(&SummaryLine {
                    summary: self.records.summary(),
                }));
            }
            let now = Instant::now();
            if now >= deadline {
                return Some(self.end_with(&self.time_bound()));
            }
            let wait = (deadline - now).min(self.limits.idle);
            let read = actix_web::rt::time::timeout(wait, self.reader.read(&mut self.read_buf));
            match read.await {
                Err(_) if Instant::now() >= deadline => {
                    return Some(self.end_with(&self.time_bound()));
                }
                Err(_) => {
                    let idle = self.limits.idle.as_secs();
                    return Some(self.end_with(&ApiError::new(
                        408,
                        ProblemCode::RequestTimeout,
                        "Request body stopped",
                        format!("no byte of the request body came for {idle} s"),
                    )));
                }
                Ok(Err(e)) => return Some(self.end_with(&unreadable(e))),
                Ok(Ok(0)) => {
                    self.eof = true;
                    self.records.finish();
                }
                Ok(Ok(n)) => {
                    if let Err(e) = self.take(n) {
                        return Some(self.end_with(&e));
                    }
                    // The chunks already received are taken in the same turn. A body sent a
                    // few bytes a chunk would otherwise cost a trip through the worker's queue
                    // for each chunk, and a busy worker makes that trip take most of a second.
                    let mut batch = n;
                    while batch < READ_CHUNK && !self.eof {
                        match self.reader.read(&mut self.read_buf).now_or_never() {
                            None => break,
                            Some(Err(e)) => return Some(self.end_with(&unreadable(e))),
                            Some(Ok(0)) => {
                                self.eof = true;
                                self.records.finish();
                            }
                            Some(Ok(m)) => {
                                batch += m;
                                if let Err(e) = self.take(m) {
                                    return Some(self.end_with(&e));
                                }
                            }
                        }
                    }
                    // A body whose bytes are all there (a compressed one above all) could keep
                    // this loop going without a line to write: let the worker's other
                    // connections run between two batches.
                    if batch >= READ_CHUNK {
                        actix_web::rt::task::yield_now().await;
                    }
                }
            }
        }
    }

    /// Takes the `n` bytes just read into `read_buf`, within the stream's bound on bytes.
    fn take(&mut self, n: usize) -> Result<(), ApiError> {
        self.decoded += n as u64;
        let bytes = self.decoded.max(self.sent.get());
        if bytes > self.limits.max_bytes {
            let limit = self.limits.max_bytes;
            return Err(ApiError::new(
                413,
                ProblemCode::PayloadTooLarge,
                "Request body too large",
                format!(
                    "a streamed PDN file has at most {limit} bytes, as sent and once decoded; \
                     the games before that point were judged"
                ),
            )
            .with_limit("body", limit));
        }
        self.records.push(&self.read_buf[..n]);
        Ok(())
    }

    fn time_bound(&self) -> ApiError {
        let secs = self.limits.max_time.as_secs();
        ApiError::new(
            503,
            ProblemCode::RequestTimeout,
            "Stream took too long",
            format!(
                "a streamed PDN file is judged within {secs} s; the games before that point \
                 were judged"
            ),
        )
        .with_limit("seconds", secs)
    }

    /// Judges one game of the file as engine work of its own; a full pool is waited for.
    /// An error ends the stream.
    async fn judge(
        &mut self,
        next: NextGame,
        deadline: Instant,
    ) -> Result<PdnGameResult, ApiError> {
        let game: GameToJudge = match next {
            NextGame::Entry(entry) => return Ok(*entry),
            NextGame::Judge(game) => game,
        };
        loop {
            let g = game.clone();
            let tables = self.tables.clone();
            let run = self.engine.run(Work::Request, move |budget| {
                g.judge(tables.as_ref().map(|t| t.get_ref()), budget)
            });
            match run.await {
                Ok(entry) => return Ok(entry),
                Err(e) => match e.problem().code {
                    ProblemCode::BudgetExceeded => return Ok(game.failed(&e)),
                    ProblemCode::Overloaded if Instant::now() < deadline => {
                        actix_web::rt::time::sleep(SLOT_RETRY).await;
                    }
                    // A table the game's adjudication needs is being computed: the game is
                    // judged again once it is (the stream's deadline bounds the wait).
                    ProblemCode::EndgameBuilding if Instant::now() < deadline => {
                        actix_web::rt::time::sleep(TABLE_RETRY).await;
                    }
                    ProblemCode::Overloaded => return Err(self.time_bound()),
                    _ => return Err(e),
                },
            }
        }
    }

    fn game_line(&mut self, entry: &PdnGameResult) -> Bytes {
        self.records.count(entry);
        if let (GameOutcome::Judged, Some(v), Some(m)) =
            (entry.outcome, &entry.variant, &self.metrics)
        {
            m.add_judged(v, 1);
        }
        json_line(entry)
    }

    /// The last line of a stream that cannot go on.
    fn end_with(&mut self, e: &ApiError) -> Bytes {
        self.done = true;
        json_line(&ErrorLine {
            error: e.problem(),
            summary: self.records.summary(),
        })
    }
}

/// The problem of a body that cannot be read or decoded.
fn unreadable(e: io::Error) -> ApiError {
    ApiError::new(
        400,
        ProblemCode::InvalidEncoding,
        "Body could not be read",
        format!("the request body could not be read or decoded as its Content-Encoding says: {e}"),
    )
}

fn json_line<T: Serialize>(value: &T) -> Bytes {
    let mut out = serde_json::to_vec(value).unwrap_or_else(|e| {
        format!("{{\"error\":{{\"detail\":\"cannot write JSON: {e}\"}}}}").into_bytes()
    });
    out.push(b'\n');
    Bytes::from(out)
}
