//! `bashni pdn`: checking and converting game records.

use std::error::Error;
use std::process::ExitCode;

/// The `pdn` subcommands.
#[derive(clap::Subcommand)]
pub enum Command {}

/// Runs a `pdn` subcommand.
pub fn run(command: &Command) -> Result<ExitCode, Box<dyn Error>> {
    match *command {}
}
