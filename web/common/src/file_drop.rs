//! A drop target for one file (drag and drop), wrapping other controls.

use web_sys::{DragEvent, File};
use yew::prelude::*;

use crate::files as browser;

/// Reads `file` in the background and hands its name and text to `on_file`.
pub fn read_then(file: File, on_file: Callback<(String, String)>, on_error: Callback<String>) {
    wasm_bindgen_futures::spawn_local(async move {
        match browser::read_file(&file).await {
            Ok(text) => on_file.emit((file.name(), text)),
            Err(e) => on_error.emit(e),
        }
    });
}

/// Props of [`FileDrop`].
#[derive(Properties, PartialEq)]
pub struct FileDropProps {
    /// A file was dropped: its name and text.
    pub on_file: Callback<(String, String)>,
    /// It could not be read.
    pub on_error: Callback<String>,
    /// Refuse drops.
    #[prop_or_default]
    pub disabled: bool,
    /// What the drop target holds.
    pub children: Html,
}

/// Highlights while a file is dragged over it; reads the dropped file.
#[function_component(FileDrop)]
pub fn file_drop(props: &FileDropProps) -> Html {
    let over = use_state(|| false);
    let disabled = props.disabled;
    let ondragover = {
        let over = over.clone();
        Callback::from(move |e: DragEvent| {
            if !disabled {
                e.prevent_default();
                over.set(true);
            }
        })
    };
    let ondragleave = {
        let over = over.clone();
        Callback::from(move |_: DragEvent| over.set(false))
    };
    let ondrop = {
        let over = over.clone();
        let on_file = props.on_file.clone();
        let on_error = props.on_error.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            over.set(false);
            if disabled {
                return;
            }
            let file = e
                .data_transfer()
                .and_then(|d| browser::first_file(d.files()));
            if let Some(file) = file {
                read_then(file, on_file.clone(), on_error.clone());
            }
        })
    };
    html! {
        <div class={classes!("drop", over.then_some("over"))} {ondragover} {ondragleave} {ondrop}>
            { props.children.clone() }
        </div>
    }
}
