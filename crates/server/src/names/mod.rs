//! When two names look alike: the key that account names are told apart by, and how stored
//! keys follow when its rule changes. Used by the accounts and by the store that looks them
//! up.

use unicode_normalization::UnicodeNormalization;

/// The key of a name: two names with the same key look alike, so only one account may have
/// it. The name is NFKC-normalised, case-folded and reduced to its skeleton (Unicode's
/// table of characters that look the same, UTS #39: Cyrillic `а` is Latin `a`, `0` is `O`,
/// `m` is `rn`), twice, since folding a skeleton may give a character that has one. Then the
/// marks over and under letters are left out (`admín` and `ADMİN` are `admin`), `w` is
/// taken for `vv`, `i` for `l` (a capital `I` looks like `l`, and only one of them is folded
/// to `i`), and `_` and `-` are left out.
pub fn name_key(name: &str) -> String {
    let mut key: String = name.nfkc().collect();
    for _ in 0..2 {
        key = unicode_security::skeleton(&caseless::default_case_fold_str(&key)).collect();
    }
    caseless::default_case_fold_str(&key)
        .nfd()
        .filter(|&c| !matches!(c, '_' | '-') && !is_mark(c))
        .flat_map(|c| match c {
            'i' => ['l', '\0'],
            'w' => ['v', 'v'],
            c => [c, '\0'],
        })
        .filter(|&c| c != '\0')
        .collect()
}

/// Whether `c` is a mark set over, under or through the letter before it (Unicode's classes
/// Mn, Mc and Me).
fn is_mark(c: char) -> bool {
    use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};
    c.general_category_group() == GeneralCategoryGroup::Mark
}

/// The keys a store changes when the rule of [`name_key`] changes: `players` are the
/// accounts as `(id, name, stored key)`, the answer is `(id, new key)` for those whose key
/// changes. Where several accounts now have one key, the one that had it already keeps it,
/// or else the oldest (lowest id) takes it; each of the others gets the key followed by `#`
/// and its id, so that they stay apart (and no new account may take a name like theirs).
pub fn keys_to_change(players: &[(i64, String, String)]) -> Vec<(i64, String)> {
    let mut by_key: std::collections::BTreeMap<String, Vec<(i64, &str)>> =
        std::collections::BTreeMap::new();
    for (id, name, stored) in players {
        by_key
            .entry(name_key(name))
            .or_default()
            .push((*id, stored.as_str()));
    }
    let mut changes = Vec::new();
    for (key, mut owners) in by_key {
        owners.sort_unstable_by_key(|(id, stored)| (*stored != key, *id));
        for (rank, (id, stored)) in owners.into_iter().enumerate() {
            let wanted = if rank == 0 {
                key.clone()
            } else {
                format!("{key}#{id}")
            };
            if stored != wanted {
                changes.push((id, wanted));
            }
        }
    }
    changes.sort_unstable();
    changes
}
