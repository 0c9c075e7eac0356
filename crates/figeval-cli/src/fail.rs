//! How a command fails, and the exit status each failure means.

use std::fmt;
use std::process::ExitCode;

/// A failure that ends a command without a report.
#[derive(Debug)]
pub enum Failure {
    /// Bad usage or bad input (dataset, capture, flags): exit 2.
    Input(String),
    /// The deployment failed: exit 3.
    Deployment(String),
    /// Writing the capture or the report failed (disk full, no permission, a closed stdout):
    /// exit 4. Not bad input, and never reported over a deployment failure that came first.
    Output(String),
}

impl Failure {
    /// The exit status this failure means.
    pub fn exit_code(&self) -> ExitCode {
        match self {
            Failure::Input(_) => ExitCode::from(2),
            Failure::Deployment(_) => ExitCode::from(3),
            Failure::Output(_) => ExitCode::from(4),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Input(m) | Failure::Deployment(m) | Failure::Output(m) => f.write_str(m),
        }
    }
}

/// A command's result: the exit status on success.
pub type Outcome = Result<ExitCode, Failure>;
