//! The per-item list, filterable by group, hit/miss on a metric and text, sortable by the rank
//! of the first hit, shown a page of rows at a time
//! ([`PAGE_SIZE`]): a 10,000-item report renders 50 rows, so it opens and filters quickly
//! (100 rows a page took up to 170 ms a filter change in headless Chromium on 2 busy cores;
//! 50 stay under 100 ms).

use std::collections::HashSet;
use std::rc::Rc;

use figeval::{Group, Metric, Report};
use web_sys::{Element, HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::components::group_table::metric_label;
use crate::components::item_row::item_row;
use crate::filter::{Filter, ListPage, Order, Outcome, PAGE_SIZE};
use crate::format;
use crate::said::Said;
use crate::shared::Shared;

/// Props of [`ItemsList`].
#[derive(Properties, PartialEq)]
pub struct ItemsListProps {
    /// The report.
    pub report: Shared<Report>,
    /// What its matches said, when the responses were read in this page.
    pub said: Option<Said>,
}

/// Filters and the filtered rows.
#[function_component(ItemsList)]
pub fn items_list(props: &ItemsListProps) -> Html {
    let filter = use_state(Filter::default);
    let page = use_state(|| 0usize);
    let top = use_node_ref();
    // The questions whose ranked window is open.
    let open = use_state(|| Rc::new(HashSet::<String>::new()));
    let r = &props.report;
    // A menu's change sets one part of the filter and goes back to the first page.
    let on_select = |set: fn(&mut Filter, &str)| {
        let filter = filter.clone();
        let page = page.clone();
        Callback::from(move |e: Event| {
            page.set(0);
            let select: HtmlSelectElement = e.target_unchecked_into();
            let mut f = (*filter).clone();
            set(&mut f, &select.value());
            filter.set(f);
        })
    };
    let on_group = on_select(|f, v| f.group = Group::from_name(v));
    let on_outcome = on_select(|f, v| f.outcome = Outcome::from_name(v));
    let on_metric = on_select(|f, v| f.metric = Metric::from_name(v).unwrap_or(Metric::PageHitAt3));
    let on_order = on_select(|f, v| f.order = Order::from_name(v));
    let on_text = {
        let filter = filter.clone();
        let page = page.clone();
        Callback::from(move |e: InputEvent| {
            page.set(0);
            let input: HtmlInputElement = e.target_unchecked_into();
            let mut f = (*filter).clone();
            f.text = input.value();
            filter.set(f);
        })
    };
    // Filtered once per report and filter, not again when only the page changes.
    let shown = use_memo((r.clone(), (*filter).clone()), |(r, f)| {
        f.apply(&r.per_item)
    });
    let total = r.per_item.len();
    let at = ListPage::new(shown.len(), *page, PAGE_SIZE);
    let go = |to: usize, scroll: bool| {
        let page = page.clone();
        let top = top.clone();
        Callback::from(move |_: MouseEvent| {
            page.set(to);
            if scroll {
                if let Some(el) = top.cast::<Element>() {
                    el.scroll_into_view();
                }
            }
        })
    };
    // Previous / next, above the rows and (scrolling back up) below them.
    let pager = |bottom: bool| {
        let id = |name: &str| {
            if bottom {
                format!("{name}-bottom")
            } else {
                name.to_string()
            }
        };
        html! {
            <div class="row wrap pager">
                <button type="button" data-testid={id("items-previous")} disabled={!at.has_previous()}
                        onclick={go(at.page.saturating_sub(1), bottom)}>{ "‹ Previous" }</button>
                <span class="muted small">{ format!("page {} of {}", format::count(at.page + 1), format::count(at.pages)) }</span>
                <button type="button" data-testid={id("items-next")} disabled={!at.has_next()}
                        onclick={go(at.page + 1, bottom)}>{ "Next ›" }</button>
            </div>
        }
    };
    html! {
        <section class="card items" aria-labelledby="items-h" ref={top.clone()}>
            <div class="items-head">
                <h2 id="items-h">{ "Items" }</h2>
                <div class="row wrap filters">
                    <select data-testid="filter-group" aria-label="Group" onchange={on_group}>
                        <option value="" selected={filter.group.is_none()}>{ "all groups" }</option>
                        { for r.groups().map(|(g, _)| html! {
                            <option value={g.name()} selected={filter.group == Some(g)}>{ g.name() }</option>
                        }) }
                    </select>
                    <select data-testid="filter-outcome" aria-label="Hit or miss" onchange={on_outcome}>
                        { for Outcome::ALL.iter().map(|o| html! {
                            <option value={o.name()} selected={filter.outcome == *o}>{ o.label() }</option>
                        }) }
                    </select>
                    <select data-testid="filter-metric" aria-label="Hit or miss on" onchange={on_metric}>
                        { for Metric::ALL.iter().map(|m| html! {
                            <option value={m.name()} selected={filter.metric == *m}>{ format!("on {}", metric_label(*m)) }</option>
                        }) }
                    </select>
                    <select data-testid="items-order" aria-label="Order" onchange={on_order}>
                        { for Order::ALL.iter().map(|o| html! {
                            <option value={o.name()} selected={filter.order == *o}>{ o.label() }</option>
                        }) }
                    </select>
                    <input type="search" data-testid="filter-text" placeholder="Find in questions, figures, tags"
                           aria-label="Find" value={filter.text.clone()} oninput={on_text} />
                    <span class="muted small" role="status" data-testid="items-count" data-matching={at.matching.to_string()}
                          data-total={total.to_string()} data-from={(at.start + usize::from(at.end > at.start)).to_string()}
                          data-to={at.end.to_string()}>
                        { at.label(total) }</span>
                </div>
            </div>
            <p class="muted small">{ "Open an item to see its ranked window." }</p>
            if at.pages > 1 { { pager(false) } }
            <ol class="item-list" start={(at.start + 1).to_string()}>
                { for shown[at.start..at.end].iter().map(|&i| {
                    let question = &r.per_item[i].question;
                    let toggle = {
                        let open = open.clone();
                        let question = question.clone();
                        Callback::from(move |_: MouseEvent| {
                            let mut set = (**open).clone();
                            if !set.remove(&question) {
                                set.insert(question.clone());
                            }
                            open.set(Rc::new(set));
                        })
                    };
                    item_row(r, &props.said, i, open.contains(question), toggle)
                }) }
            </ol>
            if at.pages > 1 { { pager(true) } }
            if shown.is_empty() {
                <p class="muted">{ "No item matches the filter." }</p>
            }
        </section>
    }
}
