//! HTTP resources, one file each, with their request types next to the handlers. A handler
//! reads the request, calls one operation of [`crate::ops`] (on the engine pool when it runs
//! the rules), and writes the answer; the route table is here.

pub mod diagram;
pub mod endgame;
pub mod health;
pub mod judge;
pub mod moves;
pub mod pdn;
pub mod pdn_stream;
pub mod perft;
pub mod play;
pub mod variants;

use actix_web::http::Method;
use actix_web::web;

use crate::http::routing::{not_allowed, on};

/// A route of the API: a path pattern and, for each method it answers, the registration of
/// its handler.
pub struct Route {
    pub pattern: &'static str,
    pub methods: &'static [(Method, Handler)],
}

/// Gives a route (already guarded by its method) its handler: `|r| r.to(handler)`.
pub type Handler = fn(actix_web::Route) -> actix_web::Route;

/// Declares the routes once: [`ROUTES`], which [`configure`] registers with the router (and
/// the metrics read: `metrics::route_of_path`), and [`Paths`], the derived OpenAPI paths of
/// the same handlers, which `crate::openapi` puts in the API document. Each handler's
/// `#[utoipa::path]` repeats its path and method, as utoipa needs; a test checks that the two
/// agree.
macro_rules! routes {
    ($($pattern:literal => [$($method:ident $module:ident :: $handler:ident),+]),+ $(,)?) => {
        /// Every route of the API, in the order the router tries them.
        pub static ROUTES: &[Route] = &[$(Route {
            pattern: $pattern,
            methods: &[$((Method::$method, |r: actix_web::Route| r.to($module::$handler))),+],
        }),+];

        /// The OpenAPI paths of every handler of [`ROUTES`].
        #[derive(utoipa::OpenApi)]
        #[openapi(paths($($($module::$handler),+),+))]
        pub struct Paths;
    };
}

routes! {
    "/v1/variants" => [GET variants::list_variants],
    // The moves first: the most asked; every pattern with a `{variant}` is matched by a
    // regular expression, in this order, until one matches (they cannot overlap).
    "/v1/variants/{variant}/moves" => [GET moves::get_moves, POST moves::post_moves],
    "/v1/variants/{variant}" => [GET variants::get_variant],
    "/v1/variants/{variant}/diagram" => [GET diagram::get_diagram],
    "/v1/variants/{variant}/perft" => [GET perft::get_perft],
    "/v1/variants/{variant}/endgame" => [GET endgame::get_endgame],
    "/v1/variants/{variant}/endgame/tables" => [GET endgame::get_endgame_tables],
    "/v1/variants/{variant}/play" => [POST play::play],
    "/v1/variants/{variant}/judge" => [POST judge::judge],
    "/v1/judge/pdn" => [POST pdn::judge_pdn],
    "/healthz" => [GET health::healthz],
    "/readyz" => [GET health::readyz],
}

/// The patterns of [`ROUTES`].
pub fn patterns() -> impl Iterator<Item = &'static str> {
    ROUTES.iter().map(|r| r.pattern)
}

/// The `Allow` header of each route of [`ROUTES`] (HEAD with GET: see `http::frame`).
static ALLOW: std::sync::LazyLock<Vec<String>> = std::sync::LazyLock::new(|| {
    ROUTES
        .iter()
        .map(|r| {
            let mut names = Vec::new();
            for (m, _) in r.methods {
                names.push(m.as_str());
                if *m == Method::GET {
                    names.push("HEAD");
                }
            }
            names.join(", ")
        })
        .collect()
});

/// Registers every route of [`ROUTES`]. Each path is a `web::resource` whose default service
/// answers 405 with an `Allow` header.
pub fn configure(cfg: &mut web::ServiceConfig) {
    register(cfg, |_| true);
}

/// Registers the probes of [`ROUTES`] only (`/healthz`, `/readyz`: the admin listener).
pub fn configure_probes(cfg: &mut web::ServiceConfig) {
    register(cfg, crate::http::middleware::is_probe);
}

fn register(cfg: &mut web::ServiceConfig, keep: fn(&str) -> bool) {
    for (route, allow) in ROUTES.iter().zip(ALLOW.iter()) {
        if keep(route.pattern) {
            let mut resource = web::resource(route.pattern);
            for (method, handler) in route.methods {
                resource = resource.route(handler(on(method.clone())));
            }
            cfg.service(resource.default_service(not_allowed(allow)));
        }
    }
}

/// The query string of a resource that takes no query parameters: any parameter is refused
/// with 400 `invalid-query`, the rule for unknown parameters on every endpoint.
#[derive(Clone, Copy, Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoParams {}
