//! Sharing a report as a link: `#report=` holds the report itself (figeval::share), so it
//! never leaves the browser until the link is pasted somewhere.

use figeval::Report;
use yew::prelude::*;

use crate::browser;
use crate::format;
use crate::shared::Shared;

/// Props of [`SharePanel`].
#[derive(Properties, PartialEq)]
pub struct SharePanelProps {
    /// The report.
    pub report: Shared<Report>,
}

/// Reports with more items than this get their link on request: compressing a large report
/// takes seconds in the page (and one of more than a few thousand items does not fit in a link
/// anyway), so it must not hold up the report's first paint.
pub const EAGER_MAX_ITEMS: usize = 1_000;

/// The link, its copy button, or why there is none.
#[function_component(SharePanel)]
pub fn share_panel(props: &SharePanelProps) -> Html {
    // The report whose link was asked for (large reports only).
    let requested = use_state(|| None::<Shared<Report>>);
    let making = use_state(|| None::<Shared<Report>>);
    let items = props.report.per_item.len();
    let wanted = items <= EAGER_MAX_ITEMS || requested.as_ref() == Some(&props.report);
    let link = use_memo((props.report.clone(), wanted), |(r, wanted)| {
        wanted.then(|| {
            figeval::share::fragment(r).map(|f| format!("{}#{f}", browser::page_address()))
        })
    });
    let copied = use_state(|| false);
    let Some(link) = &*link else {
        let busy = making.as_ref() == Some(&props.report);
        let make = {
            let report = props.report.clone();
            let requested = requested.clone();
            let making = making.clone();
            Callback::from(move |_: MouseEvent| {
                // Say so first, then compress once the browser has painted the message.
                making.set(Some(report.clone()));
                let report = report.clone();
                let requested = requested.clone();
                gloo_timers::callback::Timeout::new(30, move || requested.set(Some(report)))
                    .forget();
            })
        };
        return html! {
            <div class="share">
                <button type="button" data-testid="make-share-link" onclick={make} disabled={busy}>
                    { if busy { "Making the share link…" } else { "Make a share link" } }</button>
                <p class="muted small full">{ format!(
                    "This report has {} items: its link is made on request (it takes a moment, and a link holds at most {} KiB compressed — share the report file when it is larger).",
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
                    browser::copy_text(&url);
                    copied.set(true);
                })
            };
            html! {
                <div class="share">
                    <label class="grow">{ "Share link" }
                        <input type="text" readonly=true data-testid="share-link" value={url.clone()}
                               onfocus={Callback::from(|e: FocusEvent| {
                                   let input: web_sys::HtmlInputElement = e.target_unchecked_into();
                                   input.select();
                               })} />
                    </label>
                    <button type="button" onclick={copy} data-testid="copy-share-link">
                        { if *copied { "Copied" } else { "Copy" } }</button>
                    <a href={url.clone()} target="_blank" rel="noopener noreferrer" data-testid="share-anchor">{ "Open" }</a>
                    <p class="muted small full">{ format!(
                        "The whole report is in the link's #fragment ({} characters), which browsers never send to a server.",
                        url.len()) }</p>
                </div>
            }
        }
        Err(e) => html! {
            <p class="field-error" data-testid="share-error">{ e.to_string() }</p>
        },
    }
}
