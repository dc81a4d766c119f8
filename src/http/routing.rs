//! Routing helpers every resource uses: method guards that record nothing, the 405 answer
//! with its `Allow` header, and the route table the access log names requests by.

use std::sync::OnceLock;

use actix_web::dev::ResourceDef;
use actix_web::http::Method;
use actix_web::{web, HttpRequest};

use crate::problem::ApiError;

/// `Allow` of a resource read with GET (HEAD is answered on every GET resource).
pub const GET: &str = "GET, HEAD";

/// A route for requests of `method` (HEAD comes as GET: see `http::frame`). Its guard only
/// compares the method: actix-web's own method guards (`web::get()`...) also record, in every
/// request, each method they were checked against, for an `Allow` header that the resources'
/// default services ([`not_allowed`]) write themselves.
pub fn on(method: Method) -> actix_web::Route {
    web::route().guard(actix_web::guard::fn_guard(move |ctx| {
        ctx.head().method == method
    }))
}

/// A default service answering 405 with `Allow: allow`.
pub fn not_allowed(allow: &'static str) -> actix_web::Route {
    web::route().to(move |req: HttpRequest| async move {
        Err::<actix_web::HttpResponse, ApiError>(ApiError::method_not_allowed(
            req.method().as_str(),
            allow,
        ))
    })
}

/// The route patterns of the service, for naming a request by its path alone (the access log
/// of a request that timed out, whose routed request is gone). The matchers are built on first
/// use: a server that never times out a request never builds them.
pub struct RouteTable {
    patterns: Vec<&'static str>,
    defs: OnceLock<Vec<ResourceDef>>,
}

/// What a path that matches no route is named.
pub const UNMATCHED: &str = "unmatched";

impl RouteTable {
    /// A table of these patterns, tried in this order.
    pub fn new(patterns: impl IntoIterator<Item = &'static str>) -> RouteTable {
        RouteTable {
            patterns: patterns.into_iter().collect(),
            defs: OnceLock::new(),
        }
    }

    /// The pattern `path` matches ([`UNMATCHED`] if none), read with the router's own
    /// matcher.
    pub fn route_of(&self, path: &str) -> &'static str {
        let defs = self
            .defs
            .get_or_init(|| self.patterns.iter().map(|p| ResourceDef::new(*p)).collect());
        self.patterns
            .iter()
            .zip(defs)
            .find(|(_, def)| def.is_match(path))
            .map_or(UNMATCHED, |(p, _)| p)
    }
}

/// The process's route table, installed once by the server that registers the routes.
static TABLE: OnceLock<RouteTable> = OnceLock::new();

/// Installs the process's route table (the first one installed stays: every server of a
/// process registers the same routes).
pub fn install(table: RouteTable) {
    let _ = TABLE.set(table);
}

/// The pattern of the process's routes that `path` matches ([`UNMATCHED`] if none, or
/// before a table is installed).
pub fn route_of_path(path: &str) -> &'static str {
    TABLE.get().map_or(UNMATCHED, |t| t.route_of(path))
}
