//! A small SVG bar chart: per group, the headline and the two metrics that explain it, each
//! bar with a whisker over its 95% interval (`Summary::ci`, the report's `<metric>_ci`). The
//! chart is an image whose text alternative reads every bar's number and interval as the
//! table's cells are read; the table shows the same intervals as text.

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

const LABEL_W: f64 = 96.0;
const BAR_W: f64 = 380.0;
const BAR_H: f64 = 12.0;
const GAP: f64 = 3.0;
const GROUP_GAP: f64 = 14.0;

/// A bar's whisker over its 95% interval, `y` the bar's top edge: a line from `lo` to `hi`
/// with end caps, in ink on a halo of the card's white.
fn whisker(m: Metric, y: f64, ci: Interval) -> Html {
    let x = |v: f64| format::fixed(LABEL_W + v * BAR_W, 2);
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
    let r = &props.report;
    let metrics: Vec<Metric> = Metric::ALL.into_iter().filter(|&m| charted(m)).collect();
    let mut scopes: Vec<(Scope, &figeval::Summary)> =
        r.groups().map(|(g, s)| (Scope::Group(g), s)).collect();
    scopes.push((Scope::Overall, &r.summary));
    let block = metrics.len() as f64 * (BAR_H + GAP) + GROUP_GAP;
    let legend_h = 22.0;
    let height = legend_h + block * scopes.len() as f64;
    let width = LABEL_W + BAR_W + 70.0;
    let legend = metrics.iter().enumerate().map(|(i, &m)| {
        let x = LABEL_W + i as f64 * 130.0;
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
            let y = y0 + i as f64 * (BAR_H + GAP);
            let rate = s.rate(m);
            let w = (rate * BAR_W).max(if rate > 0.0 { 1.5 } else { 0.0 });
            html! {
                <g>
                    <rect class="track" x={format::shortest(LABEL_W)} y={format::shortest(y)} width={format::shortest(BAR_W)}
                          height={format::shortest(BAR_H)} rx="2" />
                    <rect class={format!("bar m{i}")} x={format::shortest(LABEL_W)} y={format::shortest(y)}
                          width={format::fixed(w, 2)} height={format::shortest(BAR_H)} rx="2" />
                    { for s.ci(m).map(|ci| whisker(m, y, ci)) }
                    <text class="value" x={format::shortest(LABEL_W + BAR_W + 6.0)} y={format::shortest(y + BAR_H - 2.0)}>
                        { format::rate(rate) }</text>
                </g>
            }
        });
        let mid = y0 + (metrics.len() as f64 * (BAR_H + GAP)) / 2.0 + 4.0;
        html! {
            <g data-group={name}>
                <text class={classes!("glabel", (scope == Scope::Overall).then_some("overall"))} x="0" y={format::shortest(mid)}>
                    { format!("{name} (n {})", s.n) }</text>
                { for bars }
            </g>
        }
    });
    html! {
        <figure class="chart" data-testid="group-chart">
            <svg viewBox={format!("0 0 {} {}", format::shortest(width), format::shortest(height))} width="100%" role="img"
                 aria-label={described(&metrics, &scopes)}>
                { for legend }
                { for groups }
            </svg>
        </figure>
    }
}
