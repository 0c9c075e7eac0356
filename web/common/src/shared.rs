//! `Shared<T>`: an `Rc` compared by identity, so a large value (a dataset, a report) can be a
//! prop without Yew comparing it field by field on every render.

use std::ops::Deref;
use std::rc::Rc;

/// A reference-counted value whose equality is pointer identity.
#[derive(Debug)]
pub struct Shared<T>(Rc<T>);

impl<T> Shared<T> {
    /// Wraps a value.
    pub fn new(value: T) -> Self {
        Shared(Rc::new(value))
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(Rc::clone(&self.0))
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_values_are_equal_only_when_they_are_the_same_allocation() {
        let a = Shared::new(String::from("x"));
        let b = a.clone();
        let c = Shared::new(String::from("x"));
        assert!(a == b);
        assert!(a != c);
    }
}
