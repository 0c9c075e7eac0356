//! The trend of a metric over one dataset's runs: one point per run, oldest on the left, evenly
//! spaced in the order they were pushed or kept, each with its 95% interval as a whisker; the
//! value axis runs from 0 to 1, as every metric the report states does. A picture with a text
//! alternative that reads every point, and the same points as a table.

use figeval::render;
use figeval_web_common::table_scroll::table_scroll;
use yew::prelude::*;

use crate::history::Point;

/// The drawing's size, in SVG units.
const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 200.0;
/// The plot area's margins: left (the axis's numbers), right, top, bottom (the dates).
const LEFT: f64 = 40.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 10.0;
const BOTTOM: f64 = 28.0;

/// Where a point is drawn: its x, and the y of its value and of its interval's ends.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placed {
    /// Across.
    pub x: f64,
    /// Its value.
    pub y: f64,
    /// Its interval's low and high ends, when it has one.
    pub whisker: Option<(f64, f64)>,
}

/// The y of a value from 0 (bottom) to 1 (top), clamped.
fn y_of(v: f64) -> f64 {
    let plot = HEIGHT - TOP - BOTTOM;
    TOP + plot * (1.0 - v.clamp(0.0, 1.0))
}

/// Where each point goes: evenly spaced across, one alone in the middle.
pub fn place(points: &[Point]) -> Vec<Placed> {
    let plot = WIDTH - LEFT - RIGHT;
    let step = match points.len() {
        0 | 1 => 0.0,
        n => plot / (n - 1) as f64,
    };
    points
        .iter()
        .enumerate()
        .map(|(i, p)| Placed {
            x: if points.len() == 1 {
                LEFT + plot / 2.0
            } else {
                LEFT + step * i as f64
            },
            y: y_of(p.value),
            whisker: p.ci.map(|ci| (y_of(ci.lo), y_of(ci.hi))),
        })
        .collect()
}

fn num(v: f64) -> String {
    figeval::decimal::fixed(v, 1)
}

/// The date of an RFC 3339 time (`2026-12-07`).
fn day(when: &str) -> &str {
    when.get(..10).unwrap_or(when)
}

/// The chart and its table, for `label`'s points over the runs of `dataset`.
pub fn chart(points: &[Point], label: &str, key: &str, dataset: &str) -> Html {
    if points.is_empty() {
        return html! {
            <p class="muted" data-testid="history-trend-empty">
                { format!("No run of this dataset states {key}.") }
            </p>
        };
    }
    let placed = place(points);
    let spoken = points
        .iter()
        .map(|p| format!("{} ({}): {}", p.name, day(&p.when), p.words))
        .collect::<Vec<_>>()
        .join("; ");
    let alt = format!(
        "{label} over {} runs of dataset {dataset}, oldest first: {spoken}",
        points.len()
    );
    let line = placed
        .iter()
        .map(|p| format!("{},{}", num(p.x), num(p.y)))
        .collect::<Vec<_>>()
        .join(" ");
    let (first, last) = (&points[0], &points[points.len() - 1]);
    html! {
        <>
            <svg class="trend" viewBox={format!("0 0 {WIDTH} {HEIGHT}")} role="img" aria-label={alt}
                 data-testid="history-trend-chart">
                <rect class="track" x={num(LEFT)} y={num(TOP)} width={num(WIDTH - LEFT - RIGHT)}
                      height={num(HEIGHT - TOP - BOTTOM)} />
                { for [0.0, 0.5, 1.0].iter().map(|v| html! {
                    <text class="axis" x={num(LEFT - 6.0)} y={num(y_of(*v) + 4.0)} text-anchor="end">{ figeval::decimal::fixed(*v, 1) }</text>
                }) }
                <text class="axis" x={num(LEFT)} y={num(HEIGHT - 8.0)}>{ day(&first.when).to_string() }</text>
                if points.len() > 1 {
                    <text class="axis" x={num(WIDTH - RIGHT)} y={num(HEIGHT - 8.0)} text-anchor="end">{ day(&last.when).to_string() }</text>
                }
                <polyline class="trend-line" points={line} />
                { for placed.iter().zip(points).map(|(at, p)| html! {
                    <g data-testid="history-trend-point" data-value={render::rate(p.value)}
                       data-ci={p.ci.map(render::interval_data)}>
                        if let Some((lo, hi)) = at.whisker {
                            <path class="whisker" d={format!("M{x},{lo}V{hi}M{l},{lo}H{r}M{l},{hi}H{r}",
                                x = num(at.x), lo = num(lo), hi = num(hi), l = num(at.x - 4.0), r = num(at.x + 4.0))} />
                        }
                        <circle class="trend-dot" cx={num(at.x)} cy={num(at.y)} r="4" />
                    </g>
                }) }
            </svg>
            <details class="trend-table">
                <summary>{ "The points as a table" }</summary>
                { table_scroll("the trend's points", html! {
                    <table class="runs-table">
                        <thead><tr>
                            <th scope="col">{ "Run" }</th>
                            <th scope="col">{ "When" }</th>
                            <th scope="col">{ label.to_string() }<br /><code>{ key.to_string() }</code></th>
                        </tr></thead>
                        <tbody>
                            { for points.iter().map(|p| html! {
                                <tr>
                                    <th scope="row" class="q">{ p.name.clone() }</th>
                                    <td>{ p.when.clone() }</td>
                                    <td>{ p.words.clone() }</td>
                                </tr>
                            }) }
                        </tbody>
                    </table>
                }) }
            </details>
        </>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use figeval::stats::Interval;

    fn point(value: f64, ci: Option<(f64, f64)>) -> Point {
        Point {
            name: "r".into(),
            when: "2026-12-07T10:00:00.000Z".into(),
            value,
            ci: ci.map(|(lo, hi)| Interval { lo, hi }),
            words: String::new(),
        }
    }

    #[test]
    fn points_are_spread_across_oldest_first_and_their_whiskers_span_their_intervals() {
        let placed = place(&[
            point(0.0, Some((0.0, 0.2))),
            point(1.0, None),
            point(0.5, Some((0.3, 0.7))),
        ]);
        assert_eq!(placed[0].x, LEFT);
        assert_eq!(placed[2].x, WIDTH - RIGHT);
        assert_eq!(placed[1].x, (LEFT + WIDTH - RIGHT) / 2.0);
        assert_eq!(placed[0].y, HEIGHT - BOTTOM, "0 at the bottom");
        assert_eq!(placed[1].y, TOP, "1 at the top");
        assert_eq!(placed[1].whisker, None);
        let (lo, hi) = placed[2].whisker.unwrap();
        assert!(
            lo > placed[2].y && hi < placed[2].y,
            "the value inside its whisker"
        );
        assert_eq!(
            place(&[point(0.5, None)])[0].x,
            (LEFT + WIDTH - RIGHT) / 2.0,
            "one point in the middle"
        );
    }
}
