//! A textarea for JSON text that is not re-written on every keystroke.
//!
//! A controlled textarea (`value=` on every render) makes the browser re-lay out the whole text
//! after each input event, which is slow for a pasted capture of thousands of lines. This one
//! only writes the DOM value when the text changed from elsewhere (a bundled dataset, a dropped
//! file) and differs from what the field already holds.

use std::rc::Rc;

use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

/// Props of [`CodeArea`].
#[derive(Properties, PartialEq)]
pub struct CodeAreaProps {
    /// The text the field should hold.
    pub text: Rc<str>,
    /// Its `data-testid`.
    pub testid: AttrValue,
    /// Its accessible name.
    pub label: AttrValue,
    /// Shown when empty.
    #[prop_or_default]
    pub placeholder: AttrValue,
    /// Visible lines.
    pub rows: u32,
    /// Read-only (a run is in progress).
    #[prop_or_default]
    pub readonly: bool,
    /// The user edited the text.
    pub on_input: Callback<String>,
}

/// The field.
#[function_component(CodeArea)]
pub fn code_area(props: &CodeAreaProps) -> Html {
    let node = use_node_ref();
    {
        let node = node.clone();
        use_effect_with(props.text.clone(), move |text| {
            if let Some(area) = node.cast::<HtmlTextAreaElement>() {
                if area.value() != **text {
                    area.set_value(text);
                }
            }
        });
    }
    let on_input = props.on_input.clone();
    let oninput = Callback::from(move |e: InputEvent| {
        let area: HtmlTextAreaElement = e.target_unchecked_into();
        on_input.emit(area.value());
    });
    html! {
        <textarea ref={node} data-testid={props.testid.clone()} class="code" rows={props.rows.to_string()}
                  spellcheck="false" aria-label={props.label.clone()} placeholder={props.placeholder.clone()}
                  readonly={props.readonly} {oninput} />
    }
}
