//! Who is asking, and may they (contract §15.6): a bearer token, the page's session cookie, or
//! nobody on an open server; and the checks that keep another site from acting through a
//! signed-in browser (SECURITY.md, "The team server").

use axum::http::{header, HeaderMap, Method};

use crate::error::ApiError;
use crate::secret::Secret;
use crate::store::tokens::{Holder, Scope};
use crate::store::Store;
use axum::http::StatusCode;

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "figeval_session";

/// How the server lets requests in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Auth {
    /// Tokens are needed; on a loopback address, only once a token exists.
    Tokens {
        /// Whether the server listens on a loopback address (then it is open while the store
        /// holds no live token: one person's machine).
        loopback: bool,
    },
    /// `--insecure-no-auth`: anyone who reaches the server may do anything.
    Insecure,
}

/// How a caller was let in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// `Authorization: Bearer TOKEN`.
    Token,
    /// The page's session cookie.
    Session,
    /// Nothing: an open server.
    Open,
}

/// Who is asking.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    /// What they may do (an open server: `admin`).
    pub scope: Scope,
    /// The token's name; `None` on an open server.
    pub name: Option<String>,
    /// How they were let in.
    pub via: Via,
}

fn unauthorized(detail: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, "unauthorized", detail)
}

fn forbidden(detail: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::FORBIDDEN, "forbidden", detail)
}

impl Caller {
    /// Listing and reading runs, the deployments, searching: `read` or `admin`.
    pub fn may_read(&self) -> Result<(), ApiError> {
        match self.scope {
            Scope::Read | Scope::Admin => Ok(()),
            Scope::Push => Err(forbidden(
                "a push token can push runs, not list or read them: use a read or admin token",
            )),
        }
    }

    /// Pushing runs: `push` or `admin`.
    pub fn may_push(&self) -> Result<(), ApiError> {
        match self.scope {
            Scope::Push | Scope::Admin => Ok(()),
            Scope::Read => Err(forbidden(
                "a read token can see runs, not push them: use a push or admin token",
            )),
        }
    }

    /// Renaming or relabelling a run pushed by `pushed_by`: `admin`, or the push token that
    /// pushed it.
    pub fn may_edit(&self, pushed_by: Option<&str>) -> Result<(), ApiError> {
        match self.scope {
            Scope::Admin => Ok(()),
            Scope::Push if self.name.is_some() && self.name.as_deref() == pushed_by => Ok(()),
            _ => Err(forbidden(
                "only an admin token, or the push token that pushed a run, may rename or \
                 relabel it",
            )),
        }
    }

    /// Deleting runs: `admin`.
    pub fn may_delete(&self) -> Result<(), ApiError> {
        match self.scope {
            Scope::Admin => Ok(()),
            _ => Err(forbidden("only an admin token may delete runs")),
        }
    }
}

/// The session cookie's value, when the request carries one.
pub fn session_cookie(headers: &HeaderMap) -> Option<Secret> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|pair| {
            let (name, value) = pair.trim().split_once('=')?;
            (name == SESSION_COOKIE && !value.is_empty()).then(|| Secret::from_client(value))
        })
}

/// The bearer token, when the request carries an `Authorization` header; a header of another
/// kind is refused.
pub fn bearer(headers: &HeaderMap) -> Result<Option<Secret>, ApiError> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let text = value.to_str().unwrap_or("");
    match text.strip_prefix("Bearer ") {
        Some(token) if !token.trim().is_empty() => Ok(Some(Secret::from_client(token.trim()))),
        _ => Err(unauthorized(
            "the Authorization header must be \"Bearer TOKEN\"",
        )),
    }
}

