//! The team server's API as the page asks it (contract §15.5), through boot.js's
//! `figevalApi` and `figevalRun`: every path is relative to the page (`api/runs/ID`), so a
//! server under a path prefix keeps working, and the session cookie goes with it (same
//! origin). Errors come back as `{error, detail}` and are shown in their words.

use std::rc::Rc;

use serde_json::Value;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

use crate::files::js_error_text;
use crate::open_report::{read_report, OpenReport, Stored};

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// `boot.js`: `fetch(path, {method, body})` as `[status, text, content type]`.
    #[wasm_bindgen(js_name = figevalApi)]
    fn api(method: &str, path: &str, body: JsValue) -> js_sys::Promise;
    /// `boot.js`: `GET api/runs/ID` as `[status, text, content type]`, and on a 200 the answer
    /// without its report as the text and the report's own text fourth.
    #[wasm_bindgen(js_name = figevalRun)]
    fn run_of(id: &str) -> js_sys::Promise;
}

/// An answer: its status, its text, its content type, and the rest `boot.js` split off.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The HTTP status.
    pub status: u16,
    /// The body.
    pub text: String,
    /// Whether it was sent as JSON.
    pub json: bool,
    /// For a run read: the report's own JSON text.
    pub report: Option<String>,
}

impl Answer {
    /// The answer's words when it is not a success: a figeval server's `detail`, or the status
    /// said plainly for anything else (a static host has no API).
    pub fn refusal(&self) -> String {
        let detail = self
            .json
            .then(|| serde_json::from_str::<Value>(&self.text).ok())
            .flatten()
            .and_then(|v| v.get("detail").and_then(Value::as_str).map(str::to_string));
        detail.unwrap_or_else(|| {
            format!(
                "the server answered HTTP {} without figeval's words: this page is not served by figeval serve",
                self.status
            )
        })
    }

    fn of(v: JsValue) -> Answer {
        let parts = js_sys::Array::from(&v);
        let text = |i: u32| parts.get(i).as_string();
        Answer {
            status: parts.get(0).as_f64().map_or(0, |s| s as u16),
            text: text(1).unwrap_or_default(),
            json: text(2).is_some_and(|t| t.contains("json")),
            report: text(3),
        }
    }
}

/// Asks the server: `method` on `path` (relative to the page) with a JSON `body`. A request that
/// never got an answer (the network, a page opened from a file) is an error in words.
pub async fn call(method: &str, path: &str, body: Option<&str>) -> Result<Answer, String> {
    let body = body.map_or(JsValue::UNDEFINED, JsValue::from_str);
    JsFuture::from(api(method, path, body))
        .await
        .map(Answer::of)
        .map_err(|e| format!("the server could not be reached: {}", js_error_text(&e)))
}

/// A run read from the server (`GET api/runs/ID`): the answer, its report's text apart.
pub async fn run(id: &str) -> Result<Answer, String> {
    JsFuture::from(run_of(id))
        .await
        .map(Answer::of)
        .map_err(|e| format!("the server could not be reached: {}", js_error_text(&e)))
}

/// Why a run could not be read, in words (contract §15.5): a 401 asks to sign in, a 404 names the
/// id, anything else says the server's `detail`.
pub fn run_refusal(id: &str, a: &Answer) -> String {
    match a.status {
        401 => {
            "the server asks you to sign in first: open Runs and sign in with a read or admin token"
                .to_string()
        }
        404 if a.json => format!("no run has the id {id:?}"),
        _ => a.refusal(),
    }
}

/// What a `GET api/session` answer lets the page do with the report it shows: `None` when it
/// is not a figeval server's (a static host), else whether the session may push a run (an
/// admin session, or an open server: contract §15.6), which a short link of a report made here
/// needs.
pub fn may_push(session: &str) -> Option<bool> {
    let v: Value = serde_json::from_str(session).ok()?;
    v.get("signed_in")?;
    Some(v.get("scope").and_then(Value::as_str) == Some("admin"))
}

/// A run's name and labels, from the answer to `GET api/runs/ID` (its report apart): the labels
/// in the order the server gives them.
pub fn run_facts(text: &str) -> (String, Vec<(String, String)>) {
    let v: Value = serde_json::from_str(text).unwrap_or(Value::Null);
    let name = v
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("stored run");
    let labels = v
        .get("labels")
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                .collect()
        })
        .unwrap_or_default();
    (name.to_string(), labels)
}

/// The report of run `id` as the server answered it (`run`), read by `Report::parse` and open
/// with its name and labels; or why not, in words (a refused report after its name).
pub fn open_run(id: &str, answer: Result<Answer, String>) -> Result<OpenReport, String> {
    let a = answer?;
    let Some(text) = a.report.as_deref().filter(|_| a.status == 200) else {
        return Err(run_refusal(id, &a));
    };
    let (name, labels) = run_facts(&a.text);
    let report = read_report(&name, text).map_err(|e| format!("{}: {}", e.title, e.detail))?;
    // Called by the name the server keeps for it (edited there, perhaps), which its share links
    // and downloads then carry too.
    let mut open = OpenReport::new("figeval server", report);
    open.rename(&name);
    Ok(OpenReport {
        stored: Some(Rc::new(Stored {
            id: id.to_string(),
            labels,
        })),
        ..open
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(status: u16, text: &str, json: bool) -> Answer {
        Answer {
            status,
            text: text.into(),
            json,
            report: None,
        }
    }

    #[test]
    fn a_refusal_is_the_servers_detail_or_the_status_said_plainly() {
        let a = answer(
            422,
            r#"{"error":"refused","detail":"report: <b>bad</b>"}"#,
            true,
        );
        assert_eq!(a.refusal(), "report: <b>bad</b>");
        let html = answer(404, "<html>not found</html>", false);
        assert!(html
            .refusal()
            .starts_with("the server answered HTTP 404 without figeval's words"));
        assert_eq!(
            run_refusal(
                "abc",
                &answer(404, r#"{"error":"not_found","detail":"x"}"#, true)
            ),
            "no run has the id \"abc\""
        );
        assert!(run_refusal("abc", &answer(401, "{}", true)).contains("sign in"));
    }

    #[test]
    fn only_an_admin_or_open_session_may_push_and_only_a_figeval_server_has_one() {
        assert_eq!(
            may_push(r#"{"signed_in":false,"open":true,"name":null,"scope":"admin"}"#),
            Some(true)
        );
        assert_eq!(
            may_push(r#"{"signed_in":true,"open":false,"name":"t","scope":"read"}"#),
            Some(false)
        );
        assert_eq!(
            may_push(r#"{"signed_in":false,"open":false,"name":null,"scope":null}"#),
            Some(false)
        );
        assert_eq!(may_push(""), None);
        assert_eq!(may_push("<html></html>"), None);
        assert_eq!(may_push(r#"{"other":1}"#), None);
    }

    #[test]
    fn a_runs_name_and_labels_are_read_as_given() {
        let (name, labels) =
            run_facts(r#"{"id":"x","name":"<i>n</i>","labels":{"b":"2","a":"<1>"}}"#);
        assert_eq!(name, "<i>n</i>");
        assert_eq!(
            labels,
            [("b".into(), "2".into()), ("a".into(), "<1>".into())]
        );
    }
}
