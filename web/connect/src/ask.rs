//! The connector in use, and how the app's live run asks through it (contract §14.9).
//!
//! While a connector other than ragweld is in use, `globalThis.figevalConnect` holds two
//! functions the app calls (`web/src/browser.rs`): `ask(url, body, signal)`, given the app's own
//! `/search` URL and body, asks the deployment the connector's way and resolves to a `Response`
//! whose body is the answer as the mapping read it, in the contract's shape
//! ([`figeval::connector::MappedAnswer::ragweld_body`]); and `url(url)`, the URL the run's
//! messages name. What the mapping cannot read is a rejection named `FigevalConnector`, which
//! the app shows as it is. Header values live in this module's memory only.

use std::cell::RefCell;
use std::rc::Rc;

use figeval::connector::{MappedAnswer, PageLabels, Reader, Secrets};
use figeval::Connector;
use js_sys::{Function, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{future_to_promise, JsFuture};
use web_sys::{AbortSignal, Headers, RequestCredentials, RequestInit, RequestMode, ResponseInit};

use crate::state::{self, Asked};

/// A connector ready to ask: its mapping compiled, its secrets given.
pub struct InUse {
    /// The connector.
    pub connector: Connector,
    /// Its mapping, compiled (with the PDF's page labels for `label` numbering).
    pub reader: Reader,
    /// The header values, and what to take out of any text quoted back.
    pub secrets: Secrets,
    /// Whether an answer of this run has cited a page yet: until one has, an answer whose
    /// hits all cite no page stops the run (contract §14.4).
    any_page: std::cell::Cell<bool>,
}

impl InUse {
    /// Compiles `connector` with `labels` and the secrets `value_of` gives.
    pub fn new(
        connector: Connector,
        labels: Option<PageLabels>,
        value_of: impl Fn(&str) -> String,
    ) -> Result<InUse, String> {
        let reader = Reader::new(&connector, labels).map_err(|e| {
            e.to_string().replace(
                "(--pdf FILE)",
                "(open it in the Document view: its page labels are read there)",
            )
        })?;
        if let Some(m) = state::missing_secret(&state::secret_names(&connector), &value_of) {
            return Err(m);
        }
        let secrets = connector
            .secrets(|n| Some(value_of(n)))
            .map_err(|e| e.to_string())?;
        Ok(InUse {
            connector,
            reader,
            secrets,
            any_page: std::cell::Cell::new(false),
        })
    }
}

/// The app's `ask(url, body, signal)`.
type AskFn = Closure<dyn FnMut(String, String, JsValue) -> Promise>;
/// The app's `url(url)`.
type UrlFn = Closure<dyn FnMut(String) -> String>;

thread_local! {
    /// The connector the live run asks through (`None`: ragweld, the app's own request).
    static IN_USE: RefCell<Option<Rc<InUse>>> = const { RefCell::new(None) };
    /// The functions handed to the app, kept alive while they are installed.
    static HANDED: RefCell<Option<(AskFn, UrlFn)>> =
        const { RefCell::new(None) };
}

/// The connector in use, if any.
pub fn in_use() -> Option<Rc<InUse>> {
    IN_USE.with(|u| u.borrow().clone())
}

/// Puts `c` in use (`None`: back to ragweld, the app's own request): installs or removes
/// `globalThis.figevalConnect`.
pub fn set_in_use(c: Option<InUse>) {
    let global = js_sys::global();
    let key = JsValue::from_str("figevalConnect");
    match c {
        None => {
            let _ = Reflect::delete_property(&global.unchecked_into::<Object>(), &key);
            IN_USE.with(|u| *u.borrow_mut() = None);
            HANDED.with(|h| *h.borrow_mut() = None);
        }
        Some(c) => {
            IN_USE.with(|u| *u.borrow_mut() = Some(Rc::new(c)));
            let ask = AskFn::new(|url: String, body: String, signal: JsValue| {
                future_to_promise(async move { ask(&url, &body, signal).await })
            });
            let url = UrlFn::new(|url: String| shown_url(&url).unwrap_or(url));
            let o = Object::new();
            let _ = Reflect::set(&o, &"ask".into(), ask.as_ref());
            let _ = Reflect::set(&o, &"url".into(), url.as_ref());
            let _ = Reflect::set(&global, &key, &o);
            HANDED.with(|h| *h.borrow_mut() = Some((ask, url)));
        }
    }
}

/// The URL the connector asks for the app's search URL `url`.
fn shown_url(url: &str) -> Option<String> {
    let c = in_use()?;
    Some(url_for(&c.connector, url.strip_suffix("/search")?))
}

/// The URL `c` asks for the deployment at `base_url` (its template filled in; the question's
/// own parts, if the URL holds any, left empty).
pub fn url_for(c: &Connector, base_url: &str) -> String {
    let asked = Asked {
        base_url: base_url.trim_end_matches('/').to_string(),
        question: String::new(),
        corpus_id: String::new(),
        top_k: 0,
        cache_mode: figeval::CacheMode::Bypass,
    };
    c.url(&asked.as_core())
}

/// A rejection the app shows as it is.
fn refusal(message: &str) -> JsValue {
    let e = js_sys::Error::new(message);
    e.set_name("FigevalConnector");
    e.into()
}

/// What one exchange with the deployment gave: its status line, headers and body text.
pub struct Exchange {
    /// The HTTP status.
    pub status: u16,
    /// The status text.
    pub status_text: String,
    /// `Retry-After`, when the deployment exposes it.
    pub retry_after: Option<String>,
    /// The body, with every header value sent taken out.
    pub text: String,
}

/// Sends one question through `c`, as the connector says. A request that gets no answer is a
/// refusal that says whether the deployment is down or will not answer this page (CORS); an
/// aborted one rejects as the abort.
pub async fn exchange(c: &InUse, asked: &Asked, signal: &JsValue) -> Result<Exchange, JsValue> {
    let a = asked.as_core();
    let url = c.connector.url(&a);
    let init = RequestInit::new();
    init.set_method(c.connector.request.method.name());
    init.set_mode(RequestMode::Cors);
    init.set_credentials(RequestCredentials::Omit);
    if let Some(s) = signal.dyn_ref::<AbortSignal>() {
        init.set_signal(Some(s));
    }
    let headers = Headers::new()?;
    if let Some(body) = c.connector.body(&a) {
        headers.set("Content-Type", "application/json")?;
        init.set_body(&JsValue::from_str(&body));
    }
    for (name, value) in c.secrets.headers() {
        headers
            .set(name, value)
            .map_err(|_| refusal(&format!("the header {name} cannot be sent as given")))?;
    }
    init.set_headers(&headers);
    let window = web_sys::window().expect("the module runs in a page");
    let response = match JsFuture::from(window.fetch_with_str_and_init(&url, &init)).await {
        Ok(r) => r.unchecked_into::<web_sys::Response>(),
        Err(e) => {
            if signal
                .dyn_ref::<AbortSignal>()
                .is_some_and(AbortSignal::aborted)
            {
                return Err(e);
            }
            return Err(refusal(&unreachable(&url, c, &e).await));
        }
    };
    let text = JsFuture::from(response.text()?)
        .await?
        .as_string()
        .unwrap_or_default();
    Ok(Exchange {
        status: response.status(),
        status_text: response.status_text(),
        retry_after: response.headers().get("retry-after").ok().flatten(),
        text: c.secrets.redact(&text),
    })
}

/// Why `url` gave no answer: asked again without CORS (an opaque `GET` the page cannot read),
/// an answer means the deployment is up but does not answer this page.
async fn unreachable(url: &str, c: &InUse, e: &JsValue) -> String {
    let window = web_sys::window().expect("the module runs in a page");
    let init = RequestInit::new();
    init.set_method("GET");
    init.set_mode(RequestMode::NoCors);
    init.set_credentials(RequestCredentials::Omit);
    let origin = window.location().origin().unwrap_or_default();
    match JsFuture::from(window.fetch_with_str_and_init(url, &init)).await {
        Ok(_) => state::cors_message(url, &origin, c.secrets.headers()),
        Err(_) => figeval::live::unreachable_words(url, &figeval_error_text(e)),
    }
}

fn figeval_error_text(e: &JsValue) -> String {
    match e.dyn_ref::<js_sys::Error>() {
        Some(err) => format!(
            "{}: {}",
            String::from(err.name()),
            String::from(err.message())
        ),
        None => e.as_string().unwrap_or_default(),
    }
}

/// The app's search `url` and `body`, asked through the connector in use.
async fn ask(url: &str, body: &str, signal: JsValue) -> Result<JsValue, JsValue> {
    let c = in_use().ok_or_else(|| refusal("no connector is in use"))?;
    let asked = Asked::of_search(url, body)
        .ok_or_else(|| refusal("the app's search could not be read by the connector module"))?;
    let x = exchange(&c, &asked, &signal).await?;
    let init = ResponseInit::new();
    init.set_status(x.status);
    init.set_status_text(&x.status_text);
    if let Some(r) = &x.retry_after {
        let h = Headers::new()?;
        h.set("Retry-After", r)?;
        init.set_headers(&h);
    }
    if !(200..300).contains(&x.status) {
        // The app judges a failed answer by its status and quotes its body (redacted).
        return web_sys::Response::new_with_opt_str_and_init(Some(&x.text), &init).map(Into::into);
    }
    let read = match c.reader.read_answer(&x.text, false) {
        // Not JSON: the app says so, as for any deployment.
        Err(_) => {
            return web_sys::Response::new_with_opt_str_and_init(Some(&x.text), &init)
                .map(Into::into)
        }
        Ok(read) => read,
    };
    let body = translate(&c, &read)?;
    web_sys::Response::new_with_opt_str_and_init(Some(&body), &init).map(Into::into)
}

/// The answer in the contract's shape, or why the run must stop: hits the mapping cannot
/// find, or, before any answer has cited a page, an answer none of whose hits does.
fn translate(c: &InUse, read: &MappedAnswer) -> Result<String, JsValue> {
    if let Err(p) = &read.matches {
        return Err(refusal(&p.to_string()));
    }
    let p = &read.pages;
    if p.hits > p.without_page {
        c.any_page.set(true);
    } else if p.hits > 0 && !c.any_page.get() {
        return Err(refusal(&c.reader.no_page_reason(p)));
    }
    read.ragweld_body(&c.connector.stated_record())
        .ok_or_else(|| refusal("the answer's hits cannot be read"))
}

/// The open PDF's printed page labels, from the viewer (`web/pdfview.mjs`), when a PDF is open
/// and has them.
pub async fn page_labels() -> Option<PageLabels> {
    // Only an open PDF: asking the viewer would otherwise load it for nothing.
    web_sys::window()?
        .document()?
        .query_selector("[data-testid=pdf-panel][data-status=open]")
        .ok()??;
    let renderer: Function = Reflect::get(&js_sys::global(), &"figevalRenderer".into())
        .ok()?
        .dyn_into()
        .ok()?;
    let viewer = JsFuture::from(
        renderer
            .call0(&JsValue::NULL)
            .ok()?
            .dyn_into::<Promise>()
            .ok()?,
    )
    .await
    .ok()?;
    let f: Function = Reflect::get(&viewer, &"pageLabels".into())
        .ok()?
        .dyn_into()
        .ok()?;
    let labels: js_sys::Array = f.call0(&viewer).ok()?.dyn_into().ok()?;
    Some(PageLabels::new(
        labels
            .iter()
            .map(|l| l.as_string().unwrap_or_default())
            .collect(),
    ))
}
