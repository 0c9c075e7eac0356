//! Reading a request body: JSON only, and never more than `--max-body` bytes (413 past it,
//! told by `Content-Length` before anything is read, or counted while reading).

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderMap, StatusCode};

use crate::error::ApiError;

/// The body of a request that must be JSON, at most `max` bytes.
pub async fn json_body(headers: &HeaderMap, body: Body, max: usize) -> Result<Bytes, ApiError> {
    let kind = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let essence = kind.split(';').next().unwrap_or("").trim();
    if !essence.eq_ignore_ascii_case("application/json") {
        drain(body).await;
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            format!(
                "the body must be sent as Content-Type: application/json (it was {:?})",
                kind
            ),
        ));
    }
    let too_large = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            format!("the body is over this server's limit of {max} bytes (--max-body)"),
        )
    };
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > max as u64) {
        drain(body).await;
        return Err(too_large());
    }
    axum::body::to_bytes(body, max).await.map_err(|e| {
        let over = std::error::Error::source(&e)
            .is_some_and(|s| s.is::<http_body_util::LengthLimitError>());
        if over {
            too_large()
        } else {
            ApiError::bad_request(format!("the body could not be read: {e}"))
        }
    })
}

/// The most bytes of a refused request's body read and dropped before the answer.
pub const DRAIN_CAP: usize = 4 << 20;

/// Reads and drops up to [`DRAIN_CAP`] bytes of a body the server will not use (for at most
/// two seconds), so that a client still sending it reads the refusal instead of a reset
/// connection. A larger body is cut off: its client should send `Expect: 100-continue`.
pub async fn drain(body: Body) {
    use http_body_util::BodyExt;
    let mut body = body;
    let mut read = 0usize;
    let work = async {
        while let Some(Ok(frame)) = body.frame().await {
            if let Some(data) = frame.data_ref() {
                read += data.len();
                if read > DRAIN_CAP {
                    break;
                }
            }
        }
    };
    let _ = tokio::time::timeout(std::time::Duration::from_secs(2), work).await;
}

/// [`json_body`], after `check` passes; a refusal (of `check` or of the body) drains the body
/// first ([`drain`]).
pub async fn checked_json_body(
    headers: &HeaderMap,
    body: Body,
    max: usize,
    check: Result<(), ApiError>,
) -> Result<Bytes, ApiError> {
    if let Err(e) = check {
        drain(body).await;
        return Err(e);
    }
    json_body(headers, body, max).await
}
