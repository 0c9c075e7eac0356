//! A file button: pick one file and read its text.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::file_drop::read_then;
use crate::files as browser;

/// Props of [`FilePicker`].
#[derive(Properties, PartialEq)]
pub struct FilePickerProps {
    /// Its `data-testid`.
    pub testid: AttrValue,
    /// What the button says.
    pub label: AttrValue,
    /// Accepted types (`.json,.jsonl`).
    #[prop_or_default]
    pub accept: AttrValue,
    /// A file was picked: its name and text.
    pub on_file: Callback<(String, String)>,
    /// It could not be read.
    pub on_error: Callback<String>,
    /// Greyed out.
    #[prop_or_default]
    pub disabled: bool,
}

/// A styled file input.
#[function_component(FilePicker)]
pub fn file_picker(props: &FilePickerProps) -> Html {
    let onchange = {
        let on_file = props.on_file.clone();
        let on_error = props.on_error.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Some(file) = browser::first_file(input.files()) {
                read_then(file, on_file.clone(), on_error.clone());
            }
            // Let the same file be picked again after an edit.
            input.set_value("");
        })
    };
    html! {
        <label class={classes!("file-button", props.disabled.then_some("disabled"))}>
            <input type="file" accept={props.accept.clone()} data-testid={props.testid.clone()}
                   disabled={props.disabled} {onchange} />
            <span>{ props.label.clone() }</span>
        </label>
    }
}
