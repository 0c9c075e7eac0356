//! The figeval team server: `figeval serve` (contract §15).
//!
//! It serves the built app and a JSON API on one origin: stored runs with their short links,
//! pushes from CI (a report, or a capture scored here by the core), tokens and the page's
//! sessions, and a proxy to configured deployments. The store is SQLite or PostgreSQL behind
//! one type ([`store::Store`]); several servers may share one PostgreSQL store. The command
//! line's `serve`, `serve token …` and `push` are thin shells over this crate; every number is
//! the core's (`figeval`).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use axum::extract::Request;
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use tower_http::services::ServeDir;

pub mod access;
pub mod api;
mod body;
pub mod clock;
pub mod error;
pub mod proxy;
pub mod push;
pub mod secret;
pub mod site;
pub mod store;

pub use access::Auth;
pub use proxy::Deployments;
pub use store::{Store, StoreError, StoreUrl};

/// The default `--max-body`: 64 MiB.
pub const DEFAULT_MAX_BODY: usize = 64 << 20;

/// The start of the line `figeval serve` prints once it listens; the URL follows.
pub const LISTENING: &str = "figeval serve: listening on ";

/// How `figeval serve` runs.
pub struct Config {
    /// `--listen`.
    pub listen: SocketAddr,
    /// `--store`.
    pub store: StoreUrl,
    /// `--app`: the built app's folder.
    pub app: PathBuf,
    /// `--max-body`, in bytes.
    pub max_body: usize,
    /// `--deployments`, read.
    pub deployments: Deployments,
    /// `--insecure-no-auth`.
    pub insecure_no_auth: bool,
    /// `--public-url`: the origin short links are made with (else the request's `Host`).
    pub public_url: Option<String>,
}

/// What every handler shares.
pub struct ServerState {
    store: Store,
    auth: Auth,
    max_body: usize,
    deployments: Deployments,
    public_url: Option<String>,
}

/// The handlers' state.
pub type Shared = Arc<ServerState>;

/// Serves until SIGINT or SIGTERM, then lets the requests in flight finish and closes the
/// store. Fails at start, with the reason, on a missing app, a store that cannot be opened
/// or is newer, an address it cannot listen on, or a non-loopback address without tokens
/// (unless `--insecure-no-auth`).
pub async fn serve(config: Config) -> Result<(), String> {
    let app = site::check_app(&config.app)?;
    let store = Store::open(&config.store)
        .await
        .map_err(|e| e.to_string())?;
    let loopback = config.listen.ip().is_loopback();
    let auth = if config.insecure_no_auth {
        Auth::Insecure
    } else {
        Auth::Tokens { loopback }
    };
    let tokens = store.live_tokens().await.map_err(|e| e.to_string())?;
    if !loopback && tokens == 0 && !config.insecure_no_auth {
        store.close().await;
        return Err(format!(
            "--listen {} is not a loopback address, and the store {} has no token: anyone who \
             reaches the address could read, push and delete runs. Create a token first \
             (figeval serve token create --store STORE --name NAME --scope admin), or give \
             --insecure-no-auth to let anyone in",
            config.listen,
            config.store.describe()
        ));
    }
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.listen))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("cannot listen on {}: {e}", config.listen))?;
    if config.insecure_no_auth {
        eprintln!(
            "figeval serve: WARNING: --insecure-no-auth: no token is asked for. Anyone who can \
             reach {addr} can list, read, push, rename and delete every run, and search every \
             configured deployment with its credentials"
        );
    } else if loopback && tokens == 0 {
        eprintln!(
            "figeval serve: open on this machine: the store has no token, so requests to \
             {addr} need none (create one and every request will)"
        );
    }
    let n_deployments = config.deployments.len();
    let state = Arc::new(ServerState {
        store: store.clone(),
        auth,
        max_body: config.max_body,
        deployments: config.deployments,
        public_url: config
            .public_url
            .map(|u| u.trim_end_matches('/').to_string()),
    });
    let router = router(state, &app);
    eprintln!(
        "figeval serve: store {}, app {}, {n_deployments} deployment(s)",
        config.store.describe(),
        app.display()
    );
    eprintln!("{LISTENING}http://{addr}");
    axum::serve(listener, router)
        .with_graceful_shutdown(stop_signal())
        .await
        .map_err(|e| format!("the server failed: {e}"))?;
    store.close().await;
    eprintln!("figeval serve: stopped; the store is closed");
    Ok(())
}

/// Serves on a runtime of its own until stopped: what the command line calls.
pub fn run(config: Config) -> Result<(), String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server's runtime: {e}"))?
        .block_on(serve(config))
}

/// Runs `f` with the store at `url` open, on a small runtime of its own (for
/// `figeval serve token …`).
pub fn with_store<T>(
    url: &StoreUrl,
    f: impl AsyncFnOnce(&Store) -> Result<T, StoreError>,
) -> Result<T, String> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start a runtime: {e}"))?
        .block_on(async {
            let store = Store::open(url).await.map_err(|e| e.to_string())?;
            let out = f(&store).await.map_err(|e| e.to_string());
            store.close().await;
            out
        })
}

/// The routes: the API under `/api`, the short links, and the app for every other path.
pub fn router(state: Shared, app: &std::path::Path) -> Router {
    let api = Router::new()
        .route("/runs", get(api::list_runs).post(api::push_run))
        .route(
            "/runs/{id}",
            get(api::get_run)
                .patch(api::patch_run)
                .delete(api::delete_run),
        )
        .route("/runs/{id}/capture", get(api::get_capture))
        .route(
            "/session",
            get(api::get_session)
                .post(api::sign_in)
                .delete(api::sign_out),
        )
        .route("/deployments", get(api::deployments))
        .route("/deployments/{name}/search", post(api::search))
        .route("/health", get(api::health))
        .fallback(api::no_route)
        .method_not_allowed_fallback(api::wrong_method);
    Router::new()
        .nest("/api", api)
        .route("/r/{id}", get(site::run_link))
        .route("/c/{ids}", get(site::compare_link))
        .fallback_service(ServeDir::new(app).append_index_html_on_directories(true))
        .with_state(state)
        .layer(axum::middleware::from_fn(log_and_harden))
}

/// One line per request on stderr: method, path (never the query), status, milliseconds. No
/// header, body or token is ever logged. Every answer also tells the browser not to sniff
/// types and to send no referrer (a short link stays out of other sites' logs).
async fn log_and_harden(req: Request, next: Next) -> Response {
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let started = Instant::now();
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    eprintln!(
        "figeval serve: {method} {path} {} {} ms",
        res.status().as_u16(),
        started.elapsed().as_millis()
    );
    res
}

/// SIGINT or SIGTERM.
async fn stop_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {},
        () = terminate => {},
    }
    eprintln!("figeval serve: stopping: letting the requests in flight finish");
}
