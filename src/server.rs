//! The HTTP/1.1 server under the actix-web app: actix-server and actix-http, put together as
//! `HttpServer` does, with one addition: every connection is wrapped in [`ProblemIo`], so that
//! the few answers actix-http writes by itself, before any application code runs, carry a
//! problem document like every other error of the service.
//!
//! Those answers are: 400 for a request it cannot parse (a malformed request line, a URI over
//! 64 KiB, an invalid header or `Content-Length`), 431 for a request head over 128 KiB or with
//! more than 96 header fields, and 408 for a request head not received in time. actix-http
//! writes them with an empty body and closes the connection; it has no hook to change them.
//! The application itself never answers an error without a `Content-Type`
//! (`errors::ensure_problem` sees to that), so a 4xx or 5xx head with `content-length: 0` and
//! no `content-type` can only be one of these, and [`ProblemIo`] rewrites it on its way out.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};

use actix_web::rt::net::TcpStream;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::errors::{Problem, ProblemCode};

/// What the rewritten answers say about the server's own bounds.
#[derive(Clone, Debug)]
pub struct BareErrorText {
    /// Seconds a client has to send its request head.
    pub head_timeout_secs: u64,
}

/// A connection whose bare error answers are given problem documents.
pub struct ProblemIo<T> {
    io: T,
    text: Arc<BareErrorText>,
    /// Bytes still to write in place of a rewritten answer.
    pending: Vec<u8>,
    written: usize,
}

impl<T> ProblemIo<T> {
    pub fn new(io: T, text: Arc<BareErrorText>) -> Self {
        ProblemIo {
            io,
            text,
            pending: Vec::new(),
            written: 0,
        }
    }
}

/// Accepts a TCP connection: no Nagle delay, the peer address, the problem-writing wrapper.
pub fn accept(
    io: TcpStream,
    text: Arc<BareErrorText>,
) -> (ProblemIo<TcpStream>, Option<std::net::SocketAddr>) {
    let peer = io.peer_addr().ok();
    let _ = io.set_nodelay(true);
    (ProblemIo::new(io, text), peer)
}

