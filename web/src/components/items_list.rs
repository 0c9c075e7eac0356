//! The per-item list, filterable by group, hit/miss and text.

use figeval::{Group, Report};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::components::item_row::ItemRow;
use crate::filter::{Filter, Outcome};
use crate::shared::Shared;

/// Props of [`ItemsList`].
#[derive(Properties, PartialEq)]
pub struct ItemsListProps {
    /// The report.
    pub report: Shared<Report>,
}

/// Filters and the filtered rows.
#[function_component(ItemsList)]
pub fn items_list(props: &ItemsListProps) -> Html {
    let filter = use_state(Filter::default);
    let r = &props.report;
    let on_group = {
        let filter = filter.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            let mut f = (*filter).clone();
            f.group = Group::from_name(&select.value());
            filter.set(f);
        })
    };
    let on_outcome = {
        let filter = filter.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            let mut f = (*filter).clone();
            f.outcome = Outcome::from_name(&select.value());
            filter.set(f);
        })
    };
    let on_text = {
        let filter = filter.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let mut f = (*filter).clone();
            f.text = input.value();
            filter.set(f);
        })
    };
    let shown = filter.apply(&r.per_item);
    let total = r.per_item.len();
    html! {
        <section class="card items" aria-labelledby="items-h">
            <div class="items-head">
                <h2 id="items-h">{ "Items" }</h2>
                <div class="row wrap filters">
                    <select data-testid="filter-group" aria-label="Group" onchange={on_group}>
                        <option value="" selected={filter.group.is_none()}>{ "all groups" }</option>
                        { for r.groups().map(|(g, _)| html! {
                            <option value={g.name()} selected={filter.group == Some(g)}>{ g.name() }</option>
                        }) }
                    </select>
                    <select data-testid="filter-outcome" aria-label="Hit or miss at 3" onchange={on_outcome}>
                        { for Outcome::ALL.iter().map(|o| html! {
                            <option value={o.name()} selected={filter.outcome == *o}>{ o.label() }</option>
                        }) }
                    </select>
                    <input type="search" data-testid="filter-text" placeholder="Find in questions, figures, tags"
                           aria-label="Find" value={filter.text.clone()} oninput={on_text} />
                    <span class="muted small" data-testid="items-count">
                        { format!("showing {} of {total}", shown.len()) }</span>
                </div>
            </div>
            <p class="muted small">{ "Hit and miss are on page_hit_at_3. Open an item to see its ranked window." }</p>
            <ol class="item-list">
                { for shown.iter().map(|&i| html! {
                    <ItemRow key={r.per_item[i].question.clone()} report={r.clone()} index={i} />
                }) }
            </ol>
            if shown.is_empty() {
                <p class="muted">{ "No item matches the filter." }</p>
            }
        </section>
    }
}
