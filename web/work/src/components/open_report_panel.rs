//! Opening a saved report file (`report-input`).

use yew::prelude::*;

use crate::bridge;
use crate::components::file_drop::FileDrop;
use crate::components::file_picker::FilePicker;
use crate::state::{Action, WorkState};

/// Props of [`OpenReportPanel`].
#[derive(Properties, PartialEq)]
pub struct OpenReportPanelProps {
    /// Where actions go.
    pub dispatch: UseReducerDispatcher<WorkState>,
}

/// The "open a report" card.
#[function_component(OpenReportPanel)]
pub fn open_report_panel(props: &OpenReportPanelProps) -> Html {
    // The app reads the report (or refuses it with its banner) and shows it.
    let on_file =
        Callback::from(move |(name, text): (String, String)| bridge::open_report(&name, &text));
    let d = props.dispatch.clone();
    let on_error = Callback::from(move |detail: String| {
        d.dispatch(Action::Error {
            title: "The report could not be read".into(),
            detail,
        })
    });
    html! {
        <section class="card" aria-labelledby="open-h">
            <h2 id="open-h">{ "Open a report" }</h2>
            <FileDrop on_file={on_file.clone()} on_error={on_error.clone()}>
                <div class="drop-hint">
                    <FilePicker testid="report-input" label="Open a report file…" accept=".json,application/json"
                                {on_file} {on_error} />
                    <span class="muted small">{ " or drop a report JSON here (from figeval run/score or this page)" }</span>
                </div>
            </FileDrop>
        </section>
    }
}
