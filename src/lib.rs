//! Arbiter: a stateless REST rules referee for draughts and its cousins.
//!
//! [`build`] binds the listeners and returns the servers and their ports (tests bind
//! `127.0.0.1:0`); [`run`] builds and serves until shut down. The rules live in the
//! `arbiter-rules` crate; this crate serves them.
//!
//! The modules form layers, listed from the bottom; each uses only modules of earlier layers
//! (`docs/architecture.md` draws them, and a test keeps them so):
//!
//! 1. [`config`]: plain settings, the flags of `arbiter serve`, the bounds.
//! 2. [`tables`]: the endgame tables a replica serves (prebuilt files, and small tables
//!    computed on first use).
//! 3. [`problem`]: the problem vocabulary, every failure of every operation.
//! 4. [`ops`]: the operations every front end shares, with typed inputs and outputs and the
//!    budget passed in. No HTTP.
//! 5. [`engine`], [`telemetry`], [`lifecycle`]: where a server runs engine work within its
//!    budget, its logs, its signals.
//! 6. [`metrics`], [`http`]: the metrics and their tags; the HTTP layer's own parts
//!    (middleware, bodies, problem documents on the wire, routing helpers).
//! 7. [`api`]: the resources; [`openapi`]: the API document and Swagger UI; [`board`]: the
//!    board page, a client of the API in the browser; [`referee`]: `arbiter match`, the
//!    referee of matches between engines (DXP, Hub), a front end on the operations beside HTTP.
//! 8. This file, which builds each part from the settings, and `main.rs`, the command line.

pub mod api;
pub mod board;
pub mod config;
pub mod engine;
pub mod http;
pub mod lifecycle;
pub mod metrics;
pub mod openapi;
pub mod ops;
pub mod problem;
pub mod referee;
pub mod tables;
pub mod telemetry;

use std::net::TcpListener;

use actix_web::dev::Server;
use actix_web::middleware::{Condition, ErrorHandlers};
use actix_web::{web, App, HttpRequest, HttpResponse, HttpServer};

use crate::config::{BodyLimit, Config};
use crate::http::routing::RouteTable;
use crate::problem::ApiError;

/// The response header carrying the request id.
pub const REQUEST_ID_HEADER: &str = http::middleware::REQUEST_ID_HEADER;

/// Every route pattern of a server, for naming a request by its path alone: the API's, the
/// metrics', the documentation's and the board page's.
pub fn route_table() -> RouteTable {
    RouteTable::new(
        api::patterns()
            .chain([metrics::PATH])
            .chain(openapi::PATTERNS)
            .chain(board::PATTERNS),
    )
}

/// The servers of one process: the API, and the admin listener if one is configured.
pub struct Servers {
    /// The API server (every endpoint and the probes; `/metrics` too when there is no admin
    /// listener).
    pub api: Server,
    /// The port the API server bound.
    pub port: u16,
    /// The admin server (`/healthz`, `/readyz`, `/metrics` only, on a thread of its own) and
    /// its port, when `config.admin_addr` is set.
    pub admin: Option<(Server, u16)>,
}

/// What the API and admin servers of one process share.
#[derive(Clone)]
struct Shared {
    shutdown: web::Data<config::ShutdownFlag>,
    metrics: web::Data<metrics::Metrics>,
    engine: web::Data<engine::Engine>,
    tables: web::Data<tables::TableStore>,
}

