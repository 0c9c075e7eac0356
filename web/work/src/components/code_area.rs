//! A textarea for JSON text that is not re-written on every keystroke.
//!
//! A controlled textarea (`value=` on every render) makes the browser re-lay out the whole text
//! after each input event, which is slow for a pasted capture of thousands of lines. This one
//! only writes the DOM value when the text changed from elsewhere (a bundled dataset, a dropped
//! file) and differs from what the field already holds.
//!
//! A text over [`SHOWN_MAX_BYTES`] that arrives from elsewhere (a 92 MB capture file) is not
//! put in the field at all: the browser takes a minute to lay such a text out. The field stays
//! empty with a note saying what is loaded; typing or pasting there replaces it.

use std::rc::Rc;

use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use crate::format;

/// The largest text written into the field from elsewhere (1 MiB).
pub const SHOWN_MAX_BYTES: usize = 1 << 20;

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
    // The size of the text that is loaded but not shown, when it is too large to show.
    let elided = use_state(|| None::<usize>);
    {
        let node = node.clone();
        let elided = elided.clone();
        use_effect_with(props.text.clone(), move |text| {
            if let Some(area) = node.cast::<HtmlTextAreaElement>() {
                // A field that is empty (or short) is cheap to read back; one holding a large
                // pasted text is read once, when that text arrives.
                let mut hidden = None;
                if area.value() != **text {
                    if text.len() > SHOWN_MAX_BYTES {
                        area.set_value("");
                        hidden = Some(text.len());
                    } else {
                        area.set_value(text);
                    }
                }
                if *elided != hidden {
                    elided.set(hidden);
                }
            }
        });
    }
    let on_input = props.on_input.clone();
    let oninput = Callback::from(move |e: InputEvent| {
        let area: HtmlTextAreaElement = e.target_unchecked_into();
        on_input.emit(area.value());
    });
    let placeholder = match *elided {
        Some(bytes) => AttrValue::from(format!(
            "{} loaded: too large to show here, and scored as loaded. Typing or pasting here replaces it.",
            format::megabytes(bytes)
        )),
        None => props.placeholder.clone(),
    };
    html! {
        <>
            <textarea ref={node} data-testid={props.testid.clone()} class="code" rows={props.rows.to_string()}
                      spellcheck="false" aria-label={props.label.clone()} {placeholder}
                      readonly={props.readonly} {oninput} />
            if let Some(bytes) = *elided {
                <p class="muted small" data-testid={format!("{}-elided", props.testid)} data-bytes={bytes.to_string()}>
                    { format!("{} loaded (over {} MiB): not shown in the field above, but scored as loaded. \
                               Typing or pasting in the field replaces it.",
                              format::megabytes(bytes), SHOWN_MAX_BYTES >> 20) }</p>
            }
        </>
    }
}
