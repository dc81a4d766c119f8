//! Prometheus metrics, served as text at `GET /metrics` by a small hand-written registry.
//!
//! - `arbiter_http_requests_total{method,route,status}`: every answered request;
//! - `arbiter_http_request_duration_seconds{route}`: histogram of handling time;
//! - `arbiter_moves_generated_total{variant}`: legal moves returned by the moves endpoint;
//! - `arbiter_games_judged_total{variant}`: games judged (successful judge answers).
//!
//! Labels are bounded: `route` is the matched route *pattern* (`/v1/variants/{variant}/moves`),
//! or `unmatched` for unknown paths; `method` is one of the standard methods or `OTHER`; a
//! `variant` label is only ever a catalogue id. A client cannot create new series.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Mutex;
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

/// Set by a handler on its response: the number of legal moves it returned.
#[derive(Clone, Copy, Debug)]
pub struct MovesGenerated(pub u64);

/// Set by a handler on its response: the games it judged, as (variant id, count). Without
/// it, a successful answer of a `/v1/variants/{variant}/...judge` route counts one game.
#[derive(Clone, Debug, Default)]
pub struct GamesJudged(pub Vec<(String, u64)>);

#[derive(Default)]
struct Histogram {
    counts: [u64; BUCKETS.len()],
    sum: f64,
    count: u64,
}

#[derive(Default)]
struct Inner {
    requests: BTreeMap<(&'static str, String, u16), u64>,
    durations: BTreeMap<String, Histogram>,
    moves: BTreeMap<&'static str, u64>,
    judged: BTreeMap<&'static str, u64>,
}

/// The metrics of one server (all its workers).
#[derive(Default)]
pub struct Metrics {
    inner: Mutex<Inner>,
}

/// The method label of a method name (`OTHER` for a non-standard one).
pub fn method_label(m: &str) -> &'static str {
    match m {
        "GET" => "GET",
        "POST" => "POST",
        "PUT" => "PUT",
        "DELETE" => "DELETE",
        "PATCH" => "PATCH",
        "HEAD" => "HEAD",
        "OPTIONS" => "OPTIONS",
        _ => "OTHER",
    }
}

/// The catalogue id equal to `id`, if any (a `'static` label that cannot come from a client).
fn variant_label(id: &str) -> Option<&'static str> {
    arbiter_rules::variant_named(id).map(|v| v.id())
}

impl Metrics {
    /// An empty registry.
    pub fn new() -> Metrics {
        Metrics::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Records one answered request.
    pub fn observe(&self, method: &'static str, route: &str, status: u16, seconds: f64) {
        let mut inner = self.lock();
        *inner
            .requests
            .entry((method, route.to_string(), status))
            .or_default() += 1;
        let h = inner.durations.entry(route.to_string()).or_default();
        for (i, bound) in BUCKETS.iter().enumerate() {
            if seconds <= *bound {
                h.counts[i] += 1;
            }
        }
        h.sum += seconds;
        h.count += 1;
    }

    /// Adds `n` legal moves returned for `variant` (ignored unless a catalogue id).
    pub fn add_moves(&self, variant: &str, n: u64) {
        if let Some(v) = variant_label(variant) {
            *self.lock().moves.entry(v).or_default() += n;
        }
    }

    /// Adds `n` judged games of `variant` (ignored unless a catalogue id).
    pub fn add_judged(&self, variant: &str, n: u64) {
        if let Some(v) = variant_label(variant) {
            *self.lock().judged.entry(v).or_default() += n;
        }
    }

    /// The Prometheus text exposition (format 0.0.4).
    pub fn render(&self) -> String {
        let inner = self.lock();
        let mut out = String::new();
        out.push_str("# HELP arbiter_http_requests_total HTTP requests answered, by method, route pattern and status.\n");
        out.push_str("# TYPE arbiter_http_requests_total counter\n");
        for ((method, route, status), n) in &inner.requests {
            let _ = writeln!(
                out,
                "arbiter_http_requests_total{{method=\"{method}\",route=\"{}\",status=\"{status}\"}} {n}",
                escape(route)
            );
        }
        out.push_str("# HELP arbiter_http_request_duration_seconds Time to answer a request, by route pattern.\n");
        out.push_str("# TYPE arbiter_http_request_duration_seconds histogram\n");
        for (route, h) in &inner.durations {
            let route = escape(route);
            for (i, bound) in BUCKETS.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "arbiter_http_request_duration_seconds_bucket{{route=\"{route}\",le=\"{bound}\"}} {}",
                    h.counts[i]
                );
            }
            let _ = writeln!(
                out,
                "arbiter_http_request_duration_seconds_bucket{{route=\"{route}\",le=\"+Inf\"}} {}",
                h.count
            );
            let _ = writeln!(
                out,
                "arbiter_http_request_duration_seconds_sum{{route=\"{route}\"}} {}",
                h.sum
            );
            let _ = writeln!(
                out,
                "arbiter_http_request_duration_seconds_count{{route=\"{route}\"}} {}",
                h.count
            );
        }
        out.push_str("# HELP arbiter_moves_generated_total Legal moves returned by the moves endpoint, by variant.\n");
        out.push_str("# TYPE arbiter_moves_generated_total counter\n");
        for (v, n) in &inner.moves {
            let _ = writeln!(out, "arbiter_moves_generated_total{{variant=\"{v}\"}} {n}");
        }
        out.push_str(
            "# HELP arbiter_games_judged_total Games judged by the judge endpoints, by variant.\n",
        );
        out.push_str("# TYPE arbiter_games_judged_total counter\n");
        for (v, n) in &inner.judged {
            let _ = writeln!(out, "arbiter_games_judged_total{{variant=\"{v}\"}} {n}");
        }
        out
    }
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// Middleware (`actix_web::middleware::from_fn`) recording every request.
pub async fn record(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody + 'static>, actix_web::Error> {
    let started = Instant::now();
    let method = method_label(req.method().as_str());
    let metrics = req.app_data::<web::Data<Metrics>>().cloned();
    let pattern = req.request().resource_map().match_pattern(req.path());
    let res = match next.call(req).await {
        Ok(res) => res,
        Err(e) => {
            // An error from a middleware (the request timeout): no response to look at.
            if let Some(metrics) = metrics {
                let status = e.as_response_error().status_code().as_u16();
                let route = pattern.as_deref().unwrap_or(UNMATCHED);
                metrics.observe(method, route, status, started.elapsed().as_secs_f64());
            }
            return Err(e);
        }
    };
    if let Some(metrics) = metrics {
        let seconds = started.elapsed().as_secs_f64();
        let request = res.request();
        let route = request
            .match_pattern()
            .unwrap_or_else(|| UNMATCHED.to_string());
        let status = res.status();
        metrics.observe(method, &route, status.as_u16(), seconds);
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

/// `GET /metrics`: the Prometheus text exposition.
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
