//! The dataset editor (`editor-panel`): a dataset written in the page from the PDF's
//! own captions and headings. The logic is `figeval_document::editor` (the draft, its check
//! through `Dataset::parse`, the warnings, export and import) and `draft.rs` (the reducer);
//! this file lays it out and does the browser's part: `localStorage`, files, the download.
//!
//! Every string from the PDF or a dataset reaches the DOM as text (Yew escapes; inputs get
//! their text as a value).

use figeval::describe::counted;
use figeval::Kind;
use figeval_document::editor::{join_tags, Draft, Field, Problem, PROSE_TAG};
use figeval_document::headings::section_headings;
use figeval_document::{Caption, Label};
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::datasets::{BUNDLED, TEXTS};
use crate::draft::{Action, Edit, Editor, PICKER_PAGES, STORAGE_KEY};
use crate::files;
use crate::state::{Doc, Pdf};
use crate::thumb::Thumb;

/// The editor's state, given to every view as a context (the caption list adds to it).
pub type EditorHandle = UseReducerHandle<Editor>;

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The draft saved in this browser, when there is one.
pub fn saved_draft() -> Option<String> {
    storage()?.get_item(STORAGE_KEY).ok().flatten()
}

/// Saves the draft (silently does nothing when storage is blocked).
fn save(draft: &Draft) {
    if let Some(s) = storage() {
        let _ = s.set_item(STORAGE_KEY, &draft.to_storage());
    }
}

