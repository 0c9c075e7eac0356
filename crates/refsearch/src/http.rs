//! The HTTP API: `POST /api/search`, `GET /api/health`, errors as `{"detail": ...}`, local-only CORS.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::{FromRequest, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use tower_http::cors::{AllowOrigin, CorsLayer};

use crate::Corpus;

/// Longest `content` returned per match, in characters (the full text is indexed).
pub const MAX_CONTENT_CHARS: usize = 1500;

/// Largest `top_k` a search may ask for.
pub const MAX_TOP_K: i64 = 100;

/// `top_k` when the request leaves it out.
pub const DEFAULT_TOP_K: i64 = 5;

/// What the server shares between requests.
#[derive(Debug)]
pub struct AppState {
    /// The indexed corpus.
    pub corpus: Corpus,
    /// Fixed delay added to every search (`--latency-ms`), slept asynchronously.
    pub latency: Duration,
}

/// The cache modes a search may name. This deployment has no cache, so all three
/// behave alike; they are accepted so that clients built for the real thing work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CacheMode {
    /// Use the cache.
    Default,
    /// Skip the cache.
    Bypass,
    /// Recompute and store.
    Refresh,
}

/// The body of `POST /api/search`. Unknown keys are ignored, as a typical
/// deployment does.
#[derive(Debug, Clone, Deserialize)]
pub struct SearchRequest {
    /// The question; must be non-blank.
    pub query: String,
    /// The corpus to search; must be the served corpus id.
    pub repo_id: String,
    /// How many matches to return, 1 ..= 100 (default 5).
    #[serde(default)]
    pub top_k: Option<i64>,
    /// Accepted and echoed; see [`CacheMode`].
    #[serde(default)]
    pub cache_mode: Option<CacheMode>,
}

/// The body of a successful search.
#[derive(Debug, Serialize)]
pub struct SearchResponse {
    /// The query as received.
    pub query: String,
    /// The corpus searched.
    pub repo_id: String,
    /// The `top_k` applied.
    pub top_k: i64,
    /// The cache mode applied.
    pub cache_mode: CacheMode,
    /// Time spent answering, in milliseconds (includes `--latency-ms`).
    pub latency_ms: f64,
    /// Ranked matches, best first.
    pub matches: Vec<Match>,
}

/// One ranked match.
#[derive(Debug, Serialize)]
pub struct Match {
    /// `p0332`, `s0042` or `fig-15.1`.
    pub chunk_id: String,
    /// The chunk's text, cut to [`MAX_CONTENT_CHARS`].
    pub content: String,
    /// BM25 score.
    pub score: f32,
    /// The served PDF's file name.
    pub file_path: String,
    /// Which retriever found the match: always `sparse` (BM25), as Ragweld names its sparse
    /// retriever's matches.
    pub source: &'static str,
    /// For figures `chunk_kind: "figure"`, `figure_ref`, `caption`, `figure {kind, summary}`;
    /// for section chunks `section`. Text chunks carry no `chunk_kind`, as Ragweld's do not.
    pub metadata: serde_json::Value,
    /// Where the chunk is in the PDF.
    pub provenance: Provenance,
}

/// The pages a match cites.
#[derive(Debug, Serialize)]
pub struct Provenance {
    /// Always `direct`: text read from the PDF (its text layer, or OCR where it has none), as
    /// Ragweld names text it did not get from a vision model.
    pub extraction: &'static str,
    /// First cited page (1-based, physical).
    pub page_start: u32,
    /// Last cited page.
    pub page_end: u32,
    /// One whole-page region per cited page.
    pub regions: Vec<Region>,
}

/// A rectangle on a page, in page-relative coordinates (0 to 1 from the top left), as Ragweld
/// states regions.
#[derive(Debug, Serialize)]
pub struct Region {
    /// The page (1-based).
    pub page: u32,
    /// Left edge: always 0 (the whole page: pdftotext gives no positions).
    pub left: f32,
    /// Top edge: always 0.
    pub top: f32,
    /// Right edge: always 1.
    pub right: f32,
    /// Bottom edge: always 1.
    pub bottom: f32,
}

/// The body of `GET /api/health`.
#[derive(Debug, Serialize)]
pub struct Health {
    /// Always `ok` when the server answers.
    pub status: &'static str,
    /// The served corpus id.
    pub corpus_id: String,
    /// Physical pages in the PDF, blank ones included.
    pub pages: usize,
    /// Indexed chunks, figure chunks included.
    pub chunks: usize,
    /// Indexed figure chunks.
    pub figures: usize,
    /// `page` or `section`.
    pub chunking: &'static str,
    /// Whether figure chunks were built.
    pub figures_enabled: bool,
}

/// An error response: a status and a JSON body `{"detail": ...}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// What went wrong, for the client.
    pub detail: String,
}

