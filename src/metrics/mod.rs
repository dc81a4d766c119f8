//! Prometheus metrics, kept by the `prometheus` crate and served as text at `GET /metrics`:
//!
//! - `arbiter_http_requests_total{method,route,status}`: every answered request;
//! - `arbiter_http_request_duration_seconds{route}`: histogram of handling time;
//! - `arbiter_moves_generated_total{variant}`: legal moves returned by the moves endpoint;
//! - `arbiter_games_judged_total{variant}`: games judged (successful judge answers);
//! - `arbiter_engine_*`: the engine pool's slots, running jobs, requests, refusals and work;
//! - `arbiter_endgame_*`: the endgame tables loaded from files and computed here (counts and
//!   bytes), probes by result, and evictions from the cache;
//! - `process_*`: the crate's standard process collector (resident memory, CPU seconds, open
//!   file descriptors, threads...).
//!
//! Labels are bounded: `route` is the route *pattern* the router matched
//! (`/v1/variants/{variant}/moves`, `HttpRequest::match_pattern`), or `unmatched` for unknown
//! paths; `method` is one of the standard methods or `OTHER`; `status` is the numeric code
//! (actix answers only valid codes); a `variant` label is only ever a catalogue id. A client
//! cannot create new series. Series that never moved are not written.

pub mod tags;

use std::borrow::Cow;
use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::ContentType;
use actix_web::middleware::Next;
use actix_web::{web, HttpResponse};
use prometheus::core::{Collector, Desc};
use prometheus::proto::MetricFamily;
use prometheus::{
    HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, Opts, Registry, TextEncoder,
};

use crate::engine::Engine;
use crate::http::routing::{not_allowed, on, GET, UNMATCHED};
use crate::tables::TableStore;
use tags::{GamesJudged, MovesGenerated, RoutePattern};

/// The path of the metrics endpoint.
pub const PATH: &str = "/metrics";

/// Upper bounds (seconds) of the duration histogram buckets.
pub const BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// The method labels.
pub const METHODS: [&str; 8] = [
    "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "OTHER",
];

/// The metrics of one process (every worker of the API and admin servers): a registry of its
/// own, so that servers built side by side (tests) count apart.
pub struct Metrics {
    registry: Registry,
    requests: IntCounterVec,
    durations: HistogramVec,
    moves: IntCounterVec,
    judged: IntCounterVec,
}

/// The method label of a method name (`OTHER` for a non-standard one).
pub fn method_label(m: &str) -> &'static str {
    METHODS[..7]
        .iter()
        .find(|x| **x == m)
        .copied()
        .unwrap_or("OTHER")
}

/// The catalogue id of a variant id or alias (a label that cannot come from a client).
fn variant_id(id: &str) -> Option<&'static str> {
    arbiter_rules::variant_named(id).map(|v| v.id())
}

/// `metric` registered in `registry` (names and labels are constants: a failure is a bug).
fn registered<C: Collector + Clone + 'static>(registry: &Registry, metric: C) -> C {
    registry
        .register(Box::new(metric.clone()))
        .expect("metric registered once");
    metric
}

impl Metrics {
    /// A registry with the request, engine and process metrics.
    pub fn new(engine: web::Data<Engine>, tables: web::Data<TableStore>) -> Metrics {
        let registry = Registry::new();
        let requests = registered(
            &registry,
            IntCounterVec::new(
                Opts::new(
                    "arbiter_http_requests_total",
                    "HTTP requests answered, by method, route pattern and status.",
                ),
                &["method", "route", "status"],
            )
            .expect("valid metric"),
        );
        let durations = registered(
            &registry,
            HistogramVec::new(
                HistogramOpts::new(
                    "arbiter_http_request_duration_seconds",
                    "Time to answer a request, by route pattern.",
                )
                .buckets(BUCKETS.to_vec()),
                &["route"],
            )
            .expect("valid metric"),
        );
        let moves = registered(
            &registry,
            IntCounterVec::new(
                Opts::new(
                    "arbiter_moves_generated_total",
                    "Legal moves returned by the moves endpoint, by variant.",
                ),
                &["variant"],
            )
            .expect("valid metric"),
        );
        let judged = registered(
            &registry,
            IntCounterVec::new(
                Opts::new(
                    "arbiter_games_judged_total",
                    "Games judged by the judge endpoints, by variant.",
                ),
                &["variant"],
            )
            .expect("valid metric"),
        );
        registered(&registry, Scraped::new(engine, EngineMetrics::metrics));
        registered(&registry, Scraped::new(tables, TablesMetrics::metrics));
        #[cfg(target_os = "linux")]
        registry
            .register(Box::new(
                prometheus::process_collector::ProcessCollector::for_self(),
            ))
            .expect("metric registered once");
        Metrics {
            registry,
            requests,
            durations,
            moves,
            judged,
        }
    }

