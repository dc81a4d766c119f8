//! The life of a server: the per-request timeout and the shutdown signals.

use std::time::Duration;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;

use crate::errors::ApiError;

/// Middleware (`from_fn`): a request not answered within `limit` is answered 503
/// `request-timeout` (problem+json) and its handler dropped. The timer covers reading the
/// body and the handler; the engine's own work is bounded separately (moves per request,
/// capture enumeration), so in practice this fires on clients that send their body too
/// slowly. (The error is returned as an `Err` because the request cannot be kept aside while
/// the router still needs it; actix renders it with the problem document.)
pub async fn timeout(
    limit: Duration,
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody + 'static>, actix_web::Error> {
    use actix_web::HttpMessage;
    let id = req
        .extensions()
        .get::<tracing_actix_web::RequestId>()
        .map(|id| id.to_string());
    match actix_web::rt::time::timeout(limit, next.call(req)).await {
        Ok(res) => res,
        Err(_) => {
            tracing::warn!(timeout_seconds = limit.as_secs(), "request timed out");
            Err(ApiError::request_timeout(limit).with_request_id(id).into())
        }
    }
}

/// Waits for SIGTERM or SIGINT (Ctrl-C); returns the signal's name.
pub async fn shutdown_signal() -> &'static str {
    #[cfg(unix)]
    {
        use actix_web::rt::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => first_of(term.recv(), actix_web::rt::signal::ctrl_c()).await,
            Err(_) => {
                let _ = actix_web::rt::signal::ctrl_c().await;
                "SIGINT"
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = actix_web::rt::signal::ctrl_c().await;
        "SIGINT"
    }
}

/// The first of SIGTERM and SIGINT to arrive.
#[cfg(unix)]
async fn first_of<A, B>(term: A, int: B) -> &'static str
where
    A: std::future::Future,
    B: std::future::Future,
{
    use std::pin::pin;
    use std::task::Poll;
    let mut term = pin!(term);
    let mut int = pin!(int);
    std::future::poll_fn(|cx| {
        if term.as_mut().poll(cx).is_ready() {
            return Poll::Ready("SIGTERM");
        }
        if int.as_mut().poll(cx).is_ready() {
            return Poll::Ready("SIGINT");
        }
        Poll::Pending
    })
    .await
}
