//! A small SVG bar chart: per group, the headline and the two metrics that explain it.

use figeval::{Metric, Report};
use yew::prelude::*;

use crate::format;
use crate::shared::Shared;

const CHART_METRICS: [(Metric, &str); 3] = [
    (Metric::PageHitAt3, "page hit @3"),
    (Metric::PrecisePageHitAt3, "precise @3"),
    (Metric::FigureChunkAt3, "figure chunk @3"),
];

const LABEL_W: f64 = 96.0;
const BAR_W: f64 = 380.0;
const BAR_H: f64 = 12.0;
const GAP: f64 = 3.0;
const GROUP_GAP: f64 = 14.0;

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
    let mut scopes: Vec<(String, &figeval::Summary)> =
        r.groups().map(|(g, s)| (g.name().to_string(), s)).collect();
    scopes.push(("overall".into(), &r.summary));
    let block = CHART_METRICS.len() as f64 * (BAR_H + GAP) + GROUP_GAP;
    let legend_h = 22.0;
    let height = legend_h + block * scopes.len() as f64;
    let width = LABEL_W + BAR_W + 70.0;
    let legend = CHART_METRICS.iter().enumerate().map(|(i, (_, label))| {
        let x = LABEL_W + i as f64 * 130.0;
        html! {
            <g>
                <rect class={format!("bar m{i}")} x={x.to_string()} y="4" width="12" height="12" rx="2" />
                <text class="legend" x={(x + 17.0).to_string()} y="14">{ *label }</text>
            </g>
        }
    });
    let groups = scopes.iter().enumerate().map(|(gi, (name, s))| {
        let y0 = legend_h + gi as f64 * block;
        let bars = CHART_METRICS.iter().enumerate().map(|(i, (m, _))| {
            let y = y0 + i as f64 * (BAR_H + GAP);
            let rate = s.rate(*m);
            let w = (rate * BAR_W).max(if rate > 0.0 { 1.5 } else { 0.0 });
            html! {
                <g>
                    <rect class="track" x={LABEL_W.to_string()} y={y.to_string()} width={BAR_W.to_string()}
                          height={BAR_H.to_string()} rx="2" />
                    <rect class={format!("bar m{i}")} x={LABEL_W.to_string()} y={y.to_string()}
                          width={format!("{w:.2}")} height={BAR_H.to_string()} rx="2">
                        <title>{ format!("{name} {}: {} {}", m.name(), format::rate(rate), format::hits(s.hits(*m), s.n)) }</title>
                    </rect>
                    <text class="value" x={(LABEL_W + BAR_W + 6.0).to_string()} y={(y + BAR_H - 2.0).to_string()}>
                        { format::rate(rate) }</text>
                </g>
            }
        });
        let mid = y0 + (CHART_METRICS.len() as f64 * (BAR_H + GAP)) / 2.0 + 4.0;
        html! {
            <g data-group={name.clone()}>
                <text class={classes!("glabel", (name == "overall").then_some("overall"))} x="0" y={mid.to_string()}>
                    { format!("{name} (n {})", s.n) }</text>
                { for bars }
            </g>
        }
    });
    html! {
        <figure class="chart" data-testid="group-chart">
            <svg viewBox={format!("0 0 {width} {height}")} width="100%" role="img"
                 aria-label="Rates by group: page hit at 3, precise page hit at 3, figure chunk at 3">
                { for legend }
                { for groups }
            </svg>
        </figure>
    }
}