impl<T: AsyncWrite + Unpin> ProblemIo<T> {
    /// Writes what is left of a rewritten answer.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.written < self.pending.len() {
            let n = ready!(Pin::new(&mut self.io).poll_write(cx, &self.pending[self.written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.written += n;
        }
        self.pending.clear();
        self.written = 0;
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for ProblemIo<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for ProblemIo<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        ready!(self.drain(cx))?;
        match find_bare_error(buf) {
            Some(bare) if bare.start == 0 => {
                self.pending = rewrite(&buf[..bare.end], bare.status, &self.text);
                self.written = 0;
                // The answer's bytes are taken; what the socket does not take now is written
                // by the next write, flush or shutdown.
                if let Poll::Ready(Err(e)) = self.drain(cx) {
                    return Poll::Ready(Err(e));
                }
                Poll::Ready(Ok(bare.end))
            }
            Some(bare) => Pin::new(&mut self.io).poll_write(cx, &buf[..bare.start]),
            None => Pin::new(&mut self.io).poll_write(cx, buf),
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

/// A bare error answer found in outgoing bytes: `buf[start..end]` is its head.
#[derive(Debug, PartialEq, Eq)]
struct Bare {
    start: usize,
    end: usize,
    status: u16,
}

/// The first response head in `buf` with a 4xx/5xx status, `content-length: 0` and no
/// `content-type` (actix-http writes lower-case header names).
fn find_bare_error(buf: &[u8]) -> Option<Bare> {
    // Usually `buf` holds whole answers, one after another: each head is read where it starts
    // and its body, framed by `content-length`, skipped unread. Anything else (a write that
    // starts inside a body, a body that goes on past `buf`, an answer to HEAD, which has no
    // body) is searched from the end of the last head read.
    let mut at = 0;
    let mut search = 0;
    while at < buf.len() {
        let Some(head) = read_head(&buf[at..]) else {
            break;
        };
        if let Some(bare) = head.bare(at) {
            return Some(bare);
        }
        search = at + head.len;
        match head.content_length {
            Some(body) if !head.chunked && body <= buf.len() - search => at = search + body,
            _ => break,
        }
    }
    if at == buf.len() {
        return None;
    }
    // Every answer's bytes from there pass through here: a vectorised substring search, its
    // searcher built once.
    static STATUS_LINE: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"HTTP/1."));
    let mut from = search;
    while let Some(found) = STATUS_LINE.find(&buf[from..]) {
        let start = from + found;
        from = start + 1;
        if let Some(bare) = read_head(&buf[start..]).and_then(|h| h.bare(start)) {
            return Some(bare);
        }
    }
    None
}

/// What [`find_bare_error`] needs of a response head.
struct Head {
    /// Its length, blank line included.
    len: usize,
    status: u16,
    /// The `content-length` value, when it is a number.
    content_length: Option<usize>,
    /// Whether a field is exactly `content-length: 0`.
    empty: bool,
    /// Whether it has a `content-type`.
    typed: bool,
    /// Whether it has a `transfer-encoding`.
    chunked: bool,
}

impl Head {
    /// The bare error this head is, starting at `start`.
    fn bare(&self, start: usize) -> Option<Bare> {
        ((400..600).contains(&self.status) && self.empty && !self.typed).then_some(Bare {
            start,
            end: start + self.len,
            status: self.status,
        })
    }
}

/// The response head at the start of `buf`, when there is a whole one (lines ending `\r\n`,
/// then a blank line): `HTTP/1.0` or `HTTP/1.1`, a three-digit status, the fields.
fn read_head(buf: &[u8]) -> Option<Head> {
    if buf.len() < 13 || !buf.starts_with(b"HTTP/1.") || !matches!(buf[7], b'0' | b'1') {
        return None;
    }
    let digits = &buf[9..12];
    if buf[8] != b' ' || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut head = Head {
        len: 0,
        status: digits.iter().fold(0u16, |n, d| n * 10 + (d - b'0') as u16),
        content_length: None,
        empty: false,
        typed: false,
        chunked: false,
    };
    // Line by line (a head is a few short lines: a search for each line's end is cheaper
    // than searches of the whole head for each field wanted).
    let mut at = memchr::memchr(b'\n', buf)? + 1;
    loop {
        let end = at + memchr::memchr(b'\n', &buf[at..])?;
        let line = buf[at..end].strip_suffix(b"\r")?;
        if line.is_empty() {
            head.len = end + 1;
            return Some(head);
        }
        if let Some(value) = line.strip_prefix(b"content-length: ") {
            head.empty |= value == b"0";
            if !value.is_empty() && value.len() <= 12 && value.iter().all(u8::is_ascii_digit) {
                head.content_length =
                    Some(value.iter().fold(0, |n, d| n * 10 + usize::from(d - b'0')));
            }
        }
        head.typed |= line.starts_with(b"content-type:");
        head.chunked |= line.starts_with(b"transfer-encoding:");
        at = end + 1;
    }
}

/// The problem document for a bare answer of `status`.
pub fn bare_problem(status: u16, text: &BareErrorText) -> Problem {
    let (code, title, detail) = match status {
        400 => (
            ProblemCode::BadRequest,
            "Bad request",
            "the request is not valid HTTP/1.1: a malformed request line, a URI longer than \
             64 KiB, an invalid header or an invalid Content-Length"
                .to_string(),
        ),
        408 => (
            ProblemCode::RequestHeadTimeout,
            "Request head timeout",
            format!(
                "the request head was not received within {} s",
                text.head_timeout_secs
            ),
        ),
        431 => (
            ProblemCode::RequestHeaderFieldsTooLarge,
            "Request header fields too large",
            "the request head is larger than 128 KiB or has more than 96 header fields".to_string(),
        ),
        s if s >= 500 => (
            ProblemCode::Internal,
            "Internal server error",
            "the server failed to answer this request".to_string(),
        ),
        _ => (
            ProblemCode::ClientError,
            "Client error",
            "the request failed".to_string(),
        ),
    };
    let e = crate::errors::ApiError::new(
        actix_web::http::StatusCode::from_u16(status)
            .unwrap_or(actix_web::http::StatusCode::BAD_REQUEST),
        code,
        title,
        detail,
    );
    e.problem().clone()
}

/// The head with the problem document's type and length, then the document.
fn rewrite(head: &[u8], status: u16, text: &BareErrorText) -> Vec<u8> {
    let body = serde_json::to_vec(&bare_problem(status, text)).unwrap_or_else(|_| b"{}".to_vec());
    let head = String::from_utf8_lossy(head);
    let mut out = Vec::with_capacity(head.len() + body.len() + 64);
    for line in head.split("\r\n").filter(|l| !l.is_empty()) {
        if line.eq_ignore_ascii_case("content-length: 0") {
            out.extend_from_slice(
                format!(
                    "content-type: {}\r\ncontent-length: {}\r\n",
                    crate::errors::PROBLEM_JSON,
                    body.len()
                )
                .as_bytes(),
            );
        } else {
            out.extend_from_slice(line.as_bytes());
            out.extend_from_slice(b"\r\n");
        }
    }
    out.extend_from_slice(b"\r\n");
    out.extend_from_slice(&body);
    out
}

/// Lets a request's body reach the application before the application first looks at it.
///
/// actix-http's dispatcher calls the service as soon as a request head is decoded, and polls
/// the call once right away, before it decodes the body that usually came in the same read;
/// the handler then waits for a body that is fed to it a moment later, and the whole
/// middleware chain is polled a second time to pass it on. For a request with a body, this
/// transform answers that first poll with "not yet" (and asks to be polled again), so the
/// chain runs once, after the dispatcher has fed what it read. Nothing waits on the client:
/// the dispatcher polls the call again in the same turn (and the wake-up asked for covers any
/// other order), and a body still to come is waited for inside the chain, under its request
/// timeout, as before.
pub struct BodyAfterHead;

impl<S> actix_service::Transform<S, actix_http::Request> for BodyAfterHead
where
    S: actix_service::Service<actix_http::Request>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Transform = BodyAfterHeadService<S>;
    type InitError = ();
    type Future = std::future::Ready<Result<Self::Transform, ()>>;

    fn new_transform(&self, service: S) -> Self::Future {
        std::future::ready(Ok(BodyAfterHeadService { service }))
    }
}

/// The service of [`BodyAfterHead`].
pub struct BodyAfterHeadService<S> {
    service: S,
}

impl<S> actix_service::Service<actix_http::Request> for BodyAfterHeadService<S>
where
    S: actix_service::Service<actix_http::Request>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = BodyAfterHeadFuture<S::Future>;