/// Binds and builds every server of the process (not yet running): the API on `config.addr`
/// and, when `config.admin_addr` is set, the admin listener, which then alone serves
/// `/metrics`. Returns them with the ports actually bound (useful with port 0).
///
/// Both are actix-web's `HttpServer`. A few answers are written by actix-http itself, before
/// any application code runs, so they are not problem documents: an empty body and
/// `Connection: close`, with 400 for a request it cannot parse (a malformed request line, a
/// URI over 64 KiB, an invalid header or `Content-Length`), 431 for a request head over
/// 128 KiB or with more than 96 header fields, and 408 for a request head not received within
/// `config.request_timeout`. Behind the load balancer these never reach a client: nginx
/// parses every request first and answers malformed ones itself, with problem documents
/// (`deploy/nginx.conf.template`).
pub fn build(config: &Config) -> std::io::Result<Servers> {
    let engine = web::Data::from(engine::Engine::start(config.engine));
    let tables = web::Data::new(
        tables::TableStore::from_config(&config.tables).map_err(std::io::Error::other)?,
    );
    let shared = Shared {
        shutdown: web::Data::new(config.shutdown.clone()),
        metrics: web::Data::new(metrics::Metrics::new(engine.clone(), tables.clone())),
        engine,
        tables,
    };
    http::routing::install(route_table());
    let admin = match &config.admin_addr {
        Some(addr) => Some(admin_server(addr, config, shared.clone())?),
        None => None,
    };
    let (api, port) = api_server(config, shared, admin.is_none())?;
    Ok(Servers { api, port, admin })
}

/// The admin listener: the probes and the metrics on a server of one worker thread of its own,
/// so that they are answered at once whatever the API workers are busy with (a kubelet's probe
/// never waits behind API requests).
fn admin_server(addr: &str, config: &Config, shared: Shared) -> std::io::Result<(Server, u16)> {
    let listener = TcpListener::bind(addr)?;
    let port = listener.local_addr()?.port();
    let http_config = web::Data::new(config.http.clone());
    let server = HttpServer::new(move || {
        App::new()
            .app_data(shared.shutdown.clone())
            .app_data(shared.metrics.clone())
            .app_data(shared.engine.clone())
            .app_data(http_config.clone())
            .wrap(ErrorHandlers::new().default_handler(http::errors::ensure_problem))
            .wrap(actix_web::middleware::from_fn(metrics::record))
            .wrap(actix_web::middleware::from_fn(
                http::middleware::representation,
            ))
            .wrap(actix_web::middleware::from_fn(http::middleware::frame))
            .configure(api::configure_probes)
            .configure(metrics::configure)
            .default_service(web::to(|req: HttpRequest| async move {
                Err::<HttpResponse, ApiError>(ApiError::not_found(req.path()))
            }))
    })
    .workers(1)
    .client_request_timeout(config.request_timeout)
    .shutdown_timeout(config.shutdown_timeout.as_secs())
    .disable_signals()
    .listen(listener)?
    .run();
    Ok((server, port))
}

/// The API server: every route of the API, the documentation, and `/metrics` when
/// `with_metrics`.
fn api_server(
    config: &Config,
    shared: Shared,
    with_metrics: bool,
) -> std::io::Result<(Server, u16)> {
    let listener = TcpListener::bind(&config.addr)?;
    let port = listener.local_addr()?.port();
    let doc = openapi::document();
    let body_limit = config.body_limit;
    let http_config = web::Data::new(config::HttpConfig {
        request_timeout: Some(config.request_timeout),
        ..config.http.clone()
    });
    let compress_cache = web::Data::new(http::middleware::CompressCache::default());
    let pdn_stream = web::Data::new(config.pdn_stream);
    let cors_enabled = !matches!(&config.http.cors_origins, Some(list) if list.is_empty());
    let mut server = HttpServer::new(move || {
        App::new()
            .app_data(BodyLimit(body_limit))
            .app_data(shared.shutdown.clone())
            .app_data(shared.metrics.clone())
            .app_data(shared.engine.clone())
            .app_data(shared.tables.clone())
            .app_data(http_config.clone())
            .app_data(compress_cache.clone())
            .app_data(pdn_stream.clone())
            .app_data(web::QueryConfig::default().error_handler(http::errors::query_config_error))
            .app_data(web::PathConfig::default().error_handler(http::errors::path_config_error))
            // Innermost first: metrics, ETags and compression, CORS, problem documents for
            // whatever actix answers itself, then the request id, HEAD, the request timeout
            // and the access log around everything.
            .wrap(actix_web::middleware::from_fn(metrics::record))
            .wrap(actix_web::middleware::from_fn(
                http::middleware::representation,
            ))
            .wrap(Condition::new(
                cors_enabled,
                http::middleware::cors(&http_config),
            ))
            .wrap(ErrorHandlers::new().default_handler(http::errors::ensure_problem))
            .wrap(actix_web::middleware::from_fn(http::middleware::frame))
            .configure(api::configure)
            .configure(|cfg| {
                if with_metrics {
                    metrics::configure(cfg);
                }
            })
            .configure(|cfg| openapi::configure(cfg, doc.clone()))
            .configure(board::configure)
            .default_service(web::to(openapi::fallback))
    })
    .keep_alive(if config.keep_alive.is_zero() {
        actix_web::http::KeepAlive::Disabled
    } else {
        actix_web::http::KeepAlive::Timeout(config.keep_alive)
    })
    .client_request_timeout(config.request_timeout)
    .tcp_nodelay(true)
    .shutdown_timeout(config.shutdown_timeout.as_secs())
    .disable_signals();
    if let Some(n) = config.workers {
        server = server.workers(n);
    }
    Ok((server.listen(listener)?.run(), port))
}