impl ApiError {
    /// An error with this status and detail.
    pub fn new(status: StatusCode, detail: impl Into<String>) -> ApiError {
        ApiError {
            status,
            detail: detail.into(),
        }
    }

    /// 422: the body is not a valid request.
    pub fn unprocessable(detail: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, detail)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(serde_json::json!({ "detail": self.detail })),
        )
            .into_response()
    }
}

/// A JSON body extractor whose every rejection (unreadable body, not JSON,
/// wrong types, missing fields) is a `422 {"detail": ...}`, like the real
/// deployment, instead of axum's plain-text 400/415/422.
#[derive(Debug)]
pub struct JsonBody<T>(pub T);

impl<S, T> FromRequest<S> for JsonBody<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = Bytes::from_request(req, state).await.map_err(|rejection| {
            let status = match rejection.status() {
                StatusCode::PAYLOAD_TOO_LARGE => StatusCode::PAYLOAD_TOO_LARGE,
                _ => StatusCode::UNPROCESSABLE_ENTITY,
            };
            ApiError::new(
                status,
                format!("cannot read the request body: {}", rejection.body_text()),
            )
        })?;
        serde_json::from_slice(&bytes)
            .map(JsonBody)
            .map_err(|err| ApiError::unprocessable(format!("invalid search request body: {err}")))
    }
}

/// A chunk's text as returned: layout padding squeezed (runs of spaces become
/// one, blank lines go) so the first [`MAX_CONTENT_CHARS`] characters carry text.
pub fn display_text(content: &str) -> String {
    let mut out = String::new();
    for line in content.lines() {
        let mut words = line.split_whitespace().peekable();
        if words.peek().is_none() {
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        for (i, word) in words.enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(word);
        }
    }
    out.chars().take(MAX_CONTENT_CHARS).collect()
}

/// Whether a browser `Origin` is a local one: `http` or `https`, host
/// `localhost`, `127.0.0.1` or `[::1]`, any port, nothing else.
pub fn is_local_origin(origin: &str) -> bool {
    let origin = origin.to_ascii_lowercase();
    let Some(authority) = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
    else {
        return false;
    };
    let (host, port) = if authority.starts_with('[') {
        match authority.find(']') {
            Some(end) => authority.split_at(end + 1),
            None => return false,
        }
    } else {
        match authority.find(':') {
            Some(colon) => authority.split_at(colon),
            None => (authority, ""),
        }
    };
    let port_ok = port.is_empty()
        || port.strip_prefix(':').is_some_and(|digits| {
            !digits.is_empty()
                && digits.parse::<u16>().is_ok()
                && digits.bytes().all(|b| b.is_ascii_digit())
        });
    port_ok && matches!(host, "localhost" | "127.0.0.1" | "[::1]")
}

/// The CORS policy: local origins only, `GET`/`POST` with `content-type`, no credentials.
pub fn cors_layer() -> CorsLayer {
    CorsLayer::new()
        .allow_origin(AllowOrigin::predicate(|origin: &HeaderValue, _| {
            origin.to_str().is_ok_and(is_local_origin)
        }))
        .allow_methods([Method::GET, Method::POST])
        .allow_headers([header::CONTENT_TYPE])
        .max_age(Duration::from_secs(600))
}

/// The application: `/api/search`, `/api/health`, JSON 404/405, CORS.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/api/search", post(search))
        .route("/api/health", get(health))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(cors_layer())
        .with_state(state)
}

async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "Not Found")
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "Method Not Allowed")
}

async fn health(State(state): State<Arc<AppState>>) -> Json<Health> {
    let corpus = &state.corpus;
    Json(Health {
        status: "ok",
        corpus_id: corpus.corpus_id.clone(),
        pages: corpus.page_count,
        chunks: corpus.chunks.len(),
        figures: corpus.figure_count,
        chunking: corpus.chunking.as_str(),
        figures_enabled: corpus.figures_enabled,
    })
}

/// Checks a request in the order a typical deployment does: body shape (422),
/// then `top_k` (422), empty query (400), unknown corpus (404).
fn check_request(request: &SearchRequest, corpus_id: &str) -> Result<i64, ApiError> {
    let top_k = request.top_k.unwrap_or(DEFAULT_TOP_K);
    if !(1..=MAX_TOP_K).contains(&top_k) {
        return Err(ApiError::unprocessable(format!(
            "top_k must be between 1 and {MAX_TOP_K}, got {top_k}"
        )));
    }
    if request.query.trim().is_empty() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "query must not be empty",
        ));
    }
    if request.repo_id != corpus_id {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!(
                "unknown corpus {:?}; this deployment serves {corpus_id:?}",
                request.repo_id
            ),
        ));
    }
    Ok(top_k)
}

