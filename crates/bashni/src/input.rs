//! Reading the command line's variants.

use bashni_rules::Variant;

/// The game, as given by `--variant`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum VariantArg {
    /// Tower checkers.
    Bashni,
    /// Russian draughts (shashki).
    Russian,
}

impl From<VariantArg> for Variant {
    fn from(arg: VariantArg) -> Variant {
        match arg {
            VariantArg::Bashni => Variant::Bashni,
            VariantArg::Russian => Variant::Russian,
        }
    }
}
