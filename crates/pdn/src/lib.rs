//! Game records in PDN (Portable Draughts Notation) for Bashni and Russian draughts.
