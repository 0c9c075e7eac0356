//! A small SVG bar chart: per group, the headline and the two metrics that explain it, each
//! bar with a whisker over its 95% interval (`Summary::ci`, the report's `<metric>_ci`). The
//! chart is an image whose text alternative reads every bar's number and interval as the
//! table's cells are read; the table shows the same intervals as text.
//!
//! It is drawn for the width of its card, measured (and again when the window is resized),
//! one SVG unit to a CSS pixel: the bars take the width, and the text keeps its size at any
//! width. Below [`NARROW`] pixels a group's name goes above its bars instead of beside them.

use figeval::stats::Interval;
use figeval::{Metric, Report, Scope};
use yew::prelude::*;

use crate::components::group_table::{metric_label, spoken_rate};
use crate::format;
use crate::shared::Shared;

/// Whether the chart draws a metric: the top-3 metrics, which explain each other; the wider
/// window is in the table.
fn charted(m: Metric) -> bool {
    match m {
        Metric::PageHitAt3 | Metric::PrecisePageHitAt3 | Metric::FigureChunkAt3 => true,
        Metric::PageHitAt5 => false,
    }
}

/// The chart's text alternative: every bar's number, read as the table's cells are ("Rates
/// by group: page hit at 3, content: 0.5833, 7 of 12, 95% CI 0.32 to 0.81; …").
fn described(metrics: &[Metric], scopes: &[(Scope, &figeval::Summary)]) -> String {
    let mut text = String::from("Rates by group:");
    for (scope, s) in scopes {
        for &m in metrics {
            text.push(' ');
            text.push_str(&spoken_rate(m, scope.name(), s));
            text.push(';');
        }
    }
    text
}

const BAR_H: f64 = 12.0;
const GAP: f64 = 3.0;
const GROUP_GAP: f64 = 14.0;

/// The width, in CSS pixels, below which group names go above their bars.
pub const NARROW: f64 = 480.0;
/// The width drawn before the card is measured.
const UNMEASURED: f64 = 546.0;
/// The narrowest drawing: below it the chart scrolls with its card.
const NARROWEST: f64 = 280.0;

/// Where things go in a chart drawn `width` pixels wide.
#[derive(Clone, Copy)]
struct Layout {
    width: f64,
    /// The group names' column (0 when they go above the bars).
    label_w: f64,
    /// A bar's full length (a rate of 1).
    bar_w: f64,
    /// The height of a group name's own line above its bars (0 beside them).
    name_h: f64,
}

impl Layout {
    fn new(width: f64) -> Layout {
        let width = width.max(NARROWEST).floor();
        let (label_w, name_h) = if width < NARROW {
            (0.0, 16.0)
        } else {
            (130.0, 0.0)
        };
        // The values' column: "0.6154" and a margin.
        let bar_w = width - label_w - 52.0;
        Layout {
            width,
            label_w,
            bar_w,
            name_h,
        }
    }
}

/// A bar's whisker over its 95% interval, `y` the bar's top edge: a line from `lo` to `hi`
/// with end caps, in ink on a halo of the card's white.
fn whisker(l: Layout, m: Metric, y: f64, ci: Interval) -> Html {
    let x = |v: f64| format::fixed(l.label_w + v * l.bar_w, 2);
    let (lo, hi) = (x(ci.lo), x(ci.hi));
    let mid = format::shortest(y + BAR_H / 2.0);
    let (top, bottom) = (format::shortest(y + 2.0), format::shortest(y + BAR_H - 2.0));
    let d = format!("M{lo} {mid}H{hi}M{lo} {top}V{bottom}M{hi} {top}V{bottom}");
    html! {
        <g class="whisker" data-testid="whisker" data-metric={m.name()} data-ci={figeval::render::interval_data(ci)}>
            <path class="halo" d={d.clone()} />
            <path {d} />
        </g>
    }
}

/// Props of [`BarChart`].
#[derive(Properties, PartialEq)]
pub struct BarChartProps {
    /// The report.
    pub report: Shared<Report>,
}

