//! State that must outlive the view that first asks for it (a tool's call, its form draft,
//! a connect's catalog) is made under the owner of whatever keeps it, not the view's.

use leptos::prelude::*;

/// The owner current when this was made, to make reactive state under later. `Copy`.
#[derive(Clone, Copy)]
pub struct KeepingOwner(StoredValue<Option<Owner>, LocalStorage>);

impl KeepingOwner {
    /// Remember the current owner.
    pub fn here() -> Self {
        Self(StoredValue::new_local(Owner::current()))
    }

    /// Run `make` under the remembered owner (or the current one, if there was none).
    pub fn make<T>(&self, make: impl FnOnce() -> T) -> T {
        match self.0.try_get_value().flatten() {
            Some(owner) => owner.with(make),
            None => make(),
        }
    }
}

impl std::fmt::Debug for KeepingOwner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("KeepingOwner")
    }
}
