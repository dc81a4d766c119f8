//! Prometheus metrics, served as text at `GET /metrics` from fixed tables of atomic counters:
//! recording a request takes no lock and allocates nothing.
//!
//! - `arbiter_http_requests_total{method,route,status}`: every answered request;
//! - `arbiter_http_request_duration_seconds{route}`: histogram of handling time;
//! - `arbiter_moves_generated_total{variant}`: legal moves returned by the moves endpoint;
//! - `arbiter_games_judged_total{variant}`: games judged (successful judge answers).
//!
//! Labels are bounded: `route` is the matched route *pattern* (`/v1/variants/{variant}/moves`,
//! one of [`ROUTES`]), or `unmatched` for unknown paths; `method` is one of the standard
//! methods or `OTHER`; `status` one of [`STATUSES`] or `other`; a `variant` label is only ever
//! a catalogue id. A client cannot create new series. Series that never moved are not written.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::ContentType;
use actix_web::middleware::Next;
use actix_web::{web, HttpResponse};

/// Upper bounds (seconds) of the duration histogram buckets.
pub const BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// The route label of requests that matched no route.
pub const UNMATCHED: &str = "unmatched";

/// The route patterns of the service: the resource names of the routes (`name` of each
/// `web::resource`, set to its pattern), then Swagger UI's and `unmatched`.
pub const ROUTES: [&str; 13] = [
    "/v1/variants",
    "/v1/variants/{variant}",
    "/v1/variants/{variant}/moves",
    "/v1/variants/{variant}/diagram",
    "/v1/variants/{variant}/play",
    "/v1/variants/{variant}/judge",
    "/v1/judge/pdn",
    "/healthz",
    "/readyz",
    "/metrics",
    "/swagger-ui/{_:.*}",
    "/swagger-ui",
    UNMATCHED,
];

/// The status codes counted one by one; any other is counted as `other`.
pub const STATUSES: [u16; 32] = [
    200, 201, 204, 206, 301, 302, 304, 307, 308, 400, 401, 403, 404, 405, 406, 408, 409, 411, 412,
    413, 414, 415, 416, 422, 429, 431, 500, 501, 502, 503, 504, 505,
];

/// The method labels.
pub const METHODS: [&str; 8] = [
    "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "OTHER",
];

/// Set by a handler on its response: the number of legal moves it returned.
#[derive(Clone, Copy, Debug)]
pub struct MovesGenerated(pub u64);

/// Set by a handler on its response: the games it judged, as (variant id, count). Without
/// it, a successful answer of a `/v1/variants/{variant}/...judge` route counts one game.
#[derive(Clone, Debug, Default)]
pub struct GamesJudged(pub Vec<(String, u64)>);

const N_STATUS: usize = STATUSES.len() + 1;

/// The duration histogram of one route: counts per bucket (not cumulative), the sum in
/// nanoseconds and the count.
struct Histogram {
    buckets: [AtomicU64; BUCKETS.len()],
    sum_nanos: AtomicU64,
    count: AtomicU64,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram {
            buckets: std::array::from_fn(|_| AtomicU64::new(0)),
            sum_nanos: AtomicU64::new(0),
            count: AtomicU64::new(0),
        }
    }
}

/// The metrics of one server (all its workers).
pub struct Metrics {
    /// `[route][method][status]`.
    requests: Vec<[[AtomicU64; N_STATUS]; METHODS.len()]>,
    durations: Vec<Histogram>,
    /// By catalogue index.
    moves: Vec<AtomicU64>,
    judged: Vec<AtomicU64>,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

/// The method label of a method name (`OTHER` for a non-standard one).
pub fn method_label(m: &str) -> &'static str {
    METHODS[method_index(m)]
}

fn method_index(m: &str) -> usize {
    METHODS[..7].iter().position(|x| *x == m).unwrap_or(7)
}

fn route_index(route: &str) -> usize {
    ROUTES
        .iter()
        .position(|r| *r == route)
        .unwrap_or(ROUTES.len() - 1)
}

