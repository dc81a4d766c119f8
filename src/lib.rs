//! Arbiter: a stateless REST rules referee for draughts and its cousins.
//!
//! [`build`] binds an address and returns the server and its port (tests bind
//! `127.0.0.1:0`); [`run`] builds and serves until shut down. The rules live in the
//! `arbiter-rules` crate; this crate only translates HTTP and JSON.

pub mod api;
pub mod config;
pub mod engine;
pub mod errors;
pub mod http;
pub mod lifecycle;
pub mod metrics;
pub mod openapi;
pub mod server;
pub mod telemetry;

use std::net::TcpListener;

use actix_service::{IntoServiceFactory, ServiceFactoryExt};
use actix_web::dev::Server;
use actix_web::http::Method;
use actix_web::middleware::{Condition, ErrorHandlers};
use actix_web::{web, App, HttpRequest, HttpResponse};
use utoipa_swagger_ui::SwaggerUi;

use crate::config::{BodyLimit, Config};
use crate::errors::ApiError;

/// The response header carrying the request id.
pub const REQUEST_ID_HEADER: &str = http::REQUEST_ID_HEADER;

/// The servers of one process: the API, and the admin listener if one is configured.
pub struct Servers {
    /// The API server (every endpoint, probes and metrics included).
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
}

/// Binds `config.addr` and builds the API server (not yet running). Returns the server and the
/// port actually bound (useful with port 0). The admin listener is not started: see
/// [`build_servers`].
pub fn build(config: &Config) -> std::io::Result<(Server, u16)> {
    let shared = Shared {
        shutdown: web::Data::new(config.shutdown.clone()),
        metrics: web::Data::new(metrics::Metrics::new()),
        engine: web::Data::from(engine::Engine::start(config.engine)),
    };
    api_server(config, shared)
}

/// Binds and builds every server of the process: the API on `config.addr` and, when
/// `config.admin_addr` is set, the admin listener.
pub fn build_servers(config: &Config) -> std::io::Result<Servers> {
    let shared = Shared {
        shutdown: web::Data::new(config.shutdown.clone()),
        metrics: web::Data::new(metrics::Metrics::new()),
        engine: web::Data::from(engine::Engine::start(config.engine)),
    };
    let admin = match &config.admin_addr {
        Some(addr) => Some(admin_server(addr, config, shared.clone())?),
        None => None,
    };
    let (api, port) = api_server(config, shared)?;
    Ok(Servers { api, port, admin })
}