    /// Counts a request answered with `status` after `seconds`.
    pub fn observe(&self, method: &str, route: &str, status: u16, seconds: f64) {
        // A valid code's text is static; other numbers cannot come from actix.
        let (code, other);
        let status = match actix_web::http::StatusCode::from_u16(status) {
            Ok(c) => {
                code = c;
                code.as_str()
            }
            Err(_) => {
                other = status.to_string();
                other.as_str()
            }
        };
        self.requests
            .with_label_values(&[method, route, status])
            .inc();
        self.durations.with_label_values(&[route]).observe(seconds);
    }

    /// Counts legal moves returned for a variant.
    pub fn add_moves(&self, variant: &str, n: u64) {
        if let Some(id) = variant_id(variant) {
            self.moves.with_label_values(&[id]).inc_by(n);
        }
    }

    /// Counts games judged for a variant.
    pub fn add_judged(&self, variant: &str, n: u64) {
        if let Some(id) = variant_id(variant) {
            self.judged.with_label_values(&[id]).inc_by(n);
        }
    }

    /// The exposition text of every metric.
    pub fn render(&self) -> String {
        let mut out = String::new();
        if let Err(e) = TextEncoder::new().encode_utf8(&self.registry.gather(), &mut out) {
            tracing::error!(error = %e, "metrics not encoded");
        }
        out
    }
}

/// Metrics read from a shared source at each scrape (the engine pool, the table store): one
/// collector for every such source, given the function that reads it.
struct Scraped<T: 'static> {
    source: web::Data<T>,
    read: fn(&T) -> Vec<Box<dyn Collector>>,
    descs: Vec<Desc>,
}

impl<T: 'static> Scraped<T> {
    fn new(source: web::Data<T>, read: fn(&T) -> Vec<Box<dyn Collector>>) -> Scraped<T> {
        let descs = read(&source)
            .iter()
            .flat_map(|m| m.desc().into_iter().cloned())
            .collect();
        Scraped {
            source,
            read,
            descs,
        }
    }
}

// Not derived: the source is shared, so `T` itself need not be `Clone`.
impl<T: 'static> Clone for Scraped<T> {
    fn clone(&self) -> Self {
        Scraped {
            source: self.source.clone(),
            read: self.read,
            descs: self.descs.clone(),
        }
    }
}

impl<T: Send + Sync + 'static> Collector for Scraped<T> {
    fn desc(&self) -> Vec<&Desc> {
        self.descs.iter().collect()
    }

    fn collect(&self) -> Vec<MetricFamily> {
        (self.read)(&self.source)
            .iter()
            .flat_map(|m| m.collect())
            .collect()
    }
}

/// The engine pool's gauges and counters, with the engine's values now.
struct EngineMetrics;

impl EngineMetrics {
    fn metrics(engine: &Engine) -> Vec<Box<dyn Collector>> {
        use std::sync::atomic::Ordering::Relaxed;
        let s = engine.stats();
        let gauge = |name: &str, help: &str, value: usize| {
            let g = IntGauge::new(name, help).expect("valid metric");
            g.set(i64::try_from(value).unwrap_or(i64::MAX));
            Box::new(g) as Box<dyn Collector>
        };
        let counters = |name: &str, help: &str, label: &str, values: &[(&str, u64)]| {
            let c = IntCounterVec::new(Opts::new(name, help), &[label]).expect("valid metric");
            for (l, v) in values {
                c.with_label_values(&[*l]).inc_by(*v);
            }
            Box::new(c) as Box<dyn Collector>
        };
        let units = IntCounter::new(
            "arbiter_engine_work_units_total",
            "Engine work units spent.",
        )
        .expect("valid metric");
        units.inc_by(s.units.load(Relaxed));
        vec![
            gauge(
                "arbiter_engine_slots",
                "Engine jobs that may run at once (ARBITER_MAX_JOBS).",
                engine.config().max_jobs,
            ),
            gauge(
                "arbiter_engine_jobs_running",
                "Engine jobs running on the pool now.",
                engine.running(),
            ),
            counters(
                "arbiter_engine_requests_total",
                "Requests that ran the engine, by where they were answered.",
                "where",
                &[
                    ("inline", s.inline.load(Relaxed)),
                    ("pool", s.pooled.load(Relaxed)),
                ],
            ),
            counters(
                "arbiter_engine_rejected_total",
                "Requests refused by the engine bounds: overloaded (503) or over budget (422).",
                "reason",
                &[
                    ("overloaded", s.shed.load(Relaxed)),
                    ("budget", s.over_budget.load(Relaxed)),
                ],
            ),
            Box::new(units),
        ]
    }
}

/// The endgame tables' gauges and counters, with the store's values now.
struct TablesMetrics;

