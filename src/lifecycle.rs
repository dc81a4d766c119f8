//! The life of a server: the shutdown signals. (The per-request timeout is applied by
//! [`crate::http::frame`].)

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