/// The admin listener: the probes and the metrics on a server of one worker thread of its own,
/// so that they are answered at once whatever the API workers are busy with (a kubelet's probe
/// never waits behind API requests).
fn admin_server(addr: &str, config: &Config, shared: Shared) -> std::io::Result<(Server, u16)> {
    let listener = TcpListener::bind(addr)?;
    let port = listener.local_addr()?.port();
    let http_config = web::Data::new(config.http.clone());
    let server = actix_web::HttpServer::new(move || {
        App::new()
            .app_data(shared.shutdown.clone())
            .app_data(shared.metrics.clone())
            .app_data(shared.engine.clone())
            .app_data(http_config.clone())
            .wrap(ErrorHandlers::new().default_handler(errors::ensure_problem))
            .wrap(actix_web::middleware::from_fn(metrics::record))
            .wrap(actix_web::middleware::from_fn(http::representation))
            .wrap(actix_web::middleware::from_fn(http::frame))
            .service(
                api::resource("/healthz")
                    .route(api::on(Method::GET).to(api::health::healthz))
                    .default_service(api::not_allowed(api::GET)),
            )
            .service(
                api::resource("/readyz")
                    .route(api::on(Method::GET).to(api::health::readyz))
                    .default_service(api::not_allowed(api::GET)),
            )
            .service(
                api::resource("/metrics")
                    .route(api::on(Method::GET).to(metrics::metrics))
                    .default_service(api::not_allowed(api::GET)),
            )
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

fn api_server(config: &Config, shared: Shared) -> std::io::Result<(Server, u16)> {
    let listener = TcpListener::bind(&config.addr)?;
    let port = listener.local_addr()?.port();
    let doc = openapi::document();
    let body_limit = config.body_limit;
    let request_timeout = config.request_timeout;
    let Shared {
        shutdown,
        metrics,
        engine,
    } = shared;
    let http_config = web::Data::new(http::HttpConfig {
        request_timeout: Some(request_timeout),
        ..config.http.clone()
    });
    let compress_cache = web::Data::new(http::CompressCache::default());
    let cors_enabled = !matches!(&config.http.cors_origins, Some(list) if list.is_empty());
    let make_app = move || {
        App::new()
            .app_data(BodyLimit(body_limit))
            .app_data(shutdown.clone())
            .app_data(metrics.clone())
            .app_data(engine.clone())
            .app_data(http_config.clone())
            .app_data(compress_cache.clone())
            .app_data(web::QueryConfig::default().error_handler(errors::query_config_error))
            .app_data(web::PathConfig::default().error_handler(errors::path_config_error))
            // Innermost first: metrics, ETags and compression, CORS, problem documents for
            // whatever actix answers itself, then the request id, HEAD, the request timeout
            // and the access log around everything.
            .wrap(actix_web::middleware::from_fn(metrics::record))
            .wrap(actix_web::middleware::from_fn(http::representation))
            .wrap(Condition::new(cors_enabled, http::cors(&http_config)))
            .wrap(ErrorHandlers::new().default_handler(errors::ensure_problem))
            .wrap(actix_web::middleware::from_fn(http::frame))
            .configure(api::configure)
            .service(
                api::resource("/metrics")
                    .route(api::on(Method::GET).to(metrics::metrics))
                    .default_service(api::not_allowed(api::GET)),
            )
            .service(
                SwaggerUi::new("/swagger-ui/{_:.*}")
                    .url("/api-docs/openapi.json", doc.clone())
                    .config(
                        utoipa_swagger_ui::Config::from("/api-docs/openapi.json")
                            .validator_url("none")
                            .try_it_out_enabled(true),
                    ),
            )
            .service(web::resource("/swagger-ui").route(web::get().to(|| async {
                HttpResponse::PermanentRedirect()
                    .insert_header(("Location", "/swagger-ui/"))
                    .finish()
            })))
            .default_service(web::to(api::fallback))
    };
    let local_addr = listener.local_addr()?;
    let keep_alive = if config.keep_alive.is_zero() {
        actix_web::http::KeepAlive::Disabled
    } else {
        actix_web::http::KeepAlive::Timeout(config.keep_alive)
    };
    let client_request_timeout = config.request_timeout;
    let bare_text = std::sync::Arc::new(server::BareErrorText {
        head_timeout_secs: config.request_timeout.as_secs(),
    });
    let mut builder = actix_server::Server::build()
        .shutdown_timeout(config.shutdown_timeout.as_secs())
        .disable_signals();
    if let Some(n) = config.workers {
        builder = builder.workers(n);
    }
    let graceful = builder.graceful_shutdown_signal();
    let builder = builder.listen("arbiter", listener, move || {
        let graceful = graceful.clone();
        let bare_text = bare_text.clone();
        let app = actix_service::apply(
            server::BodyAfterHead,
            make_app()
                .into_factory()
                .map_err(|err: actix_web::Error| err.error_response()),
        );
        let http = actix_http::HttpService::build()
            .keep_alive(keep_alive)
            .client_request_timeout(client_request_timeout)
            .local_addr(local_addr)
            .graceful_shutdown_signal(move || {
                let graceful = graceful.clone();
                async move { graceful.notified().await }
            })
            .h1(actix_service::map_config(app, |_| {
                actix_web::dev::AppConfig::default()
            }));
        actix_service::fn_service(move |io: actix_web::rt::net::TcpStream| {
            std::future::ready(Ok::<_, actix_http::error::DispatchError>(server::accept(
                io,
                bare_text.clone(),
            )))
        })
        .and_then(http)
    })?;
    Ok((builder.run(), port))
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
    } = build_servers(&config)?;
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
