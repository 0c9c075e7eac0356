//! Rendering a module's Yew app inside the app's own (`#work-app`, `#runs-app`, `#runs-more`).
//!
//! Yew handles events at each app's root, in the capture phase, and tells whose element an
//! event hit by a number every app writes on its elements (`__yew_subtree_id`): the deepest
//! app whose number it is handles it. Each WebAssembly module has its own copy of Yew, whose
//! numbers start at 1: the app's root (web/src, one root and no portal) is 1, and so would be
//! a module's first root. The app would then take a click inside the module for its own and
//! run whatever handler of its own has the clicked element's listener number (a checkbox of
//! the workbench showed the Compare view). So a module burns its number 1 on a root it drops
//! at once, before it renders into the app.

use std::cell::Cell;

use web_sys::Element;
use yew::prelude::*;
use yew::AppHandle;

#[function_component(Nothing)]
fn nothing() -> Html {
    Html::default()
}

thread_local! {
    /// Whether this module's Yew number 1 was burnt.
    static BURNT: Cell<bool> = const { Cell::new(false) };
}

/// Renders `C` into `root`, an element of the app's, with numbers the app's Yew never uses.
pub fn render<C: BaseComponent<Properties = ()>>(root: Element) -> AppHandle<C> {
    if !BURNT.replace(true) {
        if let Some(scratch) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.create_element("div").ok())
        {
            yew::Renderer::<Nothing>::with_root(scratch)
                .render()
                .destroy();
        }
    }
    yew::Renderer::<C>::with_root(root).render()
}

/// Renders `C` into the app's element with `id` once, into `slot`: a module's `update` calls it
/// each time boot.js hands it a word, and nothing happens while the element is missing.
pub fn mount_once<C: BaseComponent<Properties = ()>>(
    id: &str,
    slot: &std::cell::RefCell<Option<AppHandle<C>>>,
) {
    let mut slot = slot.borrow_mut();
    if slot.is_none() {
        let root = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(id));
        if let Some(root) = root {
            *slot = Some(render(root));
        }
    }
}
