//! Every error the API answers: `{"error": CODE, "detail": WORDS}` with a fitting status
//! (contract §15.2). `CODE` is stable for programs; `detail` says what and where, in words, for
//! the page to show as text.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::store::StoreError;

/// An API error.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    /// The status.
    pub status: StatusCode,
    /// The stable code: `bad_request`, `not_json`, `unauthorized`, `forbidden`, `not_found`,
    /// `too_large`, `unsupported_media_type`, `refused`, `store_unwritable`, `store_failed`,
    /// `deployment_unreachable`.
    pub error: &'static str,
    /// What and where, in words.
    pub detail: String,
    /// More keys for programs (a deployment's failure: its status, whether to retry).
    pub extra: Option<serde_json::Value>,
}

impl ApiError {
    /// An error of `status` with `error` and `detail`.
    pub fn new(status: StatusCode, error: &'static str, detail: impl Into<String>) -> ApiError {
        ApiError {
            status,
            error,
            detail: detail.into(),
            extra: None,
        }
    }

    /// 400: the request is malformed (a parameter, the body's shape).
    pub fn bad_request(detail: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", detail)
    }

    /// 404.
    pub fn not_found(detail: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", detail)
    }

    /// 422: well-formed, but refused (a report that disagrees with itself, a bad dataset).
    pub fn refused(detail: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "refused", detail)
    }

    /// 404 for a run id that names no run.
    pub fn no_run(id: &str) -> ApiError {
        ApiError::not_found(format!("no run has the id {id:?}"))
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        match e {
            StoreError::Unwritable(_) => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "store_unwritable",
                format!("{e}; nothing was stored (reads still work)"),
            ),
            other => ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "store_failed",
                other.to_string(),
            ),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = serde_json::json!({"error": self.error, "detail": self.detail});
        if let (Some(serde_json::Value::Object(more)), Some(o)) = (self.extra, body.as_object_mut())
        {
            o.extend(more);
        }
        let body = body.to_string();
        (
            self.status,
            [(axum::http::header::CONTENT_TYPE, "application/json")],
            body,
        )
            .into_response()
    }
}
