//! The selector generated code calls a field's conversion through. Below both the plain
//! (`field`) and the compressed (`compressed_field`) conversions, which implement their
//! traits for it.

use std::marker::PhantomData;

/// Selects the conversion of a field of type `T`: method resolution on `&Via::<T>::NEW`
/// finds the direct conversion when `T` has one, and serde's otherwise.
pub struct Via<T: ?Sized>(PhantomData<fn(&T)>);

impl<T: ?Sized> Via<T> {
    /// The selector (a constant, so the call costs nothing).
    pub const NEW: Self = Via(PhantomData);
}