async fn search(
    State(state): State<Arc<AppState>>,
    JsonBody(request): JsonBody<SearchRequest>,
) -> Result<Json<SearchResponse>, ApiError> {
    let started = Instant::now();
    let corpus = &state.corpus;
    let top_k = check_request(&request, &corpus.corpus_id)?;
    if !state.latency.is_zero() {
        tokio::time::sleep(state.latency).await;
    }
    let hits = corpus
        .index
        .search(&request.query, top_k as usize)
        .map_err(|err| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("search failed: {err}"),
            )
        })?;
    let matches = hits
        .iter()
        .filter_map(|hit| {
            let chunk = corpus.chunks.get(hit.chunk)?;
            Some(Match {
                chunk_id: chunk.id.clone(),
                content: display_text(&chunk.content),
                score: hit.score,
                file_path: corpus.file_of(hit.chunk).to_string(),
                source: "sparse",
                metadata: chunk.metadata(),
                provenance: Provenance {
                    extraction: "direct",
                    page_start: chunk.page_start,
                    page_end: chunk.page_end,
                    regions: (chunk.page_start..=chunk.page_end)
                        .map(|page| Region {
                            page,
                            left: 0.0,
                            top: 0.0,
                            right: 1.0,
                            bottom: 1.0,
                        })
                        .collect(),
                },
            })
        })
        .collect();
    let latency_ms = (started.elapsed().as_secs_f64() * 1e6).round() / 1e3;
    Ok(Json(SearchResponse {
        query: request.query,
        repo_id: request.repo_id,
        top_k,
        cache_mode: request.cache_mode.unwrap_or(CacheMode::Default),
        latency_ms,
        matches,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn returned_content_is_squeezed_and_cut_on_a_character_boundary() {
        assert_eq!(
            display_text("  Chapter 15:    Plotting   317\n\n\n   x  y\n"),
            "Chapter 15: Plotting 317\nx y"
        );
        let long = "é".repeat(MAX_CONTENT_CHARS + 10);
        assert_eq!(display_text(&long).chars().count(), MAX_CONTENT_CHARS);
    }

    #[test]
    fn local_origins_on_any_port_and_scheme_are_allowed() {
        for origin in [
            "http://localhost",
            "http://localhost:8080",
            "https://localhost:3000",
            "http://127.0.0.1:58012",
            "http://[::1]:8080",
            "HTTP://LOCALHOST:1",
        ] {
            assert!(is_local_origin(origin), "{origin}");
        }
    }

    #[test]
    fn other_origins_and_lookalikes_are_refused() {
        for origin in [
            "http://evil.example",
            "http://localhost.evil.example",
            "http://evil.example?localhost",
            "http://127.0.0.1.nip.io",
            "http://localhost@evil.example",
            "http://localhost:8080/path",
            "http://localhost:",
            "http://localhost:99999",
            "http://localhost:80a",
            "ftp://localhost",
            "null",
            "localhost",
            "http://[::1",
            "http://[::2]:80",
            "http://127.0.0.2",
        ] {
            assert!(!is_local_origin(origin), "{origin}");
        }
    }

    fn request(query: &str, repo_id: &str, top_k: Option<i64>) -> SearchRequest {
        SearchRequest {
            query: query.into(),
            repo_id: repo_id.into(),
            top_k,
            cache_mode: None,
        }
    }

    #[test]
    fn top_k_outside_one_to_a_hundred_is_unprocessable() {
        for top_k in [0, -1, 101, i64::MAX] {
            let err = check_request(&request("q", "c", Some(top_k)), "c").unwrap_err();
            assert_eq!(err.status, StatusCode::UNPROCESSABLE_ENTITY, "{top_k}");
        }
        assert_eq!(check_request(&request("q", "c", None), "c"), Ok(5));
        assert_eq!(check_request(&request("q", "c", Some(100)), "c"), Ok(100));
    }

    #[test]
    fn a_blank_query_is_a_bad_request_and_a_wrong_corpus_not_found() {
        let blank = check_request(&request(" \n\t", "c", None), "c").unwrap_err();
        assert_eq!(blank.status, StatusCode::BAD_REQUEST);
        let wrong = check_request(&request("q", "other", None), "c").unwrap_err();
        assert_eq!(wrong.status, StatusCode::NOT_FOUND);
        assert!(wrong.detail.contains("other"));
    }

    #[test]
    fn an_unknown_cache_mode_does_not_parse() {
        let body = r#"{"query":"q","repo_id":"c","cache_mode":"sometimes"}"#;
        assert!(serde_json::from_str::<SearchRequest>(body).is_err());
        let body = r#"{"query":"q","repo_id":"c","cache_mode":"bypass","extra":1}"#;
        let parsed: SearchRequest = serde_json::from_str(body).unwrap();
        assert_eq!(parsed.cache_mode, Some(CacheMode::Bypass));
    }
}
