//! What one game socket's client was sent, so that an update carries only what changed: a
//! hash of each field of the state and of each move's record. A move's update is then the
//! new record, the clocks, the legal moves and the few fields a move changes.

use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use serde_json::value::RawValue;

use crate::game::view::GameStateView;

/// The field of a state that is not compared as a whole: the moves (compared move by move).
const MOVES: &str = "moves";

/// The fields only a whole state carries: sent, never compared.
const WHOLE_ONLY: [&str; 2] = ["start", "notes"];

/// What a socket's client holds of a game, as hashes.
#[derive(Default, Debug)]
pub struct Shown {
    /// The hash of the field names, in order: the fields below are theirs.
    names: u64,
    /// One hash per field, in the order of the state's (sorted) field names.
    fields: Vec<u64>,
    /// One hash per move record sent.
    moves: Vec<u64>,
}

/// The socket form of a game's moves, one record each, with each record's hash made once
/// (every socket compares them with what its client holds).
#[derive(Default, Debug)]
pub struct Records {
    texts: Vec<Box<RawValue>>,
    hashes: Vec<u64>,
}

impl Records {
    /// How many moves.
    pub fn len(&self) -> usize {
        self.texts.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.texts.is_empty()
    }

    /// Keeps the first `len` records.
    pub fn truncate(&mut self, len: usize) {
        self.texts.truncate(len);
        self.hashes.truncate(len);
    }

    /// Adds the record of the next move.
    pub fn push(&mut self, record: Box<RawValue>) {
        self.hashes.push(hash_of(record.get()));
        self.texts.push(record);
    }

    /// The records, in order.
    pub fn texts(&self) -> &[Box<RawValue>] {
        &self.texts
    }
}

fn hash_of(text: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
}

/// Calls `with` on the fields of `view` (made without moves) as JSON texts, sorted by name.
/// The view is written once and cut into its fields without copying them.
fn with_fields<R>(view: &GameStateView<'_>, with: impl FnOnce(&[(&str, &str)]) -> R) -> R {
    let text = serde_json::to_string(view).unwrap_or_default();
    let map: BTreeMap<&str, &RawValue> = serde_json::from_str(&text).unwrap_or_default();
    let fields: Vec<(&str, &str)> = map
        .into_iter()
        .filter(|(name, _)| *name != MOVES)
        .map(|(name, value)| (name, value.get()))
        .collect();
    with(&fields)
}

fn push_field(out: &mut String, name: &str, value: &str) {
    if !out.ends_with('{') {
        out.push(',');
    }
    out.push('"');
    out.push_str(name);
    out.push_str("\":");
    out.push_str(value);
}

fn push_moves(out: &mut String, records: &[Box<RawValue>]) {
    out.push_str(",\"moves\":[");
    for (i, record) in records.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(record.get());
    }
    out.push(']');
}

impl Shown {
    /// The `state` message with the whole of `view` (made without moves), the start
    /// position and `records`; the client now holds all of it.
    pub fn whole(&mut self, view: &GameStateView<'_>, records: &Records) -> String {
        with_fields(view, |fields| self.whole_of(fields, records))
    }

    fn whole_of(&mut self, fields: &[(&str, &str)], records: &Records) -> String {
        let mut out = String::with_capacity(2048 + 48 * records.len());
        let (records, hashes) = (&records.texts, &records.hashes);
        out.push_str("{\"type\":\"state\",\"state\":{");
        let mut names = DefaultHasher::new();
        self.fields.clear();
        for &(name, value) in fields {
            push_field(&mut out, name, value);
            if !WHOLE_ONLY.contains(&name) {
                name.hash(&mut names);
                self.fields.push(hash_of(value));
            }
        }
        self.names = names.finish();
        push_moves(&mut out, records);
        out.push_str("}}");
        self.moves.clone_from(hashes);
        out
    }

    /// The `update` message from what the client holds to `view` (made without moves) and
    /// `records`: the records from the first that differs, and the fields that changed.
    /// `None` when nothing did.
    pub fn update(&mut self, view: &GameStateView<'_>, records: &Records) -> Option<String> {
        with_fields(view, |fields| self.update_of(fields, records))
    }

    fn update_of(&mut self, fields: &[(&str, &str)], records: &Records) -> Option<String> {
        let (records, hashes) = (&records.texts, &records.hashes);
        let fields: Vec<(&str, &str)> = fields
            .iter()
            .filter(|(name, _)| !WHOLE_ONLY.contains(name))
            .copied()
            .collect();
        let mut names = DefaultHasher::new();
        for (name, _) in &fields {
            name.hash(&mut names);
        }
        let same_names = names.finish() == self.names && fields.len() == self.fields.len();
        let from = self
            .moves
            .iter()
            .zip(hashes)
            .take_while(|(sent, now)| sent == now)
            .count();
        let mut out = String::with_capacity(512);
        out.push_str("{\"type\":\"update\",\"update\":{");
        out.push_str("\"moves_from\":");
        out.push_str(&from.to_string());
        push_moves(&mut out, &records[from..]);
        let mut changed = from != self.moves.len() || from != records.len();
        for (i, (name, value)) in fields.iter().enumerate() {
            let hash = hash_of(value);
            if same_names && self.fields[i] == hash {
                continue;
            }
            changed = true;
            push_field(&mut out, name, value);
            if same_names {
                self.fields[i] = hash;
            }
        }
        if !changed {
            return None;
        }
        if !same_names {
            self.names = names.finish();
            self.fields = fields.iter().map(|(_, value)| hash_of(value)).collect();
        }
        self.moves.clone_from(hashes);
        out.push_str("}}");
        Some(out)
    }
}
