//! `figeval`: the command line over the figeval scoring core.
//!
//! A thin shell: it reads files, talks HTTP and prints; every number comes from the
//! `figeval` crate. Exit status: 0 done, 1 a `--fail-on-regression` gate tripped (or a
//! `figeval ground` finding), 2 bad usage or bad input, 3 the deployment failed, 4 the capture
//! or the report could not be written. On 2, 3 or 4 no report is written.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use figeval::{live, CacheMode, Gate};

/// mimalloc instead of the system allocator: scoring a capture makes and frees some fifty
/// small allocations per line, and glibc's malloc spent a sixth of `figeval score` on them
/// (consolidating fastbins on every line) and rounded each up to 32 bytes.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod audit;
mod bundled;
mod clock;
mod compare_cmd;
mod connect;
mod export_cmd;
mod fail;
mod files;
mod ground_cmd;
mod labels;
mod probe_cmd;
mod push_cmd;
mod run_cmd;
mod score_cmd;
mod serve_cmd;
mod validate_cmd;

/// The dataset used when `--dataset` is not given.
pub const DEFAULT_DATASET: &str = "data/eval_datasets/nasa-apollo-11-figures.json";

#[derive(Parser)]
#[command(
    name = "figeval",
    version,
    about = "Does your document search bring back the page a figure or passage is printed on?",
    long_about = None
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check datasets and list every error in each.
    Validate {
        /// Dataset files.
        #[arg(required = true)]
        datasets: Vec<PathBuf>,
    },
    /// Ask a deployment for every item and score the answers (POST {base}/search, or as
    /// --connector says).
    Run(RunArgs),
    /// Send one question through a connector and show what its mapping reads of each hit
    /// beside the hit's own keys.
    Probe(ProbeArgs),
    /// Score captured or pasted responses offline.
    Score(ScoreArgs),
    /// Compare two reports of the same dataset (before → after), or several runs against the
    /// first (BASE A B …): a matrix with Holm-adjusted p-values.
    Compare {
        /// The reports: the first is the base (before), every other one is compared with it.
        /// With --baseline-from, the stored run is the base and one report is enough.
        #[arg(required = true, num_args = 1.., value_name = "REPORT")]
        reports: Vec<PathBuf>,
        /// Take the base from a figeval server: the newest stored run matching the filters
        /// (`URL?label=branch:main`; the reports' dataset unless `dataset=` is given). The
        /// token comes from FIGEVAL_TOKEN.
        #[arg(long, value_name = "URL?FILTERS")]
        baseline_from: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Exit 1 when a metric of these scopes fell (in any run, against the base): `overall`
        /// or a group, each optionally narrowed to one metric (`overall:page_hit_at_3`).
        #[arg(long, value_delimiter = ',', value_name = "SCOPE[:METRIC]", value_parser = parse_gate)]
        fail_on_regression: Vec<Gate>,
        /// Exit 1 only when a metric of these scopes fell significantly: by the exact McNemar
        /// test on the paired items, p Holm-adjusted across every gated run, scope and metric,
        /// below 0.05. A drop that is not significant is reported as within noise.
        #[arg(long, value_delimiter = ',', value_name = "SCOPE[:METRIC]", value_parser = parse_gate)]
        fail_on_significant_regression: Vec<Gate>,
        /// Also append the comparison as Markdown to this file (e.g. `$GITHUB_STEP_SUMMARY`),
        /// whatever `--format` prints.
        #[arg(long, value_name = "FILE")]
        summary_file: Option<PathBuf>,
    },
    /// Write a capture as a TREC run over pages and its dataset as TREC qrels (for ranx,
    /// ir_measures or trec_eval), or the same in BEIR's layout (`--beir DIR`). Query ids are
    /// q1…qN in dataset order, doc ids p<page>.
    #[command(group(clap::ArgGroup::new("written").required(true).multiple(true).args(["qrels", "beir"])))]
    Export {
        /// The dataset.
        #[arg(long, default_value = DEFAULT_DATASET)]
        dataset: PathBuf,
        /// The responses, in any form `score` reads; `-` reads standard input.
        #[arg(long)]
        responses: PathBuf,
        /// Write the qrels here: every expected page relevant (1).
        #[arg(long, requires = "run")]
        qrels: Option<PathBuf>,
        /// Write the run here: each distinct page at the rank of the first match citing it,
        /// score 1/rank.
        #[arg(long, requires = "qrels")]
        run: Option<PathBuf>,
        /// Also (or instead) write the same files in BEIR's layout into this folder:
        /// queries.jsonl, qrels/test.tsv and results.json.
        #[arg(long, value_name = "DIR")]
        beir: Option<PathBuf>,
        /// Also write the query map here: {"qid", "question"} per line (JSON Lines).
        #[arg(long)]
        queries: Option<PathBuf>,
        #[command(flatten)]
        connect: ConnectArgs,
    },
    /// Check that each item's expected pages carry its figure's caption (or its section's
    /// heading) in the PDF; exit 1 on any finding.
    Ground {
        /// The dataset.
        #[arg(long, default_value = DEFAULT_DATASET)]
        dataset: PathBuf,
        /// The PDF the dataset is written for; repeated for a dataset of several files
        /// (`expected_locations`), each matched to the locations' paths.
        #[arg(long, required = true)]
        pdf: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Also write the corrected dataset to this new file (never the dataset itself).
        #[arg(long)]
        write_fixed: Option<PathBuf>,
        #[command(flatten)]
        read: ground_cmd::ReadArgs,
    },
    /// List every figure and table caption of a PDF: label, page and text.
    Captions {
        /// The PDF.
        #[arg(long)]
        pdf: PathBuf,
        /// Output format (`text` or `json`).
        #[arg(long, value_enum, default_value_t = CaptionsFormat::Text)]
        format: CaptionsFormat,
        #[command(flatten)]
        read: ground_cmd::ReadArgs,
    },
    /// Serve the app and the team's stored runs, with tokens and a proxy to deployments; `serve
    /// token …` manages the tokens.
    Serve(serve_cmd::ServeArgs),
    /// Push a report to a figeval server and print its short link (token: FIGEVAL_TOKEN).
    Push {
        /// The report.
        report: PathBuf,
        /// The server's URL.
        #[arg(long)]
        server: String,
        /// The run's name (default: the report's run.name, else its source and start).
        #[arg(long)]
        name: Option<String>,
        /// A label, KEY=VALUE (repeated): branch, git sha, deployment, configuration.
        #[arg(long = "label", value_name = "KEY=VALUE", value_parser = push_cmd::parse_label)]
        labels: Vec<(String, String)>,
        /// Also store the capture the report was scored from, so the page shows what each
        /// match said.
        #[arg(long)]
        capture: Option<PathBuf>,
    },
}

