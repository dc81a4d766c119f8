//! The HTTP layer's own parts, shared by every resource: the conventions every answer follows
//! ([`middleware`]), problem documents on the wire ([`errors`]), request bodies within their
//! bounds ([`body`], [`json`], [`coding`]) and the routing helpers ([`routing`]). Nothing here knows a
//! resource: the routes are `api`'s.

pub mod body;
pub mod coding;
pub mod errors;
pub mod json;
pub mod middleware;
pub mod routing;
