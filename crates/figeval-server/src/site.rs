//! The built app, and the short links (contract §15.5): `/r/{id}` and `/c/{id},{id},…` send
//! the browser to the app with the run (or the comparison) in the fragment, `#run=ID` and
//! `#runs=A,B,…`. The app is served from `/`, so its relative asset URLs resolve as Trunk
//! built them; the redirect is relative (`../#run=ID`), so a server behind a path prefix keeps
//! it.

use std::path::{Path, PathBuf};

use axum::extract::Path as UrlPath;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::secret;

/// The most runs one `/c/` link compares.
pub const MAX_COMPARED: usize = 20;

/// Checks that `dir` holds a built app (its `index.html`), or says how to build one.
pub fn check_app(dir: &Path) -> Result<PathBuf, String> {
    if dir.join("index.html").is_file() {
        return Ok(dir.to_path_buf());
    }
    Err(format!(
        "no built app in {} ({} is missing): build it with `trunk build --release --offline` in \
         the figeval repository (it writes dist/), then give --app with that folder",
        dir.display(),
        dir.join("index.html").display()
    ))
}

fn redirect(fragment: String) -> Response {
    let mut res = crate::api::with_header(
        StatusCode::SEE_OTHER.into_response(),
        header::LOCATION,
        &format!("../#{fragment}"),
    );
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

fn not_a_link(what: &str) -> Response {
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        format!("{what} is not a run link: /r/ID or /c/ID,ID,…\n"),
    )
        .into_response()
}

/// `/r/{id}` → `../#run={id}`.
pub async fn run_link(UrlPath(id): UrlPath<String>) -> Response {
    if secret::is_run_id(&id) {
        redirect(format!("run={id}"))
    } else {
        not_a_link("this")
    }
}

/// `/c/{a},{b},…` → `../#runs={a},{b},…` (the first is the baseline).
pub async fn compare_link(UrlPath(ids): UrlPath<String>) -> Response {
    let list: Vec<&str> = ids.split(',').collect();
    if (2..=MAX_COMPARED).contains(&list.len()) && list.iter().all(|i| secret::is_run_id(i)) {
        redirect(format!("runs={ids}"))
    } else {
        not_a_link("this")
    }
}