/// A corpus id from a PDF's file name: its stem, with any character other than letters,
/// digits, `.`, `_` and `-` made a `-` (`Octave Manual.pdf` gives `Octave-Manual`).
fn corpus_of_file(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let stem = match base.rsplit_once('.') {
        Some((stem, ext)) if ext.eq_ignore_ascii_case("pdf") && !stem.is_empty() => stem,
        _ => base,
    };
    stem.chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// A file name for the exported dataset: the corpus id's letters, digits, `.`, `_` and `-`.
fn file_name(corpus_id: &str) -> String {
    let stem: String = corpus_id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect();
    let stem = stem.trim_matches(['-', '.']);
    if stem.is_empty() {
        "dataset.json".into()
    } else {
        format!("{stem}.json")
    }
}

/// The caption list's button that makes a caption a locate item of the draft
/// (`add-from-caption`); how many items already name the label is said beside it.
pub fn add_button(editor: &EditorHandle, caption: &Caption) -> Html {
    let onclick = {
        let (editor, c) = (editor.clone(), caption.clone());
        Callback::from(move |_: MouseEvent| editor.dispatch(Action::AddCaption(c.clone())))
    };
    let label = Label::parse(&caption.label);
    let already = editor
        .draft
        .items
        .iter()
        .filter(|i| label.is_some() && Label::parse(&i.figure_ref) == label)
        .count();
    html! {
        <>
            <button type="button" class="small" data-testid="add-from-caption"
                    aria-label={format!("Add to dataset: {} (p.{}), as a locate item", caption.label, caption.page)}
                    {onclick}>{ "Add to dataset" }</button>
            if already > 0 {
                <span class="small muted" data-testid="caption-in-draft">{ format!(" {already} in the draft") }</span>
            }
        </>
    }
}

/// One problem, as a list entry (`editor-warning`).
fn problem(p: &Problem) -> Html {
    let (class, word) = if p.code.is_error() {
        ("miss", "error")
    } else {
        ("warn", "warning")
    };
    html! {
        <li class="editor-problem" data-testid="editor-warning" data-code={p.code.name()}>
            <span class={classes!("badge", class)}>{ word }</span>{ " " }{ p.message.clone() }
        </li>
    }
}

/// The problems of one item and field.
fn problems_of(problems: &[Problem], index: usize) -> Vec<&Problem> {
    problems
        .iter()
        .filter(|p| p.items.contains(&index))
        .collect()
}

/// A callback that dispatches an edit of item `index` read from the event's target element.
fn edit_on<E: TargetCast + 'static, T: AsRef<web_sys::EventTarget> + JsCast + 'static>(
    editor: &EditorHandle,
    index: usize,
    read: fn(T) -> Edit,
) -> Callback<E> {
    let editor = editor.clone();
    Callback::from(move |e: E| {
        editor.dispatch(Action::Edit(index, read(e.target_unchecked_into::<T>())));
    })
}

/// One row of the items table (`editor-item`).
fn item_row(editor: &EditorHandle, doc: &Doc, index: usize, problems: &[Problem]) -> Html {
    let item = &editor.draft.items[index];
    // The row's page as a thumbnail: its first expected page, when the open PDF has it.
    let thumb = match doc.pdf {
        Pdf::Open { pages } => item
            .pages
            .split(|c: char| c == ',' || c.is_whitespace())
            .find_map(|w| w.parse::<u32>().ok())
            .filter(|p| (1..=pages).contains(p)),
        _ => None,
    };
    let n = index + 1;
    let last = editor.draft.items.len() - 1;
    let dispatch = |action: Action| {
        let editor = editor.clone();
        Callback::from(move |_: MouseEvent| editor.dispatch(action.clone()))
    };
    let on_question =
        edit_on::<InputEvent, HtmlTextAreaElement>(editor, index, |t| Edit::Question(t.value()));
    let on_kind = edit_on::<Event, HtmlSelectElement>(editor, index, |s| {
        Edit::Kind(if s.value() == "content" {
            Kind::Content
        } else {
            Kind::Locate
        })
    });
    // Tags are read when the field is left, so a comma being typed is not dropped.
    let on_tags = edit_on::<Event, HtmlInputElement>(editor, index, |i| Edit::Tags(i.value()));
    let on_prose = edit_on::<Event, HtmlInputElement>(editor, index, |i| Edit::Prose(i.checked()));
    let on_pages =
        edit_on::<InputEvent, HtmlInputElement>(editor, index, |i| Edit::Pages(i.value()));
    let on_ref =
        edit_on::<InputEvent, HtmlInputElement>(editor, index, |i| Edit::FigureRef(i.value()));
    let other_tags: Vec<String> = item
        .tags
        .iter()
        .filter(|t| *t != PROSE_TAG)
        .cloned()
        .collect();
    // A row added here shows no problem until it is typed in (its question is empty at first).
    let mine = if editor.is_quiet(index) {
        Vec::new()
    } else {
        problems_of(problems, index)
    };
    let field_invalid = |f: Field| {
        mine.iter()
            .any(|p| p.field == f && p.code.is_error())
            .then_some("true")
    };
    let picking = editor.picking == Some(index);
    let id = |what: &str| format!("editor-{what}-{n}");
    html! {
        <tr data-testid="editor-item" data-index={index.to_string()} class={classes!(picking.then_some("picking"))}>
            <th scope="row" class="num">{ n }</th>
            <td class="editor-question-cell">
                <label class="visually-hidden" for={id("q")}>{ format!("Question of item {n}") }</label>
                <textarea id={id("q")} data-testid="editor-question" rows="2" value={item.question.clone()}
                          placeholder="Write the question a user would ask…"
                          aria-invalid={field_invalid(Field::Question)} oninput={on_question} />
                if !mine.is_empty() {
                    <ul class="editor-problems" aria-label={format!("Problems of item {n}")}>
                        { for mine.iter().map(|p| problem(p)) }
                    </ul>
                }
            </td>
            <td>
                <label class="visually-hidden" for={id("pages")}>{ format!("Expected pages of item {n}") }</label>
                <input id={id("pages")} data-testid="editor-pages" class="editor-pages" value={item.pages.clone()}
                       inputmode="numeric" aria-invalid={field_invalid(Field::Pages)}
                       oninput={on_pages} />
                <button type="button" class="small" data-testid="editor-pick" aria-pressed={picking.to_string()}
                        aria-label={format!("Pick the page of item {n} by its thumbnail")}
                        onclick={dispatch(Action::Pick((!picking).then_some(index)))}>{ "Pick…" }</button>
                if let Some(page) = thumb {
                    <Thumb page={page} generation={doc.generation} why={format!("expected page of item {n}")} />
                }
            </td>
            <td>
                <label class="visually-hidden" for={id("ref")}>{ format!("figure_ref of item {n}") }</label>
                <input id={id("ref")} data-testid="editor-figure-ref" value={item.figure_ref.clone()}
                       placeholder="Figure 15.1" aria-invalid={field_invalid(Field::FigureRef)}
                       oninput={on_ref} />
            </td>
            <td>
                <label class="visually-hidden" for={id("kind")}>{ format!("Kind of item {n}") }</label>
                <select id={id("kind")} data-testid="editor-kind" onchange={on_kind}>
                    <option value="locate" selected={item.kind == Kind::Locate}>{ "locate" }</option>
                    <option value="content" selected={item.kind == Kind::Content}>{ "content" }</option>
                </select>
            </td>
            <td>
                <label class="visually-hidden" for={id("tags")}>{ format!("Tags of item {n}, separated by commas") }</label>
                <input id={id("tags")} data-testid="editor-tags" value={join_tags(&other_tags)}
                       placeholder="plot, figure" onchange={on_tags} />
            </td>
            <td class="center">
                <input type="checkbox" id={id("prose")} data-testid="editor-prose" checked={item.is_prose()}
                       onchange={on_prose} />
                <label class="visually-hidden" for={id("prose")}>{ format!("Item {n} is a prose control item") }</label>
            </td>
            <td class="editor-actions">
                <button type="button" class="small" data-testid="editor-up" disabled={index == 0}
                        aria-label={format!("Move item {n} up")} onclick={dispatch(Action::Move(index, index.saturating_sub(1)))}>{ "↑" }</button>
                <button type="button" class="small" data-testid="editor-down" disabled={index == last}
                        aria-label={format!("Move item {n} down")} onclick={dispatch(Action::Move(index, (index + 1).min(last)))}>{ "↓" }</button>
                <button type="button" class="small" data-testid="editor-delete"
                        aria-label={format!("Delete item {n}")} onclick={dispatch(Action::Remove(index))}>{ "Delete" }</button>
            </td>
        </tr>
    }
}

/// The page picker of the chosen item (`editor-picker`): thumbnails to click, and for the
/// page it is on, the section headings found there.
fn picker(editor: &EditorHandle, doc: &Doc, index: usize) -> Html {
    let n = index + 1;
    let close = {
        let editor = editor.clone();
        Callback::from(move |_: MouseEvent| editor.dispatch(Action::Pick(None)))
    };
    let Pdf::Open { pages } = doc.pdf else {
        return html! {
            <section class="editor-picker" data-testid="editor-picker" aria-label={format!("Page picker of item {n}")}>
                <p>{ format!("Open the PDF (above) to pick the page of item {n} by its thumbnail, or type the page number in its row.") }</p>
                <button type="button" onclick={close}>{ "Close the picker" }</button>
            </section>
        };
    };
    let first = editor.first_page.clamp(1, pages);
    let last = (first + PICKER_PAGES - 1).min(pages);
    let browse = |to: u32| {
        let editor = editor.clone();
        Callback::from(move |_: MouseEvent| editor.dispatch(Action::Browse(to)))
    };
    let on_first = {
        let editor = editor.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Ok(p) = input.value().trim().parse::<u32>() {
                editor.dispatch(Action::Browse(p.clamp(1, pages)));
            }
        })
    };
    let pick = {
        let editor = editor.clone();
        Callback::from(move |page: u32| editor.dispatch(Action::UsePage(page)))
    };
    let item = &editor.draft.items[index];
    let page = item.page_numbers().first().map(|p| p.get());
    let headings = page.and_then(|p| {
        let pages = doc.pages()?;
        let text = pages.texts.get(usize::try_from(p).ok()?.checked_sub(1)?)?;
        Some((p, section_headings(text)))
    });
    html! {
        <section class="editor-picker" data-testid="editor-picker" aria-labelledby="editor-picker-h">
            <h4 id="editor-picker-h">{ format!("The page of item {n}") }</h4>
            <p class="small muted">{ format!("Click a thumbnail to set item {n}'s expected page (a physical page of the PDF, 1 to {pages}).") }</p>
            <div class="row wrap">
                <button type="button" data-testid="editor-picker-prev" disabled={first == 1}
                        onclick={browse(first.saturating_sub(PICKER_PAGES).max(1))}>{ "← Earlier pages" }</button>
                <label>{ "From page " }
                    <input type="number" min="1" max={pages.to_string()} class="editor-from" data-testid="editor-picker-from"
                           value={first.to_string()} onchange={on_first} />
                </label>
                <button type="button" data-testid="editor-picker-next" disabled={last == pages}
                        onclick={browse((first + PICKER_PAGES).min(pages))}>{ "Later pages →" }</button>
                <button type="button" onclick={close}>{ "Close the picker" }</button>
            </div>
            <div class="editor-thumbs">
                { for (first..=last).map(|p| html! {
                    <Thumb page={p} generation={doc.generation} why={format!("pick for item {n}")} onclick={pick.clone()} />
                }) }
            </div>
            if let Some((p, headings)) = headings {
                <div data-testid="editor-headings">
                    <h5>{ format!("Section headings on p.{p}") }</h5>
                    if headings.is_empty() {
                        <p class="small muted">{ "No numbered section heading is found on this page: a prose item needs one (its figure_ref names the section)." }</p>
                    } else {
                        <ul class="editor-heading-list">
                            { for headings.into_iter().map(|h| {
                                let editor = editor.clone();
                                let text = h.clone();
                                let onclick = Callback::from(move |_: MouseEvent| editor.dispatch(Action::UseHeading(h.clone())));
                                html! {
                                    <li><button type="button" data-testid="editor-heading" data-heading={text.clone()} {onclick}>
                                        { format!("Use “{text}” for item {n}") }
                                    </button></li>
                                }
                            }) }
                        </ul>
                    }
                </div>
            }
        </section>
    }
}