fn status_index(status: u16) -> usize {
    STATUSES
        .iter()
        .position(|s| *s == status)
        .unwrap_or(STATUSES.len())
}

/// The catalogue index of a variant id or alias (a label that cannot come from a client).
fn variant_index(id: &str) -> Option<usize> {
    let v = arbiter_rules::variant_named(id)?;
    arbiter_rules::variants()
        .iter()
        .position(|x| x.id() == v.id())
}

impl Metrics {
    /// An empty registry.
    pub fn new() -> Metrics {
        let n = arbiter_rules::variants().len();
        Metrics {
            requests: (0..ROUTES.len())
                .map(|_| std::array::from_fn(|_| std::array::from_fn(|_| AtomicU64::new(0))))
                .collect(),
            durations: (0..ROUTES.len()).map(|_| Histogram::default()).collect(),
            moves: (0..n).map(|_| AtomicU64::new(0)).collect(),
            judged: (0..n).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Counts a request answered with `status` after `seconds`.
    pub fn observe(&self, method: &str, route: &str, status: u16, seconds: f64) {
        let r = route_index(route);
        self.requests[r][method_index(method)][status_index(status)].fetch_add(1, Relaxed);
        let h = &self.durations[r];
        if let Some(i) = BUCKETS.iter().position(|b| seconds <= *b) {
            h.buckets[i].fetch_add(1, Relaxed);
        }
        h.sum_nanos.fetch_add((seconds * 1e9) as u64, Relaxed);
        h.count.fetch_add(1, Relaxed);
    }

    /// Counts legal moves returned for a variant.
    pub fn add_moves(&self, variant: &str, n: u64) {
        if let Some(i) = variant_index(variant) {
            self.moves[i].fetch_add(n, Relaxed);
        }
    }

    /// Counts games judged for a variant.
    pub fn add_judged(&self, variant: &str, n: u64) {
        if let Some(i) = variant_index(variant) {
            self.judged[i].fetch_add(n, Relaxed);
        }
    }

    /// The exposition text of the request metrics.
    pub fn render(&self) -> String {
        let mut out = String::new();
        out.push_str("# HELP arbiter_http_requests_total HTTP requests answered, by method, route pattern and status.\n");
        out.push_str("# TYPE arbiter_http_requests_total counter\n");
        for (r, route) in ROUTES.iter().enumerate() {
            for (m, method) in METHODS.iter().enumerate() {
                for (si, n) in self.requests[r][m].iter().enumerate() {
                    let n = n.load(Relaxed);
                    if n == 0 {
                        continue;
                    }
                    let status = STATUSES
                        .get(si)
                        .map_or_else(|| "other".to_string(), |s| s.to_string());
                    let _ = writeln!(
                        out,
                        "arbiter_http_requests_total{{method=\"{method}\",route=\"{route}\",status=\"{status}\"}} {n}"
                    );
                }
            }
        }
        out.push_str("# HELP arbiter_http_request_duration_seconds Time to answer a request, by route pattern.\n");
        out.push_str("# TYPE arbiter_http_request_duration_seconds histogram\n");
        for (r, route) in ROUTES.iter().enumerate() {
            let h = &self.durations[r];
            let count = h.count.load(Relaxed);
            if count == 0 {
                continue;
            }
            let mut cumulative = 0;
            for (i, bound) in BUCKETS.iter().enumerate() {
                cumulative += h.buckets[i].load(Relaxed);
                let _ = writeln!(
                    out,
                    "arbiter_http_request_duration_seconds_bucket{{route=\"{route}\",le=\"{bound}\"}} {cumulative}"
                );
            }
            let _ = writeln!(
                out,
                "arbiter_http_request_duration_seconds_bucket{{route=\"{route}\",le=\"+Inf\"}} {count}"
            );
            let _ = writeln!(
                out,
                "arbiter_http_request_duration_seconds_sum{{route=\"{route}\"}} {}",
                h.sum_nanos.load(Relaxed) as f64 / 1e9
            );
            let _ = writeln!(
                out,
                "arbiter_http_request_duration_seconds_count{{route=\"{route}\"}} {count}"
            );
        }
        let ids = arbiter_rules::ids();
        out.push_str("# HELP arbiter_moves_generated_total Legal moves returned by the moves endpoint, by variant.\n");
        out.push_str("# TYPE arbiter_moves_generated_total counter\n");
        for (i, id) in ids.iter().enumerate() {
            let n = self.moves[i].load(Relaxed);
            if n > 0 {
                let _ = writeln!(out, "arbiter_moves_generated_total{{variant=\"{id}\"}} {n}");
            }
        }
        out.push_str(
            "# HELP arbiter_games_judged_total Games judged by the judge endpoints, by variant.\n",
        );
        out.push_str("# TYPE arbiter_games_judged_total counter\n");
        for (i, id) in ids.iter().enumerate() {
            let n = self.judged[i].load(Relaxed);
            if n > 0 {
                let _ = writeln!(out, "arbiter_games_judged_total{{variant=\"{id}\"}} {n}");
            }
        }
        out
    }
}

/// The route of [`ROUTES`] that `path` matches ([`UNMATCHED`] if none), read from the path
/// alone as the router reads it: `{variant}` is one non-empty segment, `{_:.*}` the rest.
/// For an answer the service could not make (a timed-out request), before routing.
pub fn route_of_path(path: &str) -> &'static str {
    let matches = |pattern: &str| {
        let mut want = pattern.split('/');
        let mut have = path.split('/');
        loop {
            match (want.next(), have.next()) {
                (None, None) => return true,
                (Some("{_:.*}"), Some(_)) => return true,
                (Some(w), Some(h)) if w.starts_with('{') => {
                    if h.is_empty() {
                        return false;
                    }
                }
                (Some(w), Some(h)) if w == h => {}
                _ => return false,
            }
        }
    };
    ROUTES
        .iter()
        .copied()
        .find(|r| *r != UNMATCHED && matches(r))
        .unwrap_or(UNMATCHED)
}

/// A resource's route pattern, in its app data ([`crate::api::resource`]): a request that
/// reached the resource carries it, so that its route is known without walking the routing
/// table again (`HttpRequest::match_pattern`).
#[derive(Clone, Copy, Debug)]
pub struct RouteLabel(pub &'static str);

/// The route pattern an answer's request matched (`None`: no route), found once by
/// [`record`] and kept in the answer's extensions for the access log
/// ([`crate::http::frame`]).
#[derive(Clone, Debug)]
pub struct RoutePattern(pub Option<std::borrow::Cow<'static, str>>);

/// The route pattern `req` matched: its resource's label, else (a resource without one, such
/// as Swagger UI's) a walk of the routing table.
pub fn route_pattern(req: &actix_web::HttpRequest) -> Option<std::borrow::Cow<'static, str>> {
    match req.app_data::<RouteLabel>() {
        Some(RouteLabel(p)) => Some(std::borrow::Cow::Borrowed(p)),
        None => req.match_pattern().map(std::borrow::Cow::Owned),
    }
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
    let res = match next.call(req).await {
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
    let mut res = res;
    let pattern = route_pattern(res.request());
    let route = pattern
        .as_deref()
        .map_or(UNMATCHED, |p| ROUTES[route_index(p)]);
    res.response_mut()
        .extensions_mut()
        .insert(RoutePattern(pattern));
    if let Some(metrics) = metrics {
        let seconds = started.elapsed().as_secs_f64();
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
    Ok(res)
}

pub async fn metrics(
    metrics: web::Data<Metrics>,
    engine: web::Data<crate::engine::Engine>,
) -> HttpResponse {
    let mut text = metrics.render();
    render_engine(&engine, &mut text);
    render_process(&mut text);
    HttpResponse::Ok()
        .insert_header(ContentType(
            "text/plain; version=0.0.4; charset=utf-8"
                .parse()
                .expect("valid media type"),
        ))
        .body(text)
}

/// The engine pool's gauges and counters.
fn render_engine(engine: &crate::engine::Engine, out: &mut String) {
    use std::sync::atomic::Ordering::Relaxed;
    let s = engine.stats();
    let _ = write!(
        out,
        "# HELP arbiter_engine_slots Engine jobs that may run at once (ARBITER_MAX_JOBS).\n\
         # TYPE arbiter_engine_slots gauge\n\
         arbiter_engine_slots {}\n\
         # HELP arbiter_engine_jobs_running Engine jobs running on the pool now.\n\
         # TYPE arbiter_engine_jobs_running gauge\n\
         arbiter_engine_jobs_running {}\n\
         # HELP arbiter_engine_requests_total Requests that ran the engine, by where they were answered.\n\
         # TYPE arbiter_engine_requests_total counter\n\
         arbiter_engine_requests_total{{where=\"inline\"}} {}\n\
         arbiter_engine_requests_total{{where=\"pool\"}} {}\n\
         # HELP arbiter_engine_rejected_total Requests refused by the engine bounds: overloaded (503) or over budget (422).\n\
         # TYPE arbiter_engine_rejected_total counter\n\
         arbiter_engine_rejected_total{{reason=\"overloaded\"}} {}\n\
         arbiter_engine_rejected_total{{reason=\"budget\"}} {}\n\
         # HELP arbiter_engine_work_units_total Engine work units spent.\n\
         # TYPE arbiter_engine_work_units_total counter\n\
         arbiter_engine_work_units_total {}\n",
        engine.config().max_jobs,
        engine.running(),
        s.inline.load(Relaxed),
        s.pooled.load(Relaxed),
        s.shed.load(Relaxed),
        s.over_budget.load(Relaxed),
        s.units.load(Relaxed),
    );
}

/// Resident memory and CPU time of the process (Linux; nothing elsewhere), under the names of
/// Prometheus' standard process collector.
fn render_process(out: &mut String) {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: sysconf has no preconditions.
        let (page, ticks) = unsafe {
            (
                libc::sysconf(libc::_SC_PAGESIZE),
                libc::sysconf(libc::_SC_CLK_TCK),
            )
        };
        let rss_pages = std::fs::read_to_string("/proc/self/statm")
            .ok()
            .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok());
        if let (Some(pages), true) = (rss_pages, page > 0) {
            let _ = write!(
                out,
                "# HELP process_resident_memory_bytes Resident memory size in bytes.\n\
                 # TYPE process_resident_memory_bytes gauge\n\
                 process_resident_memory_bytes {}\n",
                pages * page as u64
            );
        }
        // utime and stime: fields 14 and 15, counted after the command name's ')'.
        let cpu = std::fs::read_to_string("/proc/self/stat")
            .ok()
            .and_then(|s| {
                let rest = s.rsplit_once(')')?.1;
                let f: Vec<&str> = rest.split_whitespace().collect();
                Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
            });
        if let (Some(t), true) = (cpu, ticks > 0) {
            let _ = write!(
                out,
                "# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.\n\
                 # TYPE process_cpu_seconds_total counter\n\
                 process_cpu_seconds_total {}\n",
                t as f64 / ticks as f64
            );
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = out;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_read_from_paths() {
        for (path, route) in [
            ("/v1/variants", "/v1/variants"),
            ("/v1/variants/russian", "/v1/variants/{variant}"),
            ("/v1/variants/russian/moves", "/v1/variants/{variant}/moves"),
            ("/v1/variants/x/judge", "/v1/variants/{variant}/judge"),
            ("/v1/judge/pdn", "/v1/judge/pdn"),
            ("/healthz", "/healthz"),
            ("/swagger-ui/", "/swagger-ui/{_:.*}"),
            ("/swagger-ui/index.css", "/swagger-ui/{_:.*}"),
            ("/swagger-ui", "/swagger-ui"),
            ("/v1/variants//moves", UNMATCHED),
            ("/v1/variants/russian/moves/", UNMATCHED),
            ("/v1/variants/russian/other", UNMATCHED),
            ("/", UNMATCHED),
        ] {
            assert_eq!(route_of_path(path), route, "{path}");
        }
    }
}
