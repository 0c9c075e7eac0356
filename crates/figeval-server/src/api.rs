//! The JSON API under `/api` (contract §15.2): runs, the session, the deployments.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{OriginalUri, Path, RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use crate::access::{self, Caller, Via};
use crate::body::checked_json_body;
use crate::error::ApiError;
use crate::push::{self, compress, decompress};
use crate::secret::{self, Secret};
use crate::store::runs::{Filter, Labels, NewRun, RunMeta};
use crate::store::tokens::Scope;
use crate::{clock, Shared};

/// The most runs one listing gives.
pub const MAX_LIMIT: i64 = 100;
/// Runs a listing gives when `limit` is not given.
pub const DEFAULT_LIMIT: i64 = 50;

/// `res` with the header `name: value` (a value that is not a header value is left out).
pub(crate) fn with_header(mut res: Response, name: header::HeaderName, value: &str) -> Response {
    if let Ok(v) = HeaderValue::from_str(value) {
        res.headers_mut().insert(name, v);
    }
    res
}

fn json(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

async fn caller(s: &Shared, method: &Method, headers: &HeaderMap) -> Result<Caller, ApiError> {
    access::caller(&s.store, s.auth, method, headers).await
}

/// The short link of a run, absolute: `--public-url`, else the request's own host.
fn link(s: &Shared, headers: &HeaderMap, path: &str) -> String {
    match &s.public_url {
        Some(base) => format!("{base}{path}"),
        None => {
            let host = headers
                .get(header::HOST)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("127.0.0.1");
            format!("http://{host}{path}")
        }
    }
}

/// What the API shows of a run but its report.
fn meta_json(
    s: &Shared,
    headers: &HeaderMap,
    m: &RunMeta,
) -> serde_json::Map<String, serde_json::Value> {
    let summary: serde_json::Value =
        serde_json::from_str(&m.summary).unwrap_or(serde_json::Value::Null);
    let mut o = serde_json::Map::new();
    o.insert("id".into(), m.id.clone().into());
    o.insert("name".into(), m.name.clone().into());
    o.insert(
        "labels".into(),
        serde_json::to_value(&m.labels).unwrap_or_default(),
    );
    o.insert("created_at".into(), clock::rfc3339_ms(m.created_us).into());
    o.insert("dataset".into(), m.dataset.clone().into());
    o.insert("corpus_id".into(), m.corpus_id.clone().into());
    o.insert("n".into(), m.n.into());
    o.insert("summary".into(), summary);
    o.insert("pushed_by".into(), m.pushed_by.clone().into());
    o.insert("capture_bytes".into(), m.capture_bytes.into());
    o.insert(
        "url".into(),
        link(s, headers, &format!("/r/{}", m.id)).into(),
    );
    o
}

/// Stored text, decompressed off the async threads.
async fn unpack(bytes: Vec<u8>) -> Result<String, ApiError> {
    tokio::task::spawn_blocking(move || decompress(&bytes))
        .await
        .map_err(|e| ApiError::bad_request(e.to_string()))?
}

fn check_id(id: &str) -> Result<(), ApiError> {
    if secret::is_run_id(id) {
        Ok(())
    } else {
        Err(ApiError::no_run(id))
    }
}

/// `GET /api/runs`.
pub async fn list_runs(
    State(s): State<Shared>,
    method: Method,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    caller(&s, &method, &headers).await?.may_read()?;
    let mut filter = Filter {
        limit: DEFAULT_LIMIT,
        ..Filter::default()
    };
    for (k, v) in form_urlencoded::parse(query.unwrap_or_default().as_bytes()) {
        match &*k {
            "dataset" => filter.dataset = Some(v.into_owned()),
            "corpus" => filter.corpus = Some(v.into_owned()),
            "label" => {
                let (key, value) = v.split_once(':').ok_or_else(|| {
                    ApiError::bad_request(format!("label={v:?}: a label filter is KEY:VALUE"))
                })?;
                filter.labels.push((key.to_string(), value.to_string()));
            }
            "limit" => {
                filter.limit = v
                    .parse::<i64>()
                    .ok()
                    .filter(|n| (1..=MAX_LIMIT).contains(n))
                    .ok_or_else(|| {
                        ApiError::bad_request(format!(
                            "limit={v:?}: a limit is a whole number from 1 to {MAX_LIMIT}"
                        ))
                    })?;
            }
            "cursor" => {
                let bad = || {
                    ApiError::bad_request(format!("cursor={v:?} is not a cursor this server gave"))
                };
                let (us, id) = v.split_once('.').ok_or_else(bad)?;
                let us = us.parse::<i64>().map_err(|_| bad())?;
                if !secret::is_run_id(id) {
                    return Err(bad());
                }
                filter.before = Some((us, id.to_string()));
            }
            other => {
                return Err(ApiError::bad_request(format!(
                    "{other:?} is not a filter: dataset, corpus, label, limit, cursor"
                )))
            }
        }
    }
    let limit = filter.limit;
    filter.limit += 1;
    let mut rows = s.store.list_runs(&filter).await?;
    let next = if rows.len() as i64 > limit {
        rows.truncate(limit as usize);
        rows.last().map(|m| format!("{}.{}", m.created_us, m.id))
    } else {
        None
    };
    let runs: Vec<serde_json::Value> = rows
        .iter()
        .map(|m| serde_json::Value::Object(meta_json(&s, &headers, m)))
        .collect();
    Ok(json(
        StatusCode::OK,
        serde_json::json!({"runs": runs, "next": next}).to_string(),
    ))
}

/// `POST /api/runs`.
pub async fn push_run(
    State(s): State<Shared>,
    method: Method,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let who = caller(&s, &method, &headers).await;
    let check = who
        .as_ref()
        .map_err(Clone::clone)
        .and_then(Caller::may_push);
    let bytes = checked_json_body(&headers, body, s.max_body, check).await?;
    let who = who?;
    let prepared = tokio::task::spawn_blocking(move || {
        let p = push::prepare(&bytes)?;
        let report = compress(&p.report_text);
        let capture = p.capture.as_deref().map(|c| (compress(c), c.len() as i64));
        Ok::<_, ApiError>((p, report, capture))
    })
    .await
    .map_err(|e| ApiError::bad_request(format!("the push could not be read: {e}")))??;
    let (p, report, capture) = prepared;
    let id = secret::new_run_id()
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "store_failed", e))?;
    let run = NewRun {
        meta: RunMeta {
            id: id.clone(),
            created_us: clock::now_us(),
            name: p.name.clone(),
            labels: p.labels,
            dataset: p.report.dataset_key(),
            corpus_id: p.report.corpus_id.clone(),
            n: i64::try_from(p.report.summary.n).unwrap_or(i64::MAX),
            summary: serde_json::to_string(&p.report.summary).unwrap_or_else(|_| "null".into()),
            pushed_by: who.name.clone(),
            capture_bytes: capture.as_ref().map(|(_, n)| *n),
        },
        report,
        capture: capture.map(|(c, _)| c),
    };
    s.store.insert_run(&run).await?;
    let url = link(&s, &headers, &format!("/r/{id}"));
    let body = serde_json::json!({
        "id": id,
        "url": url,
        "name": run.meta.name,
        "dataset": run.meta.dataset,
        "notes": p.notes,
    });
    let res = json(StatusCode::CREATED, body.to_string());
    Ok(with_header(
        res,
        header::LOCATION,
        &format!("/api/runs/{id}"),
    ))
}