impl TablesMetrics {
    fn metrics(tables: &TableStore) -> Vec<Box<dyn Collector>> {
        use std::sync::atomic::Ordering::Relaxed;
        let s = tables.stats();
        let (built, built_bytes) = tables.built();
        let by_source = |name: &str, help: &str, values: [usize; 2]| {
            let g = prometheus::IntGaugeVec::new(Opts::new(name, help), &["source"])
                .expect("valid metric");
            for (l, v) in ["file", "built"].iter().zip(values) {
                g.with_label_values(&[*l])
                    .set(i64::try_from(v).unwrap_or(i64::MAX));
            }
            Box::new(g) as Box<dyn Collector>
        };
        let probes = IntCounterVec::new(
            Opts::new(
                "arbiter_endgame_probes_total",
                "Endgame table probes, by result: in the tables (hit) or not (miss).",
            ),
            &["result"],
        )
        .expect("valid metric");
        probes
            .with_label_values(&["hit"])
            .inc_by(s.hits.load(Relaxed));
        probes
            .with_label_values(&["miss"])
            .inc_by(s.misses.load(Relaxed));
        let counter = |name: &str, help: &str, value: u64| {
            let c = IntCounter::new(name, help).expect("valid metric");
            c.inc_by(value);
            Box::new(c) as Box<dyn Collector>
        };
        vec![
            by_source(
                "arbiter_endgame_tables",
                "Endgame tables in memory, by source: loaded from ARBITER_TABLES_DIR or built here.",
                [tables.prebuilt_count(), built],
            ),
            by_source(
                "arbiter_endgame_table_bytes",
                "Bytes of the endgame tables' values, by source: prebuilt ones mapped from their files (page cache), built ones in the replica's own memory.",
                [tables.prebuilt_bytes(), built_bytes],
            ),
            Box::new(probes),
            counter(
                "arbiter_endgame_tables_built_total",
                "Endgame tables computed on this replica.",
                s.built.load(Relaxed),
            ),
            counter(
                "arbiter_endgame_evictions_total",
                "Times a variant's built endgame tables were dropped to stay within ARBITER_TABLES_MEMORY_BYTES.",
                s.evictions.load(Relaxed),
            ),
        ]
    }
}

/// The route pattern `req` matched, as the router knows it.
pub fn route_pattern(req: &actix_web::HttpRequest) -> Option<Cow<'static, str>> {
    req.match_pattern().map(Cow::Owned)
}

/// Middleware: counts every answered request, its duration, and the moves and games of the
/// answers that say so ([`MovesGenerated`], [`GamesJudged`]).
pub async fn record(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody + 'static>, actix_web::Error> {
    let started = Instant::now();
    let method = method_label(req.method().as_str());
    let metrics = req.app_data::<web::Data<Metrics>>().cloned();
    let mut res = match next.call(req).await {
        Ok(res) => res,
        Err(e) => {
            // An error from a middleware: no response to look at.
            if let Some(metrics) = metrics {
                let status = e.as_response_error().status_code().as_u16();
                metrics.observe(method, UNMATCHED, status, started.elapsed().as_secs_f64());
            }
            return Err(e);
        }
    };
    let pattern = route_pattern(res.request());
    if let Some(metrics) = metrics {
        let seconds = started.elapsed().as_secs_f64();
        let route = pattern.as_deref().unwrap_or(UNMATCHED);
        let request = res.request();
        let status = res.status();
        metrics.observe(method, route, status.as_u16(), seconds);
        if status.is_success() {
            let extensions = res.response().extensions();
            let variant = request.match_info().get("variant");
            if let (Some(variant), Some(MovesGenerated(n))) =
                (variant, extensions.get::<MovesGenerated>())
            {
                metrics.add_moves(variant, *n);
            }
            match (extensions.get::<GamesJudged>(), variant) {
                (Some(GamesJudged(games)), _) => {
                    for (v, n) in games {
                        metrics.add_judged(v, *n);
                    }
                }
                (None, Some(variant)) if route.ends_with("/judge") => {
                    metrics.add_judged(variant, 1)
                }
                _ => {}
            }
        }
    }
    res.response_mut()
        .extensions_mut()
        .insert(RoutePattern(pattern));
    Ok(res)
}

/// Registers `GET /metrics` (405 for other methods).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource(PATH)
            .route(on(actix_web::http::Method::GET).to(metrics))
            .default_service(not_allowed(GET)),
    );
}

/// `GET /metrics`: the exposition text.
pub async fn metrics(metrics: web::Data<Metrics>) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header(ContentType(
            "text/plain; version=0.0.4; charset=utf-8"
                .parse()
                .expect("valid media type"),
        ))
        .body(metrics.render())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn method_labels_are_bounded() {
        assert_eq!(method_label("GET"), "GET");
        assert_eq!(method_label("OPTIONS"), "OPTIONS");
        assert_eq!(method_label("BREW"), "OTHER");
        assert_eq!(method_label("get"), "OTHER");
    }
}
