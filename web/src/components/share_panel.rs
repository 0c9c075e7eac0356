//! Sharing a report as a link: `#report=` holds the report itself (figeval::share), so it
//! never leaves the browser until the link is pasted somewhere.

use figeval::Report;
use yew::prelude::*;

use crate::browser;
use crate::shared::Shared;

/// Props of [`SharePanel`].
#[derive(Properties, PartialEq)]
pub struct SharePanelProps {
    /// The report.
    pub report: Shared<Report>,
}

/// The link, its copy button, or why there is none.
#[function_component(SharePanel)]
pub fn share_panel(props: &SharePanelProps) -> Html {
    let link = use_memo(props.report.clone(), |r| {
        figeval::share::fragment(r).map(|f| format!("{}#{f}", browser::page_address()))
    });
    let copied = use_state(|| false);
    match &*link {
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