/// Output formats of `figeval captions`.
#[derive(Clone, Copy, ValueEnum)]
enum CaptionsFormat {
    Text,
    Json,
}

/// `--connector` and `--pdf`, shared by `run`, `score`, `export` and `probe`.
#[derive(clap::Args)]
pub struct ConnectArgs {
    /// How to ask the deployment and where its answer keeps its pages: a preset (ragweld,
    /// langserve, hayhooks, llamaindex, elasticsearch, opensearch, qdrant, vespa, vectara) or
    /// a connector file (JSON). Default ragweld.
    #[arg(long)]
    pub connector: Option<String>,
    /// The PDF the corpus is: its page labels, for a connector with "numbering": "label", and
    /// the provenance audit (is each hit's content printed on the pages it cites?). Repeated
    /// for a dataset of several files: each hit is audited in the PDF that is its file.
    #[arg(long)]
    pub pdf: Vec<PathBuf>,
}

/// Flags of `figeval probe`.
#[derive(clap::Args)]
pub struct ProbeArgs {
    /// The question to send.
    pub question: String,
    /// The deployment's base URL (for the default connector its API base, `/search` appended).
    #[arg(long, default_value = live::DEFAULT_BASE_URL)]
    pub base_url: String,
    /// The corpus, for a connector that sends it (`{{corpus_id}}`).
    #[arg(long, default_value = "")]
    pub corpus_id: String,
    /// Matches to ask for.
    #[arg(long, default_value_t = live::DEFAULT_TOP_K)]
    pub top_k: u32,
    /// The search's cache mode.
    #[arg(long, default_value = "bypass", value_parser = parse_cache_mode)]
    pub cache_mode: CacheMode,
    /// Seconds to wait for the answer (at most 3600).
    #[arg(long, default_value_t = f64::from(live::DEFAULT_TIMEOUT_S))]
    pub timeout: f64,
    #[command(flatten)]
    pub connect: ConnectArgs,
}

/// Flags of `figeval score`.
#[derive(clap::Args)]
pub struct ScoreArgs {
    /// The responses: a capture (JSON Lines), bare bodies one per line, a JSON array of
    /// bodies or a single body; `-` reads standard input.
    #[arg(long)]
    pub responses: PathBuf,
    /// The dataset: a file, or the name of a bundled dataset.
    #[arg(long, default_value = DEFAULT_DATASET)]
    pub dataset: PathBuf,
    /// The widest span, in pages, that still counts as a precise hit.
    #[arg(long = "max-precise-span", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_precise_span: u32,
    /// Score the items that have a response and list the rest as unscored.
    #[arg(long)]
    pub allow_missing: bool,
    /// The top_k the searches asked for, when the responses do not record it: the ranking
    /// metrics at 5 and 10 are stated up to it.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub top_k: Option<u32>,
    /// The run's name in the report (default: the recorded deployment's host, else the
    /// capture's file name, and the time).
    #[arg(long)]
    pub name: Option<String>,
    /// Also write the report to this file (its folder is created).
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub connect: ConnectArgs,
}