/// Builds the server for `config` and serves until SIGTERM or SIGINT, then shuts down
/// gracefully: `/readyz` answers 503 at once, requests are still served for
/// `config.shutdown_delay`, then the listener closes and in-flight requests get up to
/// `config.shutdown_timeout` to finish.
pub async fn run(config: Config) -> std::io::Result<()> {
    let Servers {
        api: server,
        port,
        admin,
    } = build(&config)?;
    tracing::info!(addr = %config.addr, port, "arbiter listening");
    let admin_handle = admin.as_ref().map(|(s, admin_port)| {
        tracing::info!(addr = ?config.admin_addr, port = admin_port, "admin listener (probes, metrics)");
        s.handle()
    });
    if let Some((admin, _)) = admin {
        actix_web::rt::spawn(admin);
    }
    let handle = server.handle();
    let shutdown = config.shutdown.clone();
    let grace = config.shutdown_timeout;
    let delay = config.shutdown_delay;
    actix_web::rt::spawn(async move {
        let signal = lifecycle::shutdown_signal().await;
        shutdown.start();
        tracing::info!(
            signal,
            delay_seconds = delay.as_secs(),
            grace_seconds = grace.as_secs(),
            "shutting down gracefully"
        );
        actix_web::rt::time::sleep(delay).await;
        handle.stop(true).await;
    });
    server.await?;
    // The probes answer until the API has stopped.
    if let Some(admin) = admin_handle {
        admin.stop(true).await;
    }
    tracing::info!("arbiter stopped");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::routing::UNMATCHED;

    #[test]
    fn routes_read_from_paths() {
        let table = route_table();
        for (path, route) in [
            ("/v1/variants", "/v1/variants"),
            ("/v1/variants/russian", "/v1/variants/{variant}"),
            ("/v1/variants/russian/moves", "/v1/variants/{variant}/moves"),
            ("/v1/variants/x/judge", "/v1/variants/{variant}/judge"),
            ("/v1/judge/pdn", "/v1/judge/pdn"),
            ("/healthz", "/healthz"),
            ("/metrics", "/metrics"),
            ("/swagger-ui/", "/swagger-ui/{_:.*}"),
            ("/swagger-ui/index.css", "/swagger-ui/{_:.*}"),
            ("/swagger-ui", "/swagger-ui"),
            ("/api-docs/openapi.json", "/api-docs/openapi.json"),
            ("/board", "/board"),
            ("/board/", "/board/"),
            ("/board/app.js", "/board/{file}"),
            ("/board/a/b", UNMATCHED),
            ("/v1/variants//moves", UNMATCHED),
            ("/v1/variants/russian/moves/", UNMATCHED),
            ("/v1/variants/russian/other", UNMATCHED),
            ("/", UNMATCHED),
        ] {
            assert_eq!(table.route_of(path), route, "{path}");
        }
    }
}