/// The chart.
#[function_component(BarChart)]
pub fn bar_chart(props: &BarChartProps) -> Html {
    let figure = use_node_ref();
    let measured = use_state(|| None::<f64>);
    {
        let (figure, measured) = (figure.clone(), measured.clone());
        use_effect_with((), move |_| {
            let measure = move || {
                if let Some(el) = figure.cast::<web_sys::Element>() {
                    let width = f64::from(el.client_width());
                    if width > 0.0 && *measured != Some(width) {
                        measured.set(Some(width));
                    }
                }
            };
            measure();
            let window = web_sys::window().expect("the app runs in a window");
            let listener = gloo_events::EventListener::new(&window, "resize", move |_| measure());
            move || drop(listener)
        });
    }
    let l = Layout::new(measured.unwrap_or(UNMEASURED));
    let r = &props.report;
    let metrics: Vec<Metric> = Metric::ALL.into_iter().filter(|&m| charted(m)).collect();
    let mut scopes: Vec<(Scope, &figeval::Summary)> =
        r.groups().map(|(g, s)| (Scope::Group(g), s)).collect();
    scopes.push((Scope::Overall, &r.summary));
    let block = l.name_h + metrics.len() as f64 * (BAR_H + GAP) + GROUP_GAP;
    let legend_h = 22.0;
    let height = legend_h + block * scopes.len() as f64;
    let width = l.width;
    let step = ((width - l.label_w) / metrics.len() as f64).min(130.0);
    let legend = metrics.iter().enumerate().map(|(i, &m)| {
        let x = l.label_w + i as f64 * step;
        html! {
            <g>
                <rect class={format!("bar m{i}")} x={format::shortest(x)} y="4" width="12" height="12" rx="2" />
                <text class="legend" x={format::shortest(x + 17.0)} y="14">{ metric_label(m) }</text>
            </g>
        }
    });
    let groups = scopes.iter().enumerate().map(|(gi, &(scope, s))| {
        let name = scope.name();
        let y0 = legend_h + gi as f64 * block;
        let bars = metrics.iter().enumerate().map(|(i, &m)| {
            let y = y0 + l.name_h + i as f64 * (BAR_H + GAP);
            let rate = s.rate(m);
            let w = (rate * l.bar_w).max(if rate > 0.0 { 1.5 } else { 0.0 });
            html! {
                <g>
                    <rect class="track" x={format::shortest(l.label_w)} y={format::shortest(y)} width={format::shortest(l.bar_w)}
                          height={format::shortest(BAR_H)} rx="2" />
                    <rect class={format!("bar m{i}")} x={format::shortest(l.label_w)} y={format::shortest(y)}
                          width={format::fixed(w, 2)} height={format::shortest(BAR_H)} rx="2" />
                    { for s.ci(m).map(|ci| whisker(l, m, y, ci)) }
                    <text class="value" x={format::shortest(l.label_w + l.bar_w + 6.0)} y={format::shortest(y + BAR_H - 2.0)}>
                        { format::rate(rate) }</text>
                </g>
            }
        });
        // Beside the bars, the name is centred on them; above them, it sits on its own line.
        let mid = if l.name_h > 0.0 {
            y0 + l.name_h - 4.0
        } else {
            y0 + (metrics.len() as f64 * (BAR_H + GAP)) / 2.0 + 4.0
        };
        html! {
            <g data-group={name}>
                <text class={classes!("glabel", (scope == Scope::Overall).then_some("overall"))} x="0" y={format::shortest(mid)}>
                    { format!("{name} (n {})", s.n) }</text>
                { for bars }
            </g>
        }
    });
    html! {
        <figure class="chart" data-testid="group-chart" ref={figure}>
            <svg viewBox={format!("0 0 {} {}", format::shortest(width), format::shortest(height))}
                 width={format::shortest(width)} height={format::shortest(height)} role="img"
                 aria-label={described(&metrics, &scopes)}>
                { for legend }
                { for groups }
            </svg>
        </figure>
    }
}