/// Flags of `figeval run`.
#[derive(clap::Args)]
pub struct RunArgs {
    /// The dataset: a file, or the name of a bundled dataset. Without it, the bundled dataset
    /// of the corpus the deployment says it serves (GET {base}/health).
    #[arg(long)]
    pub dataset: Option<PathBuf>,
    /// The run's name in the report (default: the deployment's host and the time).
    #[arg(long)]
    pub name: Option<String>,
    /// The deployment's base URL: for the default connector its API base (`/search` is
    /// appended), for another the `{{base_url}}` of its request template.
    #[arg(long, default_value = live::DEFAULT_BASE_URL)]
    pub base_url: String,
    /// Matches to ask for; at least 5, since page_hit_at_5 reads rank 5.
    #[arg(long, default_value_t = live::DEFAULT_TOP_K)]
    pub top_k: u32,
    /// The search's cache mode; bypass keeps a before/after comparison from replaying cache.
    #[arg(long, default_value = "bypass", value_parser = parse_cache_mode)]
    pub cache_mode: CacheMode,
    /// Seconds to wait for one search (at most 3600).
    #[arg(long, default_value_t = f64::from(live::DEFAULT_TIMEOUT_S))]
    pub timeout: f64,
    /// Searches in flight at once (1 to 64).
    #[arg(long, default_value_t = live::DEFAULT_CONCURRENCY, value_parser = parse_concurrency)]
    pub concurrency: u32,
    /// Retries (0 to 10) of a search answered 429/502/503/504 or whose connection failed or
    /// dropped; backoff 0.5 s doubling to 8 s, `Retry-After` honoured up to 30 s.
    #[arg(long, default_value_t = live::DEFAULT_RETRIES, value_parser = parse_retries)]
    pub retries: u32,
    /// Write every answer to this capture (JSON Lines) as it arrives.
    #[arg(long)]
    pub capture: Option<PathBuf>,
    /// Reuse the answers already in --capture and ask only for the missing items.
    #[arg(long, requires = "capture")]
    pub resume: bool,
    /// The widest span, in pages, that still counts as a precise hit.
    #[arg(long = "max-precise-span", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_precise_span: u32,
    /// Also write the report to this file (its folder is created).
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub connect: ConnectArgs,
}

fn parse_cache_mode(s: &str) -> Result<CacheMode, figeval::request::UnknownCacheMode> {
    s.parse()
}

fn parse_gate(s: &str) -> Result<Gate, figeval::compare::GateError> {
    s.parse()
}

fn parse_concurrency(s: &str) -> Result<u32, live::SettingError> {
    live::check_in("concurrency", s, &live::CONCURRENCY)
}

fn parse_retries(s: &str) -> Result<u32, live::SettingError> {
    live::check_in("retries", s, &live::RETRIES)
}

/// Output formats of `figeval compare` and `figeval ground`.
#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
    Markdown,
}

/// The reports of `figeval compare`: the files, after the stored baseline when
/// `--baseline-from` is given.
fn compare_reports(
    paths: &[PathBuf],
    baseline_from: Option<&str>,
) -> Result<Vec<compare_cmd::Labeled>, fail::Failure> {
    let mut reports = compare_cmd::read_all(paths)?;
    match baseline_from {
        Some(from) => {
            let first = reports.first().ok_or_else(|| {
                fail::Failure::Input("--baseline-from compares with a report: name one".into())
            })?;
            let base = push_cmd::baseline(from, &first.report)?;
            reports.insert(0, base);
        }
        None if reports.len() < 2 => {
            return Err(fail::Failure::Input(
                "compare needs two reports or more, or one with --baseline-from".into(),
            ))
        }
        None => {}
    }
    Ok(reports)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Validate { datasets } => validate_cmd::run(&datasets),
        Command::Run(args) => run_cmd::run(&args),
        Command::Probe(args) => probe_cmd::run(&args),
        Command::Score(args) => score_cmd::run(&args),
        Command::Compare {
            reports,
            baseline_from,
            format,
            fail_on_regression,
            fail_on_significant_regression,
            summary_file,
        } => compare_reports(&reports, baseline_from.as_deref()).and_then(|reports| {
            compare_cmd::run(
                &reports,
                format,
                &compare_cmd::Gates {
                    any_drop: &fail_on_regression,
                    significant_drop: &fail_on_significant_regression,
                },
                summary_file.as_deref(),
            )
        }),
        Command::Export {
            dataset,
            responses,
            qrels,
            run,
            queries,
            beir,
            connect,
        } => export_cmd::run(
            &responses,
            &dataset,
            &connect,
            &export_cmd::ExportPaths {
                trec: qrels.as_deref().zip(run.as_deref()),
                queries: queries.as_deref(),
                beir: beir.as_deref(),
            },
        ),
        Command::Ground {
            dataset,
            pdf,
            format,
            write_fixed,
            read,
        } => ground_cmd::run(&dataset, &pdf, format, write_fixed.as_deref(), &read),
        Command::Captions { pdf, format, read } => {
            ground_cmd::captions(&pdf, matches!(format, CaptionsFormat::Json), &read)
        }
        Command::Serve(args) => serve_cmd::run(args),
        Command::Push {
            report,
            server,
            name,
            labels,
            capture,
        } => push_cmd::push(
            &report,
            &server,
            name.as_deref(),
            &labels,
            capture.as_deref(),
        ),
    };
    match result {
        Ok(code) => code,
        Err(failure) => {
            eprintln!("figeval: {failure}");
            failure.exit_code()
        }
    }
}
