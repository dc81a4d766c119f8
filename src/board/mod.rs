//! The board page: a board in the browser for every variant, at [`PAGE`], built on the public
//! HTTP API alone (so it is also a worked example of a client). Its files are plain HTML, CSS
//! and JavaScript modules, embedded in the binary with `include_str!` and served as they are:
//! no framework and no build step. ETags, `Cache-Control` and compression come from the
//! middleware every GET answer goes through (`http::middleware::representation`).
//!
//! Not part of the API document: the page is a client of the API, not a resource of it.

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::Method;
use actix_web::{web, HttpRequest, HttpResponse};

use crate::http::routing::{not_allowed, on, GET};
use crate::problem::ApiError;

/// The page's path.
pub const PAGE: &str = "/board";

/// The path with a slash, redirected to [`PAGE`] (the page's relative links are written for
/// [`PAGE`]).
pub const PAGE_SLASH: &str = "/board/";

/// The route pattern of the page's files.
pub const FILES: &str = "/board/{file}";

/// The route patterns of the page.
pub const PATTERNS: [&str; 3] = [PAGE, PAGE_SLASH, FILES];

/// A file of the page: its name under `/board/`, its media type and its text.
pub struct Asset {
    pub name: &'static str,
    pub content_type: &'static str,
    pub body: &'static str,
}

const HTML: &str = "text/html; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const SVG: &str = "image/svg+xml";

/// The page itself (served at [`PAGE`]).
pub static INDEX: Asset = Asset {
    name: "index.html",
    content_type: HTML,
    body: include_str!("index.html"),
};

/// The page's other files, served at `/board/{name}`.
pub static FILES_SERVED: &[Asset] = &[
    Asset {
        name: "board.css",
        content_type: CSS,
        body: include_str!("board.css"),
    },
    Asset {
        name: "app.js",
        content_type: JS,
        body: include_str!("app.js"),
    },
    Asset {
        name: "api.js",
        content_type: JS,
        body: include_str!("api.js"),
    },
    Asset {
        name: "view.js",
        content_type: JS,
        body: include_str!("view.js"),
    },
    Asset {
        name: "pick.js",
        content_type: JS,
        body: include_str!("pick.js"),
    },
    Asset {
        name: "icon.svg",
        content_type: SVG,
        body: include_str!("icon.svg"),
    },
];

/// What the page may load and run: its own files and the API of the same origin; the SVG
/// diagrams it shows carry their own `<style>` element, hence inline styles.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; \
     base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

fn answer(asset: &'static Asset) -> HttpResponse {
    let mut res = HttpResponse::Ok()
        .content_type(asset.content_type)
        .body(asset.body);
    if asset.content_type == HTML {
        res.headers_mut().insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        );
    }
    res.headers_mut().insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    res
}

async fn page() -> HttpResponse {
    answer(&INDEX)
}

async fn file(req: HttpRequest, name: web::Path<String>) -> Result<HttpResponse, ApiError> {
    FILES_SERVED
        .iter()
        .find(|a| a.name == name.as_str())
        .map(answer)
        .ok_or_else(|| ApiError::not_found(req.path()))
}

async fn to_page() -> HttpResponse {
    HttpResponse::PermanentRedirect()
        .insert_header((header::LOCATION, PAGE))
        .finish()
}

/// Registers the page and its files (read with GET and HEAD; any other method is 405).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource(PAGE)
            .route(on(Method::GET).to(page))
            .default_service(not_allowed(GET)),
    )
    .service(
        web::resource(PAGE_SLASH)
            .route(on(Method::GET).to(to_page))
            .default_service(not_allowed(GET)),
    )
    .service(
        web::resource(FILES)
            .route(on(Method::GET).to(file))
            .default_service(not_allowed(GET)),
    );
}

/// The size of the page in bytes: the page and every file it loads.
pub fn total_bytes() -> usize {
    INDEX.body.len() + FILES_SERVED.iter().map(|a| a.body.len()).sum::<usize>()
}
