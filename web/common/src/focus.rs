//! Keyboard focus, moved when the page changes under it (the app's views and banner, the
//! workbench's run buttons).

use wasm_bindgen::JsCast;

fn document() -> web_sys::Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("the page has a document")
}

/// Whether the focused element matches `selector` (also when nothing has focus).
pub fn focused_is(selector: &str) -> bool {
    document()
        .active_element()
        .is_none_or(|el| el.matches(selector).unwrap_or(false))
}

/// Moves keyboard focus to the element with `selector` (a heading, the banner), letting
/// script focus it first when it is not focusable. Screen readers then read it. Whether there
/// was such an element.
pub fn focus(selector: &str) -> bool {
    let Some(el) = document().query_selector(selector).ok().flatten() else {
        return false;
    };
    if !el.has_attribute("tabindex") {
        let _ = el.set_attribute("tabindex", "-1");
    }
    let _ = el.unchecked_into::<web_sys::HtmlElement>().focus();
    true
}
