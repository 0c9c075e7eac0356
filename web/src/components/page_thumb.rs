//! A page's thumbnail (`page-thumb`, with `data-page`). A plain function, not a component: the
//! app lays out the button and its `<img data-thumb>`, hidden until a PDF is open; the PDF
//! viewer (`web/pdfview.mjs`, loaded when one is opened) draws the page into it when it comes on
//! screen, marks a page past the document's end, adds the printed label to the text
//! alternative, and opens the page view on a click.

use yew::prelude::*;

/// The thumbnail of `page` (and `more` pages after it in the span); `why` says why it is shown
/// ("cited at rank 2").
#[inline(never)]
pub fn page_thumb(page: u32, more: u32, expected: bool, why: &str) -> Html {
    let span = if more > 0 { format!(" and {more} more") } else { String::new() };
    let alt = format!(
        "page {page}{span}, {why}{}",
        if expected { ", an expected page" } else { "" }
    );
    let more = if more > 0 { format!(" +{more}") } else { String::new() };
    html! {
        <button type="button" class={classes!("page-thumb", expected.then_some("expected"))}
                data-testid="page-thumb" data-page={page.to_string()} title={format!("Open {alt}")}>
            <img data-thumb={page.to_string()} alt={alt} width="84" height="109" />
            <span class="thumb-cap">{ format!("p.{page}{more}") }</span>
        </button>
    }
}

/// The window row's cell: the thumbnail of the first cited page, with the span's other pages
/// as "+N" (empty for a match that cites no page). Hidden until a PDF is open.
#[inline(never)]
pub fn thumb_cell(start: Option<u32>, end: Option<u32>, expected: &[u32], rank: u32) -> Html {
    let thumb = match (start, end) {
        (Some(s), Some(e)) => page_thumb(
            s,
            e.saturating_sub(s),
            expected.contains(&s),
            &format!("cited at rank {rank}"),
        ),
        _ => Html::default(),
    };
    html! { <td class="needs-pdf">{ thumb }</td> }
}