    actix_service::forward_ready!(service);

    fn call(&self, mut req: actix_http::Request) -> Self::Future {
        let body = !matches!(req.payload(), actix_http::Payload::None);
        BodyAfterHeadFuture {
            call: self.service.call(req),
            first: body,
        }
    }
}

pin_project_lite::pin_project! {
    /// The call of [`BodyAfterHeadService`]: its first poll, for a request with a body,
    /// passed over.
    pub struct BodyAfterHeadFuture<F> {
        #[pin]
        call: F,
        first: bool,
    }
}

impl<F: std::future::Future> std::future::Future for BodyAfterHeadFuture<F> {
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = self.project();
        if std::mem::take(this.first) {
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        this.call.poll(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_only_bare_error_heads() {
        let bare = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\nconnection: close\r\ndate: x\r\n\r\n";
        assert_eq!(
            find_bare_error(bare),
            Some(Bare {
                start: 0,
                end: bare.len(),
                status: 431
            })
        );
        let ours = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 2\r\ncontent-type: application/problem+json\r\n\r\n{}";
        assert_eq!(find_bare_error(ours), None);
        let ok = b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(find_bare_error(ok), None);
        // After a pipelined answer.
        let mut two = ours.to_vec();
        two.extend_from_slice(bare);
        assert_eq!(find_bare_error(&two).map(|b| b.start), Some(ours.len()));
        // An answer whose body holds text like a bare head: the body is not read.
        let head_like = b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n";
        let mut answer = format!(
            "HTTP/1.1 200 OK\r\ncontent-length: {}\r\ncontent-type: text/plain\r\n\r\n",
            head_like.len() + 2
        )
        .into_bytes();
        answer.extend_from_slice(b"<<");
        answer.extend_from_slice(head_like);
        assert_eq!(find_bare_error(&answer), None);
        let mut then_bare = answer.clone();
        then_bare.extend_from_slice(bare);
        assert_eq!(
            find_bare_error(&then_bare).map(|b| (b.start, b.status)),
            Some((answer.len(), 431))
        );
        // An answer to HEAD: a length but no body; the next head is found all the same.
        let mut head_answer = b"HTTP/1.1 200 OK\r\ncontent-length: 20\r\n\r\n".to_vec();
        let at = head_answer.len();
        head_answer.extend_from_slice(bare);
        assert_eq!(find_bare_error(&head_answer).map(|b| b.start), Some(at));
        // A write that starts inside a body (the socket took part of the last one).
        let mut rest = b"...end of a body\"}".to_vec();
        rest.extend_from_slice(bare);
        assert_eq!(
            find_bare_error(&rest).map(|b| b.start),
            Some(rest.len() - bare.len())
        );
        // A body that goes on past the buffer, then a chunked answer: searched.
        let mut long = b"HTTP/1.1 200 OK\r\ncontent-length: 9999\r\n\r\n{".to_vec();
        let at = long.len();
        long.extend_from_slice(bare);
        assert_eq!(find_bare_error(&long).map(|b| b.start), Some(at));
        let mut chunked =
            b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n".to_vec();
        let at = chunked.len();
        chunked.extend_from_slice(bare);
        assert_eq!(find_bare_error(&chunked).map(|b| b.start), Some(at));
    }

    #[test]
    fn reads_heads() {
        let read = |h: &[u8]| read_head(h).map(|h| (h.len, h.status, h.content_length));
        let head = b"HTTP/1.1 200 OK\r\ncontent-length: 2751\r\n\r\n";
        assert_eq!(read(head), Some((head.len(), 200, Some(2751))));
        assert_eq!(
            read(b"HTTP/1.1 200 OK\r\ndate: x\r\n\r\nbody"),
            Some((28, 200, None))
        );
        assert_eq!(
            read(b"HTTP/1.1 200 OK\r\ncontent-length: x\r\n\r\n").map(|h| h.2),
            Some(None)
        );
        assert_eq!(
            read(b"HTTP/1.1 200 OK\r\ncontent-length: 99999999999999\r\n\r\n").map(|h| h.2),
            Some(None)
        );
        // Not whole: no blank line yet, a line without its `\r`.
        assert_eq!(read(b"HTTP/1.1 200 OK\r\ncontent-length: 5\r\n"), None);
        assert_eq!(read(b"HTTP/1.1 200 OK\r\ncontent-length: 5\n\r\n"), None);
        assert_eq!(read(b"HTTP/2.0 200 OK\r\n\r\n"), None);
        // Only 4xx and 5xx heads are bare errors.
        let bare = |h: &[u8]| read_head(h).and_then(|h| h.bare(0)).map(|b| b.status);
        assert_eq!(
            bare(b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\n\r\n"),
            Some(408)
        );
        assert_eq!(
            bare(b"HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\n\r\n"),
            Some(503)
        );
        assert_eq!(bare(b"HTTP/1.1 600 X\r\ncontent-length: 0\r\n\r\n"), None);
        assert_eq!(
            bare(b"HTTP/1.1 304 Not Modified\r\ncontent-length: 0\r\n\r\n"),
            None
        );
        assert_eq!(
            bare(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 00\r\n\r\n"),
            None
        );
    }

    #[test]
    fn rewrites_with_a_problem_document() {
        let text = BareErrorText {
            head_timeout_secs: 10,
        };
        let head = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n";
        let out = String::from_utf8(rewrite(head, 400, &text)).unwrap();
        let (h, body) = out.split_once("\r\n\r\n").unwrap();
        assert!(h.starts_with("HTTP/1.1 400 Bad Request\r\n"));
        assert!(h.contains("content-type: application/problem+json"));
        assert!(h.contains(&format!("content-length: {}", body.len())));
        assert!(h.contains("connection: close"));
        let p: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(p["status"], 400);
        assert_eq!(p["code"], "bad-request");
    }
}
