//! The comments, annotation glyphs and variations of a record read from PDN: kept with the
//! record, so that the page can show them and the record downloads with them. Variation
//! moves are kept in full (`c3-d4`, `b2:d4:f6`), as the rules wrote them when the record was
//! read; the moves of the game itself are the round's.

use bashni_pdn::{Annotation, RawGame, RawMove, Variation};
use serde::{Deserialize, Serialize};

/// What a record's movetext holds besides its moves.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Notes {
    /// Comments before the first move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub intro: Vec<String>,
    /// What was written after moves of the game, in the order of the moves.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub after: Vec<PlyNotes>,
}

/// What was written after one move of the game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlyNotes {
    /// The move's ply, counted from 1: the position after it is the one commented on, and
    /// each variation replaces it, starting from the position after ply `ply - 1`.
    pub ply: usize,
    /// The move's comments, NAGs and variations.
    #[serde(flatten)]
    pub notes: MoveNotes,
}

/// Comments, NAGs and variations written after a move.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveNotes {
    /// Comments, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub comments: Vec<String>,
    /// Numeric annotation glyphs (1 `!`, 2 `?`, 3 `!!`, 4 `??`, 5 `!?`, 6 `?!`, others `$n`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nags: Vec<u8>,
    /// Other moves instead of this one, each a line of moves.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variations: Vec<Line>,
}

/// A variation: its moves, each with what was written after it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    /// Comments before its first move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub intro: Vec<String>,
    /// Its moves, in order.
    pub moves: Vec<NotedMove>,
}

/// A move of a variation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NotedMove {
    /// The move in full.
    pub text: String,
    /// What was written after it.
    #[serde(flatten)]
    pub notes: MoveNotes,
}

fn comments(annotations: &[Annotation]) -> Vec<String> {
    annotations
        .iter()
        .filter_map(|a| match a {
            Annotation::Comment(text) => Some(text.clone()),
            _ => None,
        })
        .collect()
}

fn move_notes(after: &[Annotation]) -> MoveNotes {
    MoveNotes {
        comments: comments(after),
        nags: after
            .iter()
            .filter_map(|a| match a {
                Annotation::Nag(nag) => Some(*nag),
                _ => None,
            })
            .collect(),
        variations: after
            .iter()
            .filter_map(|a| match a {
                Annotation::Variation(variation) => Some(line_of(variation)),
                _ => None,
            })
            .collect(),
    }
}

fn line_of(variation: &Variation) -> Line {
    Line {
        intro: comments(&variation.intro),
        moves: variation
            .moves
            .iter()
            .map(|mv| NotedMove {
                text: mv.text.clone(),
                notes: move_notes(&mv.after),
            })
            .collect(),
    }
}

fn annotations(notes: &MoveNotes) -> Vec<Annotation> {
    let mut out: Vec<Annotation> = notes.nags.iter().map(|&n| Annotation::Nag(n)).collect();
    out.extend(notes.comments.iter().cloned().map(Annotation::Comment));
    out.extend(notes.variations.iter().map(|line| {
        Annotation::Variation(Variation {
            intro: line
                .intro
                .iter()
                .cloned()
                .map(Annotation::Comment)
                .collect(),
            moves: line
                .moves
                .iter()
                .map(|mv| RawMove {
                    after: annotations(&mv.notes),
                    ..RawMove::new(mv.text.clone())
                })
                .collect(),
            ..Variation::default()
        })
    }));
    out
}

impl MoveNotes {
    fn is_empty(&self) -> bool {
        self.comments.is_empty() && self.nags.is_empty() && self.variations.is_empty()
    }
}

impl Notes {
    /// The notes of a record whose moves (variations included) are written in full, as
    /// `bashni_pdn::rewrite` writes them; `None` when it has none.
    pub fn of(raw: &RawGame) -> Option<Notes> {
        let notes = Notes {
            intro: comments(&raw.intro),
            after: raw
                .moves
                .iter()
                .enumerate()
                .map(|(index, mv)| PlyNotes {
                    ply: index + 1,
                    notes: move_notes(&mv.after),
                })
                .filter(|ply| !ply.notes.is_empty())
                .collect(),
        };
        (!notes.intro.is_empty() || !notes.after.is_empty()).then_some(notes)
    }

    /// Puts the notes back into `raw`, the record of the same game's moves.
    pub fn apply(&self, raw: &mut RawGame) {
        raw.intro
            .extend(self.intro.iter().cloned().map(Annotation::Comment));
        for ply in &self.after {
            if let Some(mv) = ply.ply.checked_sub(1).and_then(|i| raw.moves.get_mut(i)) {
                mv.after.extend(annotations(&ply.notes));
            }
        }
    }

    /// The stored form: JSON.
    pub fn to_stored(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads the stored form; `None` for an empty text or one that is not notes.
    pub fn from_stored(text: &str) -> Option<Notes> {
        if text.is_empty() {
            return None;
        }
        serde_json::from_str(text).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bashni_pdn::{MoveForm, Reader, replay, rewrite};
    use bashni_rules::SquareNames;

    #[test]
    fn notes_go_into_a_record_and_come_back_out() {
        let text = "[GameType \"25\"]\n{Before} 1. c3-d4 {good} $1 f6-e5 (1... fg5 {or this} \
                    2. dc5 (2. gh4)) 2. d4:f6 g7:e5 *\n";
        let raw = Reader::new(text.as_bytes())
            .next()
            .expect("a game")
            .expect("read");
        let game = replay(&raw, None).expect("replays");
        let full = rewrite(&raw, &game, MoveForm::Full, SquareNames::Letters);
        let notes = Notes::of(&full).expect("notes");
        assert_eq!(notes.intro, ["Before"]);
        assert_eq!(notes.after.len(), 2);
        assert_eq!(notes.after[0].ply, 1);
        assert_eq!(notes.after[0].notes.comments, ["good"]);
        assert_eq!(notes.after[0].notes.nags, [1]);
        let line = &notes.after[1].notes.variations[0];
        assert_eq!(line.moves[0].text, "f6-g5");
        assert_eq!(line.moves[0].notes.comments, ["or this"]);
        assert_eq!(line.moves[1].notes.variations[0].moves[0].text, "g3-h4");
        // Stored and read back, the same notes.
        assert_eq!(Notes::from_stored(&notes.to_stored()), Some(notes.clone()));
        assert_eq!(Notes::from_stored(""), None);
        // Put into a record of the same moves, they are written as they were read.
        let mut record = bashni_pdn::record(&game, &[], MoveForm::Full);
        notes.apply(&mut record);
        let mut written = String::new();
        bashni_pdn::write_game(&mut written, &record).expect("write");
        assert!(
            written.contains(
                "{Before} 1. c3-d4! {good} 1... f6-e5 (1... f6-g5 {or this} 2. d4-c5 (2. g3-h4))"
            ),
            "{written}"
        );
        let plain = bashni_pdn::RawGame::from_moves(vec![], ["c3-d4"], None);
        assert_eq!(Notes::of(&plain), None);
    }
}
