//! The banner that says what failed (`error-banner`).

use yew::prelude::*;

use crate::state::Banner;

/// Props of [`ErrorBanner`].
#[derive(Properties, PartialEq)]
pub struct ErrorBannerProps {
    /// What to show; nothing when `None`.
    pub banner: Option<Banner>,
    /// Close it.
    pub on_dismiss: Callback<()>,
}

/// A failure, shown as text, until dismissed. It is an alert (screen readers announce it when
/// it appears), and the app moves keyboard focus to it, so the next Tab starts from there.
#[function_component(ErrorBanner)]
pub fn error_banner(props: &ErrorBannerProps) -> Html {
    let Some(banner) = &props.banner else {
        return html! {};
    };
    let dismiss = props.on_dismiss.reform(|_: MouseEvent| ());
    html! {
        <div class="banner" role="alert" tabindex="-1" data-testid="error-banner">
            <div class="banner-body">
                <strong class="banner-title">{ banner.title.clone() }</strong>
                <p class="banner-detail">{ banner.detail.clone() }</p>
                if let Some(more) = &banner.more {
                    <details class="banner-more" data-testid="banner-more">
                        <summary>{ "Details" }</summary>
                        <p class="banner-detail">{ more.clone() }</p>
                    </details>
                }
            </div>
            <button class="ghost" onclick={dismiss} data-testid="dismiss-banner"
                    aria-label="Dismiss">{ "✕" }</button>
        </div>
    }
}
