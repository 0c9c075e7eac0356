//! Sharing as a link: `#report=` holds one report, `#compare=` the reports of a comparison
//! (figeval::share), so nothing leaves the browser until the link is pasted somewhere.

use figeval::{share, Report};
use yew::prelude::*;

use crate::format;
use crate::link;
use crate::shared::Shared;

/// Props of [`SharePanel`].
#[derive(Properties, PartialEq)]
pub struct SharePanelProps {
    /// What the link carries: one report (a `#report=` link), or the reports of a comparison
    /// in order, the baseline first, with their names (a `#compare=` link).
    pub reports: Vec<(AttrValue, Shared<Report>)>,
    /// Prefix of the test ids: `""` gives `share-link`, `"compare-"` gives `compare-share-link`.
    #[prop_or_default]
    pub testid: AttrValue,
}

/// Links over more items than this are made on request: compressing a large report takes
/// seconds in the page (and one of more than a few thousand items does not fit in a link
/// anyway), so it must not hold up the view's first paint.
pub const EAGER_MAX_ITEMS: usize = 1_000;

/// The link (a `#report=` link for one report, `#compare=` for more), or why there is none:
/// the payload from the core, compressed by the browser, wrapped by the core.
async fn make_link(reports: Vec<(AttrValue, Shared<Report>)>) -> Result<String, String> {
    let (prefix, payload) = match &reports[..] {
        [(_, one)] => (share::FRAGMENT_PREFIX, share::report_payload(one)),
        many => {
            let named: Vec<(&str, &Report)> =
                many.iter().map(|(n, r)| (n.as_str(), &**r)).collect();
            let payload = share::compare_payload(&named).map_err(|e| e.to_string())?;
            (share::COMPARE_PREFIX, payload)
        }
    };
    let deflated = link::deflate(&payload).await?;
    let value = share::wrap(&deflated).map_err(|e| e.to_string())?;
    Ok(format!("{}#{prefix}{value}", link::page_address()))
}

/// The link, its copy button, or why there is none.
#[function_component(SharePanel)]
pub fn share_panel(props: &SharePanelProps) -> Html {
    let id = |name: &str| format!("{}{name}", props.testid);
    // The reports whose link was asked for (large ones only), and those being compressed.
    let requested = use_state(|| None::<Vec<(AttrValue, Shared<Report>)>>);
    let making = use_state(|| None::<Vec<(AttrValue, Shared<Report>)>>);
    let items: usize = props.reports.iter().map(|(_, r)| r.per_item.len()).sum();
    let wanted = items <= EAGER_MAX_ITEMS || requested.as_ref() == Some(&props.reports);
    // The link of the reports it was made for: made (in the background) once wanted.
    let made = use_state(|| None::<(Vec<(AttrValue, Shared<Report>)>, Result<String, String>)>);
    {
        let made = made.clone();
        use_effect_with((props.reports.clone(), wanted), move |(reports, wanted)| {
            if *wanted {
                let reports = reports.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    let link = make_link(reports.clone()).await;
                    made.set(Some((reports, link)));
                });
            }
        });
    }
    let link = match &*made {
        Some((r, link)) if wanted && *r == props.reports => Some(link),
        _ => None,
    };
    let copied = use_state(|| false);
    let (what, holder) = match props.reports.len() {
        1 => ("The whole report is".to_string(), "This report has"),
        n => (format!("All {n} reports are"), "These reports have"),
    };
    let Some(link) = link else {
        if wanted && items <= EAGER_MAX_ITEMS {
            return html! { <p class="muted small" data-testid={id("share-pending")}>{ "Making the share link…" }</p> };
        }
        let busy = wanted || making.as_ref() == Some(&props.reports);
        let make = {
            let reports = props.reports.clone();
            let requested = requested.clone();
            let making = making.clone();
            Callback::from(move |_: MouseEvent| {
                // Say so first, then compress once the browser has painted the message.
                making.set(Some(reports.clone()));
                let reports = reports.clone();
                let requested = requested.clone();
                gloo_timers::callback::Timeout::new(30, move || requested.set(Some(reports)))
                    .forget();
            })
        };
        return html! {
            <div class="share">
                <button type="button" data-testid={id("make-share-link")} onclick={make} disabled={busy}>
                    { if busy { "Making the share link…" } else { "Make a share link" } }</button>
                <p class="muted small full">{ format!(
                    "{holder} {} items: the link is made on request (it takes a moment, and a link holds at most {} KiB compressed — share the report files when they are larger).",
                    format::count(items), figeval::share::MAX_ENCODED_BYTES / 1024) }</p>
            </div>
        };
    };
    match link {
        Ok(url) => {
            let copy = {
                let url = url.clone();
                let copied = copied.clone();
                Callback::from(move |_: MouseEvent| {
                    link::copy_text(&url);
                    copied.set(true);
                })
            };
            html! {
                <div class="share">
                    <label class="grow">{ "Share link" }
                        <input type="text" readonly=true data-testid={id("share-link")} value={url.clone()}
                               onfocus={Callback::from(|e: FocusEvent| {
                                   let input: web_sys::HtmlInputElement = e.target_unchecked_into();
                                   input.select();
                               })} />
                    </label>
                    <button type="button" onclick={copy} data-testid={id("copy-share-link")}>
                        { if *copied { "Copied" } else { "Copy" } }</button>
                    <a href={url.clone()} target="_blank" rel="noopener noreferrer" data-testid={id("share-anchor")}>{ "Open" }</a>
                    <p class="muted small full">{ format!(
                        "{what} in the link's #fragment ({} characters), which browsers never send to a server.",
                        url.len()) }</p>
                </div>
            }
        }
        Err(e) => html! {
            <p class="field-error" data-testid={id("share-error")}>{ e.clone() }</p>
        },
    }
}