/// `GET /api/runs/{id}`: the run, its report as it is stored.
pub async fn get_run(
    State(s): State<Shared>,
    method: Method,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    caller(&s, &method, &headers).await?.may_read()?;
    check_id(&id)?;
    let (meta, report) = s
        .store
        .get_run(&id)
        .await?
        .ok_or_else(|| ApiError::no_run(&id))?;
    let report = unpack(report).await?;
    let head = serde_json::Value::Object(meta_json(&s, &headers, &meta)).to_string();
    // The report is spliced in as stored (it was checked when pushed): no parse on the way out.
    let mut body = String::with_capacity(head.len() + report.len() + 16);
    body.push_str(&head[..head.len() - 1]);
    body.push_str(",\"report\":");
    body.push_str(&report);
    body.push('}');
    Ok(json(StatusCode::OK, body))
}

/// `GET /api/runs/{id}/capture`: the stored capture, as it was pushed.
pub async fn get_capture(
    State(s): State<Shared>,
    method: Method,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    caller(&s, &method, &headers).await?.may_read()?;
    check_id(&id)?;
    let stored = s
        .store
        .get_capture(&id)
        .await?
        .ok_or_else(|| ApiError::no_run(&id))?;
    let bytes = stored.ok_or_else(|| {
        ApiError::not_found(format!("the run {id:?} was pushed without its capture"))
    })?;
    let text = unpack(bytes).await?;
    Ok((
        StatusCode::OK,
        [(header::CONTENT_TYPE, "application/x-ndjson; charset=utf-8")],
        text,
    )
        .into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Patch {
    name: Option<String>,
    labels: Option<Labels>,
    report: Option<serde::de::IgnoredAny>,
}

/// `PATCH /api/runs/{id}`: the name and labels (the report is immutable).
pub async fn patch_run(
    State(s): State<Shared>,
    method: Method,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Body,
) -> Result<Response, ApiError> {
    let who = caller(&s, &method, &headers).await;
    let check = who
        .as_ref()
        .map(drop)
        .map_err(Clone::clone)
        .and_then(|()| check_id(&id));
    let bytes = checked_json_body(&headers, body, s.max_body, check).await?;
    let who = who?;
    let patch: Patch = serde_json::from_slice(&bytes).map_err(|e| {
        let kind = if e.is_data() {
            "bad_request"
        } else {
            "not_json"
        };
        ApiError::new(
            StatusCode::BAD_REQUEST,
            kind,
            format!("the body is not {{\"name\", \"labels\"}}: {e}"),
        )
    })?;
    if patch.report.is_some() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "immutable",
            "a stored report never changes: push a new run (only the name and labels can be edited)",
        ));
    }
    if let Some(n) = &patch.name {
        push::check_name(n)?;
    }
    let labels = patch.labels.map(push::check_labels).transpose()?;
    let meta = s
        .store
        .get_meta(&id)
        .await?
        .ok_or_else(|| ApiError::no_run(&id))?;
    who.may_edit(meta.pushed_by.as_deref())?;
    if !s
        .store
        .update_run(&id, patch.name.as_deref(), labels.as_ref())
        .await?
    {
        return Err(ApiError::no_run(&id));
    }
    let meta = s
        .store
        .get_meta(&id)
        .await?
        .ok_or_else(|| ApiError::no_run(&id))?;
    Ok(json(
        StatusCode::OK,
        serde_json::Value::Object(meta_json(&s, &headers, &meta)).to_string(),
    ))
}

