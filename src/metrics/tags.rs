//! What a handler tells the metrics about its answer, set on the response's extensions; the
//! metrics middleware reads them. Below the handlers: they set tags, and nothing here knows a
//! handler.

use std::borrow::Cow;

/// Set by a handler on its response: the number of legal moves it returned.
#[derive(Clone, Copy, Debug)]
pub struct MovesGenerated(pub u64);

/// Set by a handler on its response: the games it judged, as (variant id, count). Without
/// it, a successful answer of a `/v1/variants/{variant}/...judge` route counts one game.
#[derive(Clone, Debug, Default)]
pub struct GamesJudged(pub Vec<(String, u64)>);

/// The route pattern an answer's request matched (`None`: no route), found once by
/// the metrics middleware and kept in the answer's extensions for the access log.
#[derive(Clone, Debug)]
pub struct RoutePattern(pub Option<Cow<'static, str>>);
