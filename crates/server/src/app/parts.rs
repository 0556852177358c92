//! State a feature keeps, held by the core without knowing the feature: the server's parts
//! (the lobby's seeks and sockets) and each game's (its chat as this server knows it), found
//! by their type.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// Values of any type, at most one of each type.
#[derive(Default)]
pub struct Parts(Mutex<HashMap<TypeId, Arc<dyn Any + Send + Sync>>>);

impl Parts {
    /// The part of type `T`, made by `make` the first time it is asked for.
    pub fn get_or_insert_with<T: Any + Send + Sync>(&self, make: impl FnOnce() -> T) -> Arc<T> {
        let mut parts = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let part = parts
            .entry(TypeId::of::<T>())
            .or_insert_with(|| Arc::new(make()));
        match Arc::clone(part).downcast::<T>() {
            Ok(part) => part,
            // Each entry is stored under its own type's id, so the cast always holds.
            Err(_) => unreachable!("a part is stored under the id of its own type"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_type_has_one_part_made_once() {
        let parts = Parts::default();
        let first = parts.get_or_insert_with(|| 7u32);
        let again = parts.get_or_insert_with(|| 9u32);
        assert_eq!((*first, *again), (7, 7));
        assert!(Arc::ptr_eq(&first, &again));
        let text = parts.get_or_insert_with(|| String::from("lobby"));
        assert_eq!(text.as_str(), "lobby");
    }
}