/// The editor panel.
#[function_component(EditorPanel)]
pub fn editor_panel() -> Html {
    let doc = use_context::<Doc>().expect("the module provides Doc");
    let editor = use_context::<EditorHandle>().expect("the module provides the editor");
    {
        let draft = editor.draft.clone();
        use_effect_with(draft, save);
    }
    let captions = doc.pages().cloned();
    let problems = use_memo((editor.draft.clone(), captions), |(draft, pages)| {
        draft.check(pages.as_ref().map_or(&[][..], |p| &p.captions[..]))
    });
    let errors = problems.iter().filter(|p| p.code.is_error()).count();
    // What is shown: the problems of rows typed in, and the draft's own once it shows them.
    let shown = |p: &&Problem| {
        if p.items.is_empty() {
            editor.shows_corpus()
        } else {
            p.items.iter().any(|&i| !editor.is_quiet(i))
        }
    };
    let shown_errors = problems
        .iter()
        .filter(|p| p.code.is_error())
        .filter(shown)
        .count();
    let warnings = problems
        .iter()
        .filter(|p| !p.code.is_error())
        .filter(shown)
        .count();
    let new_items = (0..editor.draft.items.len())
        .filter(|&i| editor.is_quiet(i))
        .count();
    // A corpus id nobody gave yet starts filled in: the open report's or dataset's corpus,
    // else the open PDF's name.
    let suggested = match &doc.dataset {
        crate::state::DatasetIn::Valid(d) => Some(d.corpus_id.clone()),
        _ => None,
    }
    .or_else(|| match doc.pdf {
        Pdf::Open { .. } => doc.read.last().map(|(name, _)| corpus_of_file(name)),
        _ => None,
    })
    .filter(|c| !c.trim().is_empty());
    {
        let editor = editor.clone();
        use_effect_with(suggested, move |s| {
            if let Some(s) = s {
                if editor.draft.corpus_id.trim().is_empty() {
                    editor.dispatch(Action::SuggestCorpus(s.clone()));
                }
            }
        });
    }
    let on_corpus = {
        let editor = editor.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            editor.dispatch(Action::Corpus(input.value()));
        })
    };
    let on_new = {
        let editor = editor.clone();
        Callback::from(move |_: MouseEvent| {
            let corpus = editor.draft.corpus_id.clone();
            editor.dispatch(Action::New(corpus));
        })
    };
    let on_import = {
        let editor = editor.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let Some(file) = files::first_file(input.files()) else {
                return;
            };
            input.set_value("");
            let editor = editor.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let name = file.name();
                let action = match files::read_file(&file).await {
                    Err(why) => Action::Refused(why),
                    Ok(text) => match Draft::import(&text) {
                        Ok(d) => {
                            let n = counted(d.items.len(), "item", "items");
                            Action::Open(d, format!("{name} opened: {n}."))
                        }
                        Err(errors) => {
                            Action::Refused(format!("{name} cannot be opened: {errors}"))
                        }
                    },
                };
                editor.dispatch(action);
            });
        })
    };
    let open = |text: &'static str, what: String| {
        let editor = editor.clone();
        Callback::from(move |_: MouseEvent| {
            editor.dispatch(match Draft::import(text) {
                Ok(d) => {
                    let n = counted(d.items.len(), "item", "items");
                    Action::Open(d, format!("{what} opened: {n}."))
                }
                Err(errors) => Action::Refused(errors.to_string()),
            })
        })
    };
    let loaded = match &doc.dataset {
        crate::state::DatasetIn::Valid(d) => Some(d.clone()),
        _ => None,
    };
    let on_loaded = loaded.as_ref().map(|d| {
        let (editor, d) = (editor.clone(), d.clone());
        Callback::from(move |_: MouseEvent| {
            let draft = Draft::from_dataset(&d);
            let notice = format!(
                "The loaded dataset ({:?}, {}) opened in the editor.",
                d.corpus_id,
                counted(d.items.len(), "item", "items")
            );
            editor.dispatch(Action::Open(draft, notice));
        })
    });
    let on_export = {
        let editor = editor.clone();
        Callback::from(move |_: MouseEvent| match editor.draft.export() {
            Ok(text) => files::download(
                &file_name(&editor.draft.corpus_id),
                "application/json",
                &text,
            ),
            Err(errors) => editor.dispatch(Action::Refused(errors.to_string())),
        })
    };
    let add = |action: Action| {
        let editor = editor.clone();
        Callback::from(move |_: MouseEvent| editor.dispatch(action.clone()))
    };
    let general: Vec<&Problem> = problems
        .iter()
        .filter(|p| p.items.is_empty() && editor.shows_corpus())
        .collect();
    let mut summary = format!(
        "{} · {} · {}",
        counted(editor.draft.items.len(), "item", "items"),
        counted(shown_errors, "error", "errors"),
        counted(warnings, "warning", "warnings"),
    );
    if new_items > 0 {
        summary.push_str(&format!(
            " · {} to write",
            counted(new_items, "new item", "new items")
        ));
    }
    if errors > 0 {
        summary.push_str(if shown_errors > 0 {
            ": fix the errors to export"
        } else {
            ": write the new items to export"
        });
    }
    let caption_note = match (&doc.pdf, doc.pages().is_some()) {
        (_, true) => "The caption warnings compare each question with its caption in the open PDF.",
        (Pdf::Open { .. }, false) => {
            "The PDF is open: once its captions are read (the caption list), they are offered here and questions are checked against them."
        }
        _ => "Open the PDF (above) to add items from its captions and to check questions against them.",
    };
    html! {
        <section class="card doc-card editor" data-testid="editor-panel" aria-labelledby="editor-h">
            <h3 id="editor-h">{ "Dataset editor" }</h3>
            <p class="muted small">
                { "Write a dataset for this PDF: add locate items from the caption list (its " }
                <strong>{ "Add to dataset" }</strong>
                { " buttons), content and prose items here, pick each page by its thumbnail. The rules are checked as you type, in figeval validate's words; the draft is saved in this browser as you go. " }
                { caption_note }
            </p>
            <div class="row wrap editor-open">
                <label for="editor-corpus">{ "corpus_id" }</label>
                <input id="editor-corpus" data-testid="editor-corpus" value={editor.draft.corpus_id.clone()}
                       oninput={on_corpus}
                       aria-invalid={general.iter().any(|p| p.field == Field::CorpusId).then_some("true")} />
                <button type="button" data-testid="editor-new" onclick={on_new}>{ "New dataset" }</button>
                <label class="file-button">
                    <input type="file" accept=".json,application/json" data-testid="editor-import" onchange={on_import} />
                    <span>{ "Import a dataset…" }</span>
                </label>
                { for BUNDLED.iter().zip(TEXTS).map(|(b, text)| html! {
                    <button type="button" data-testid="editor-open-bundled" data-dataset={b.id}
                            onclick={open(text, format!("{} ({})", b.title, b.file))}>{ format!("Open {}", b.title) }</button>
                }) }
                if let Some(onclick) = on_loaded {
                    <button type="button" data-testid="editor-open-loaded" {onclick}>{ "Edit the loaded dataset" }</button>
                }
            </div>
            <p role="status" class="small" data-testid="editor-notice">{ editor.notice.clone() }</p>
            <p data-testid="editor-summary" data-errors={shown_errors.to_string()} data-all-errors={errors.to_string()}
               data-warnings={warnings.to_string()} data-new={new_items.to_string()}>{ summary }</p>
            if !general.is_empty() {
                <ul class="editor-problems" aria-label="Problems of the dataset">{ for general.iter().map(|p| problem(p)) }</ul>
            }
            if !editor.draft.items.is_empty() {
                <div class="table-wrap" tabindex="0" role="group" aria-label="draft items">
                    <table class="editor-table">
                        <thead><tr>
                            <th scope="col" class="num">{ "#" }</th>
                            <th scope="col">{ "question" }</th>
                            <th scope="col">{ "expected_pages" }</th>
                            <th scope="col">{ "figure_ref" }</th>
                            <th scope="col">{ "kind" }</th>
                            <th scope="col">{ "tags" }</th>
                            <th scope="col">{ "prose" }</th>
                            <th scope="col">{ "move, delete" }</th>
                        </tr></thead>
                        <tbody>{ for (0..editor.draft.items.len()).map(|i| item_row(&editor, &doc, i, &problems)) }</tbody>
                    </table>
                </div>
            }
            <div class="row wrap">
                <button type="button" data-testid="editor-add-item" onclick={add(Action::AddItem)}>{ "Add an item" }</button>
                <button type="button" data-testid="editor-add-prose" onclick={add(Action::AddProse)}>{ "Add a prose item" }</button>
            </div>
            if let Some(i) = editor.picking.filter(|&i| i < editor.draft.items.len()) {
                { picker(&editor, &doc, i) }
            }
            <div class="row wrap">
                <button type="button" data-testid="export-dataset" disabled={errors > 0} onclick={on_export}
                        aria-describedby="editor-export-note">{ "Export the dataset (JSON)" }</button>
                <span id="editor-export-note" class="small muted">
                    { format!("Downloads {}, which figeval validate accepts; then figeval ground --pdf checks its pages.", file_name(&editor.draft.corpus_id)) }
                </span>
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pdfs_name_gives_a_corpus_id() {
        assert_eq!(corpus_of_file("octave.pdf"), "octave");
        assert_eq!(corpus_of_file("scans/Octave Manual.PDF"), "Octave-Manual");
        assert_eq!(corpus_of_file("notes.v2"), "notes.v2");
    }

    #[test]
    fn the_export_file_is_named_for_the_corpus() {
        assert_eq!(file_name("octave-manual"), "octave-manual.json");
        assert_eq!(file_name("My corpus/v2"), "My-corpus-v2.json");
        assert_eq!(file_name(" ../ "), "dataset.json");
        assert_eq!(file_name(""), "dataset.json");
    }
}
