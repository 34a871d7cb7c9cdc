//! `with_*` setters for the options structs, which are
//! `#[non_exhaustive]` (new options can be added without breaking
//! callers): start from `Default::default()` or a preset and chain them.

/// Builds a `with_<field>` setter per listed field.
macro_rules! setters {
    ($ty:ident { $($with:ident => $field:ident: $t:ty),* $(,)? }) => {
        impl $ty {
            $(
                #[doc = concat!("This value with [`", stringify!($ty), "::", stringify!($field), "`] set to `", stringify!($field), "`.")]
                #[must_use]
                pub fn $with(mut self, $field: $t) -> Self {
                    self.$field = $field;
                    self
                }
            )*
        }
    };
}