/// `DELETE /api/runs/{id}`: admin only.
pub async fn delete_run(
    State(s): State<Shared>,
    method: Method,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    caller(&s, &method, &headers).await?.may_delete()?;
    check_id(&id)?;
    if !s.store.delete_run(&id).await? {
        return Err(ApiError::no_run(&id));
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `GET /api/session`: whether the page must sign in, and as whom it is.
pub async fn get_session(
    State(s): State<Shared>,
    method: Method,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let body = match caller(&s, &method, &headers).await {
        Ok(c) => serde_json::json!({
            "signed_in": c.via != Via::Open,
            "open": c.via == Via::Open,
            "name": c.name,
            "scope": c.scope.name(),
        }),
        Err(e) if e.status == StatusCode::UNAUTHORIZED => serde_json::json!({
            "signed_in": false, "open": false, "name": null, "scope": null,
        }),
        Err(e) => return Err(e),
    };
    Ok(json(StatusCode::OK, body.to_string()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SignIn {
    token: String,
}

/// The `Set-Cookie` of a session (`value` empty: the one that ends it).
fn session_cookie(s: &Shared, value: &str, max_age: i64) -> String {
    let secure = s
        .public_url
        .as_deref()
        .is_some_and(|u| u.starts_with("https://"));
    format!(
        "{}={value}; Path=/; HttpOnly; SameSite=Strict; Max-Age={max_age}{}",
        access::SESSION_COOKIE,
        if secure { "; Secure" } else { "" }
    )
}

/// `POST /api/session`: a `read` or `admin` token exchanged for the session cookie.
pub async fn sign_in(
    State(s): State<Shared>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let bytes = checked_json_body(&headers, body, 64 * 1024, access::same_origin(&headers)).await?;
    let sign_in: SignIn = serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::bad_request(format!("the body is not {{\"token\": TOKEN}}: {e}")))?;
    let token = Secret::from_client(sign_in.token.trim());
    let holder = s.store.token_holder(&token).await?.ok_or_else(|| {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "the token is not known, or was revoked",
        )
    })?;
    if holder.scope == Scope::Push {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            "a push token cannot sign in to the page: sign in with a read or admin token",
        ));
    }
    let cookie = s.store.create_session(&holder).await?;
    let max_age = crate::store::tokens::SESSION_US / 1_000_000;
    let res = json(
        StatusCode::OK,
        serde_json::json!({"signed_in": true, "open": false, "name": holder.name, "scope": holder.scope.name()})
            .to_string(),
    );
    let set = session_cookie(&s, cookie.expose(), max_age);
    Ok(with_header(res, header::SET_COOKIE, &set))
}

/// `DELETE /api/session`: signs out.
pub async fn sign_out(State(s): State<Shared>, headers: HeaderMap) -> Result<Response, ApiError> {
    access::same_origin(&headers)?;
    if let Some(cookie) = access::session_cookie(&headers) {
        s.store.end_session(&cookie).await?;
    }
    let res = StatusCode::NO_CONTENT.into_response();
    Ok(with_header(
        res,
        header::SET_COOKIE,
        &session_cookie(&s, "", 0),
    ))
}

/// `GET /api/deployments`.
pub async fn deployments(
    State(s): State<Shared>,
    method: Method,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    caller(&s, &method, &headers).await?.may_read()?;
    Ok(json(StatusCode::OK, s.deployments.listing().to_string()))
}

/// `POST /api/deployments/{name}/search`.
pub async fn search(
    State(s): State<Shared>,
    method: Method,
    headers: HeaderMap,
    Path(name): Path<String>,
    body: Body,
) -> Result<Response, ApiError> {
    let check = caller(&s, &method, &headers)
        .await
        .and_then(|c| c.may_read());
    let check = check.and_then(|()| match s.deployments.get(&name) {
        Some(_) => Ok(()),
        None => Err(ApiError::not_found(format!(
            "no deployment is named {name:?} (GET /api/deployments lists them)"
        ))),
    });
    let bytes = checked_json_body(&headers, body, s.max_body, check).await?;
    let shared = Arc::clone(&s);
    let (status, answer) =
        tokio::task::spawn_blocking(move || match shared.deployments.get(&name) {
            Some(d) => d.search(&bytes),
            None => Err(ApiError::not_found("no such deployment")),
        })
        .await
        .map_err(|e| ApiError::bad_request(e.to_string()))??;
    Ok(json(status, answer))
}

/// `GET /api/health`: up, and the store's schema (no token needed; says nothing of the runs).
pub async fn health(State(s): State<Shared>) -> Result<Response, ApiError> {
    let schema = s.store.schema_version().await?;
    Ok(json(
        StatusCode::OK,
        serde_json::json!({"ok": true, "version": figeval::VERSION, "schema": schema}).to_string(),
    ))
}

/// Any other path under `/api`.
pub async fn no_route(method: Method, OriginalUri(uri): OriginalUri) -> ApiError {
    ApiError::not_found(format!("{method} {} is not part of the API", uri.path()))
}

/// A known path asked with a method it does not take.
pub async fn wrong_method(method: Method, OriginalUri(uri): OriginalUri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        format!("{} does not take {method}", uri.path()),
    )
}
