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
}

impl Failure {
    /// The exit status this failure means.
    pub fn exit_code(&self) -> ExitCode {
        match self {
            Failure::Input(_) => ExitCode::from(2),
            Failure::Deployment(_) => ExitCode::from(3),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Input(m) | Failure::Deployment(m) => f.write_str(m),
        }
    }
}

/// A command's result: the exit status on success.
pub type Outcome = Result<ExitCode, Failure>;