/// Who is asking, or 401. A request not sent with a bearer token (a browser's: cookie or
/// open server) that changes something must come from this server's own page
/// ([`same_origin`]); on an open loopback server, every request must name a loopback host
/// (against DNS rebinding).
pub async fn caller(
    store: &Store,
    auth: Auth,
    method: &Method,
    headers: &HeaderMap,
) -> Result<Caller, ApiError> {
    if let Some(token) = bearer(headers)? {
        return match store.token_holder(&token).await? {
            Some(h) => Ok(from_holder(h, Via::Token)),
            None => Err(unauthorized("the token is not known, or was revoked")),
        };
    }
    let changes = !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS);
    if changes {
        same_origin(headers)?;
    }
    if let Some(cookie) = session_cookie(headers) {
        if let Some(h) = store.session_holder(&cookie).await? {
            return Ok(from_holder(h, Via::Session));
        }
    }
    let open = match auth {
        Auth::Insecure => true,
        Auth::Tokens { loopback: true } => store.live_tokens().await? == 0,
        Auth::Tokens { loopback: false } => false,
    };
    if open && auth != Auth::Insecure {
        loopback_host(headers)?;
    }
    if open {
        return Ok(Caller {
            scope: Scope::Admin,
            name: None,
            via: Via::Open,
        });
    }
    if session_cookie(headers).is_some() {
        return Err(unauthorized(
            "the session has ended (signed out, expired, or its token was revoked): sign in again",
        ));
    }
    Err(unauthorized(
        "this server needs a token: send \"Authorization: Bearer TOKEN\", or sign in on the page",
    ))
}

fn from_holder(h: Holder, via: Via) -> Caller {
    Caller {
        scope: h.scope,
        name: Some(h.name),
        via,
    }
}

/// Refuses a browser request sent by another site: `Sec-Fetch-Site` must be `same-origin` (or
/// `none`, typed by the user), or, from a browser that does not send it, `Origin` must be this
/// host. SameSite=Strict already keeps the cookie off such requests; this also covers an open
/// server, which has no cookie to withhold.
pub fn same_origin(headers: &HeaderMap) -> Result<(), ApiError> {
    let get = |h: &str| headers.get(h).and_then(|v| v.to_str().ok());
    let refuse = || {
        forbidden(
            "a request from another site was refused: changes come from this server's own \
             page, or with a bearer token",
        )
    };
    match get("sec-fetch-site") {
        Some("same-origin" | "none") => return Ok(()),
        Some(_) => return Err(refuse()),
        None => {}
    }
    match get("origin") {
        None => Ok(()),
        Some(origin) => {
            let authority = origin.split_once("://").map(|(_, a)| a);
            if authority.is_some() && authority == get("host") {
                Ok(())
            } else {
                Err(refuse())
            }
        }
    }
}

/// On an open loopback server, the request's `Host` must be a loopback name: a web page whose
/// name an attacker points at 127.0.0.1 (DNS rebinding) is refused.
fn loopback_host(headers: &HeaderMap) -> Result<(), ApiError> {
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or(""),
        None => host.rsplit_once(':').map_or(host, |(n, _)| n),
    };
    let ok = name == "localhost"
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    if ok || host.is_empty() {
        Ok(())
    } else {
        Err(forbidden(format!(
            "this open server (loopback, no token) answers only to a loopback host name, not \
             {host:?}"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn a_cross_site_change_is_refused_and_a_same_origin_one_passes() {
        assert!(same_origin(&headers(&[("sec-fetch-site", "cross-site")])).is_err());
        assert!(same_origin(&headers(&[("sec-fetch-site", "same-site")])).is_err());
        assert!(same_origin(&headers(&[("sec-fetch-site", "same-origin")])).is_ok());
        assert!(same_origin(&headers(&[
            ("origin", "http://evil.example"),
            ("host", "127.0.0.1:8080")
        ]))
        .is_err());
        assert!(same_origin(&headers(&[
            ("origin", "http://127.0.0.1:8080"),
            ("host", "127.0.0.1:8080")
        ]))
        .is_ok());
        assert!(same_origin(&headers(&[("origin", "null"), ("host", "x")])).is_err());
        assert!(same_origin(&headers(&[])).is_ok());
    }

    #[test]
    fn an_open_server_answers_only_loopback_host_names() {
        assert!(loopback_host(&headers(&[("host", "127.0.0.1:8080")])).is_ok());
        assert!(loopback_host(&headers(&[("host", "localhost:8080")])).is_ok());
        assert!(loopback_host(&headers(&[("host", "[::1]:8080")])).is_ok());
        assert!(loopback_host(&headers(&[("host", "rebind.evil.example:8080")])).is_err());
    }

    #[test]
    fn the_session_cookie_is_found_among_others_and_a_bad_authorization_is_refused() {
        let h = headers(&[("cookie", "a=1; figeval_session=abc; b=2")]);
        assert_eq!(
            session_cookie(&h).map(|s| s.expose().to_string()),
            Some("abc".into())
        );
        assert!(bearer(&headers(&[("authorization", "Basic eDp5")])).is_err());
        assert!(bearer(&headers(&[])).unwrap().is_none());
    }
}
