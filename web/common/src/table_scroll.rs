//! The one wrapper for a table that may scroll sideways: on a narrow screen a wide table
//! scrolls inside it, so it must take keyboard focus (arrow keys then scroll it) and carry a
//! name (WCAG 2.1.1; axe's `scrollable-region-focusable`). Every table of the app sits in one.
//!
//! A plain function, not a component: it has no state, and ranked windows are many.

use yew::prelude::*;

/// `table` in a focusable, named box that scrolls sideways; `label` is what a screen reader
/// calls it ("per-group rates", "ranked window").
///
/// `role="group"`, not `region`: a report with many items open would otherwise fill the
/// landmark list with one landmark per ranked window.
pub fn table_scroll(label: impl Into<AttrValue>, table: Html) -> Html {
    html! {
        <div class="table-wrap" tabindex="0" role="group" aria-label={label.into()}>{ table }</div>
    }
}
