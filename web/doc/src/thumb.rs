//! A page thumbnail drawn by the PDF viewer (`pdfview.mjs`), for any view of the module.
//!
//! [`Thumb`] is a button (`page-thumb`, `data-page`) holding an `img[data-thumb]`: the viewer
//! draws the page into it once it is on screen (`data-rendered` is set then), and a click on it
//! opens the viewer's page view. A view that wants another action on click (the editor picking
//! a page) passes `onclick`; the page view then does not open.

use web_sys::HtmlImageElement;
use yew::prelude::*;

use crate::bridge;

/// Props of [`Thumb`].
#[derive(Properties, PartialEq)]
pub struct ThumbProps {
    /// The 1-based physical page.
    pub page: u32,
    /// The document generation it belongs to (`Doc::generation`): a new PDF draws anew.
    pub generation: u32,
    /// Why it is shown, for its name ("caption of Figure 15.1").
    pub why: AttrValue,
    /// What a click does instead of opening the page view.
    #[prop_or_default]
    pub onclick: Option<Callback<u32>>,
}

/// A thumbnail of one page (84 × 109 CSS pixels, like the ranked windows').
#[function_component(Thumb)]
pub fn thumb(props: &ThumbProps) -> Html {
    let img = use_node_ref();
    {
        let img = img.clone();
        use_effect_with((props.page, props.generation), move |_| {
            if let Some(el) = img.cast::<HtmlImageElement>() {
                bridge::watch_thumbnail(el);
            }
        });
    }
    let alt = format!("page {}, {}", props.page, props.why);
    let (testid, verb, onclick) = match &props.onclick {
        // Not `page-thumb`: the viewer opens its page view on a click of one of those.
        Some(cb) => {
            let (cb, page) = (cb.clone(), props.page);
            let pick = Callback::from(move |_: MouseEvent| cb.emit(page));
            ("pick-page", "Use", Some(pick))
        }
        None => ("page-thumb", "Open", None),
    };
    html! {
        <button type="button" class="page-thumb" data-testid={testid} data-page={props.page.to_string()}
                title={format!("{verb} {alt}")} {onclick}>
            <img key={props.generation} ref={img} data-thumb={props.page.to_string()} alt={alt} width="84" height="109" />
            <span class="thumb-cap">{ format!("p.{}", props.page) }</span>
        </button>
    }
}
