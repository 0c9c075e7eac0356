//! The short link of what the Share card shares, when the page is served by `figeval serve`
//! (contract §15.5): `r/ID` for one run, `c/A,B,…` for a comparison (A the baseline), beside the
//! page's own address, so a server under a path prefix keeps it. A report read from the server
//! has its id; one made or opened here is pushed first (`POST api/runs`, its name with it),
//! which an admin session (or an open server) may do: the card says so otherwise. Each report
//! is pushed once for the page's life. The compare view shows [`ShortLink`]; the app's report
//! view shows its own short line and has the runs module push the report on show
//! ([`stored_id`]), so the main module carries no push of its own.

use std::cell::RefCell;

use serde_json::Value;
use yew::prelude::*;

use crate::api;
use crate::link;
use crate::open_report::OpenReport;

thread_local! {
    /// The runs pushed from this page: a report's key and its run's id.
    static PUSHED: RefCell<Vec<(u64, String)>> = const { RefCell::new(Vec::new()) };
}

/// The run id of a report: its own when it was read from the server, else the one it was
/// pushed as from here.
fn id_of(o: &OpenReport) -> Option<String> {
    o.stored.as_ref().map(|s| s.id.clone()).or_else(|| {
        PUSHED.with(|p| {
            p.borrow()
                .iter()
                .find(|(k, _)| *k == o.key)
                .map(|(_, id)| id.clone())
        })
    })
}

/// The short link of these run ids beside the page's address (`…/r/ID`, `…/c/A,B`).
pub fn short_link(address: &str, ids: &[String]) -> String {
    let base = address.rfind('/').map_or(address, |i| &address[..=i]);
    match ids {
        [one] => format!("{base}r/{one}"),
        many => format!("{base}c/{}", many.join(",")),
    }
}

/// The run id of a report, pushing it first when it has none (once for the page's life); or why
/// it could not be pushed, in words.
pub async fn stored_id(o: &OpenReport) -> Result<String, String> {
    if let Some(id) = id_of(o) {
        return Ok(id);
    }
    let id = push(o).await?;
    PUSHED.with(|p| p.borrow_mut().push((o.key, id.clone())));
    Ok(id)
}

/// Pushes a report as a run (`POST api/runs`, with its name); its id, or why not in words.
pub async fn push(o: &OpenReport) -> Result<String, String> {
    let body = format!(
        "{{\"report\":{},\"name\":{}}}",
        o.report.to_json_pretty(),
        Value::from(&*o.name)
    );
    let a = api::call("POST", "api/runs", Some(&body)).await?;
    if a.status != 201 {
        return Err(format!("{}: {}", o.name, a.refusal()));
    }
    serde_json::from_str::<Value>(&a.text)
        .ok()
        .and_then(|v| v.get("id").and_then(Value::as_str).map(str::to_string))
        .ok_or_else(|| format!("{}: the server's answer names no run", o.name))
}

/// Props of [`ShortLink`].
#[derive(Properties, PartialEq)]
pub struct ShortLinkProps {
    /// The reports shared, in order (the baseline first).
    pub reports: Vec<OpenReport>,
    /// `None`: no figeval server serves the page (nothing is shown); else whether the session
    /// may push a run.
    pub may_push: Option<bool>,
    /// Prefix of the test ids (`short-link`, `short-push`, `short-needs`, `short-error`).
    #[prop_or_default]
    pub testid: AttrValue,
}

/// The short link, the button that pushes what is not on the server yet, or why it cannot.
#[function_component(ShortLink)]
pub fn short_link_card(props: &ShortLinkProps) -> Html {
    let id = |name: &str| format!("{}{name}", props.testid);
    let busy = use_state(|| false);
    let error = use_state(|| None::<String>);
    let Some(may_push) = props.may_push else {
        return html! {};
    };
    let ids: Vec<Option<String>> = props.reports.iter().map(id_of).collect();
    if let Some(ids) = ids.iter().cloned().collect::<Option<Vec<String>>>() {
        let url = short_link(&link::page_address(), &ids);
        return html! {
            <div class="share">
                <label class="grow">{ "Short link" }
                    <input type="text" readonly=true data-testid={id("short-link")} value={url.clone()} />
                </label>
                <a href={url} target="_blank" rel="noopener noreferrer">{ "Open" }</a>
                <p class="muted small full">{ "Stored by the figeval server that serves this page: whoever opens it needs access to that server." }</p>
            </div>
        };
    }
    if !may_push {
        return html! {
            <p class="muted small" data-testid={id("short-needs")}>
                { "A short link needs the report stored on this page's figeval server: sign in with an admin token under Runs to push it." }
            </p>
        };
    }
    let go = {
        let (busy, error, reports) = (busy.clone(), error.clone(), props.reports.clone());
        Callback::from(move |_: MouseEvent| {
            let (busy, error, reports) = (busy.clone(), error.clone(), reports.clone());
            busy.set(true);
            wasm_bindgen_futures::spawn_local(async move {
                for o in &reports {
                    if let Err(e) = stored_id(o).await {
                        error.set(Some(e));
                        busy.set(false);
                        return;
                    }
                }
                error.set(None);
                busy.set(false);
            });
        })
    };
    let unstored = ids.iter().filter(|i| i.is_none()).count();
    html! {
        <div class="share">
            <button type="button" data-testid={id("short-push")} onclick={go} disabled={*busy}>
                { if *busy { "Pushing…" } else { "Push to this server for a short link" } }</button>
            <span class="muted small">{ match unstored {
                1 => "The report is stored on the figeval server that serves this page, under its name.".to_string(),
                n => format!("The {n} reports not stored yet are pushed to the figeval server that serves this page, under their names."),
            } }</span>
            if let Some(e) = &*error {
                <p class="field-error full" role="alert" data-testid={id("short-error")}>{ e.clone() }</p>
            }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::short_link;

    #[test]
    fn a_short_link_sits_beside_the_pages_address_under_any_prefix() {
        let one = ["abc".to_string()];
        assert_eq!(short_link("http://h:8080/", &one), "http://h:8080/r/abc");
        assert_eq!(
            short_link("https://x.org/figeval/index.html", &one),
            "https://x.org/figeval/r/abc"
        );
        let two = ["a".to_string(), "b".to_string()];
        assert_eq!(short_link("http://h/", &two), "http://h/c/a,b");
    }
}
