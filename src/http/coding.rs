//! The content codings of HTTP bodies: those a request body may be sent in (all four, undone
//! by `http::body`) and those an answer is compressed in (brotli and gzip, negotiated by
//! `http::middleware`).

use actix_web::http::header::Encoding;

/// A content coding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Coding {
    Gzip,
    Deflate,
    Brotli,
    Zstd,
}

impl Coding {
    /// The coding of a `Content-Encoding` token (any case; `x-gzip` is gzip), `None` for
    /// one this service does not know. `identity` is no coding: the caller drops it first.
    pub fn from_token(token: &str) -> Option<Coding> {
        match token.to_ascii_lowercase().as_str() {
            "gzip" | "x-gzip" => Some(Coding::Gzip),
            "deflate" => Some(Coding::Deflate),
            "br" => Some(Coding::Brotli),
            "zstd" => Some(Coding::Zstd),
            _ => None,
        }
    }

    /// The coding's token in `Content-Encoding`.
    pub fn name(self) -> &'static str {
        match self {
            Coding::Gzip => "gzip",
            Coding::Deflate => "deflate",
            Coding::Brotli => "br",
            Coding::Zstd => "zstd",
        }
    }

    /// The coding as actix-web's typed headers name it.
    pub fn encoding(self) -> Encoding {
        match self {
            Coding::Gzip => Encoding::gzip(),
            Coding::Deflate => Encoding::deflate(),
            Coding::Brotli => Encoding::brotli(),
            Coding::Zstd => Encoding::zstd(),
        }
    }

    /// The suffix of the ETag of an answer compressed in this coding: a compressed body is
    /// another representation of the same answer.
    pub fn etag_suffix(self) -> &'static str {
        match self {
            Coding::Gzip => "-gz",
            Coding::Deflate => "-df",
            Coding::Brotli => "-br",
            Coding::Zstd => "-zs",
        }
    }

    /// The codings an ETag suffix is for.
    pub const ALL: [Coding; 4] = [Coding::Gzip, Coding::Deflate, Coding::Brotli, Coding::Zstd];
}
