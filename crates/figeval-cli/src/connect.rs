//! `--connector`: choosing a connector (a preset's name or a JSON file), resolving its header
//! values from the environment, and attaching it to a pairing (contract §14).

use std::path::Path;

use figeval::connector::{Reader, Secrets};
use figeval::{Connector, Pairing};

use crate::fail::Failure;
use crate::files;
use crate::ConnectArgs;

/// A connector ready for a command: the connector, its compiled mapping (`None` for the
/// default, read by the contract's own reader) and what a capture records of it.
pub struct Connect {
    /// The connector.
    pub connector: Connector,
    /// Its compiled mapping; `None` for `ragweld`.
    pub reader: Option<Reader>,
    /// What a capture records (`None` for `ragweld`, whose lines stay as they were).
    pub record: Option<serde_json::Value>,
}

/// Reads `--connector`: a preset's name, or a connector file. `None` is `ragweld`.
pub fn load(arg: Option<&str>) -> Result<Connector, Failure> {
    let Some(arg) = arg else {
        return Ok(Connector::ragweld());
    };
    if let Some(c) = Connector::preset(arg) {
        return Ok(c);
    }
    let path = Path::new(arg);
    if !path.exists() && !arg.contains(['/', '.']) {
        return Err(Failure::Input(format!(
            "--connector {arg:?} is neither a preset ({}) nor a connector file",
            Connector::preset_names().join(", ")
        )));
    }
    let text = files::read_text(path)?;
    Connector::parse(&text).map_err(|e| Failure::Input(format!("{}: {e}", path.display())))
}

/// Prepares `--connector` (with the PDF's page labels from `--pdf` when the mapping reads
/// labels) for reading answers.
pub fn prepare(args: &ConnectArgs) -> Result<Connect, Failure> {
    let connector = load(args.connector.as_deref())?;
    if connector.is_ragweld() {
        return Ok(Connect {
            connector,
            reader: None,
            record: None,
        });
    }
    let labels = match (connector.response.numbering, &args.pdf[..]) {
        (figeval::connector::Numbering::Label, [pdf]) => Some(crate::labels::read(pdf)?),
        (figeval::connector::Numbering::Label, [_, _, ..]) => {
            return Err(Failure::Input(format!(
                "the connector's \"numbering\": \"label\" reads the printed page labels of \
                 one PDF, and --pdf is given {} times: page labels of several files are not \
                 read",
                args.pdf.len()
            )))
        }
        _ => None,
    };
    let reader = Reader::new(&connector, labels).map_err(|e| Failure::Input(e.to_string()))?;
    Ok(Connect {
        record: Some(connector.record()),
        reader: Some(reader),
        connector,
    })
}

impl Connect {
    /// Reads every answer of `pairing` through this connector (nothing to do for `ragweld`).
    pub fn attach<'d, K>(&'d self, pairing: &mut Pairing<'d, K>) {
        if let (Some(reader), Some(record)) = (&self.reader, &self.record) {
            pairing.read_through(reader, record.to_string());
        }
    }

    /// The header values, from the environment (an unset variable is exit 2, named).
    pub fn secrets(&self) -> Result<Secrets, Failure> {
        self.connector
            .secrets(|name| std::env::var(name).ok())
            .map_err(|e| Failure::Input(e.to_string()))
    }
}
