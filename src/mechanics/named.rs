//! What the registry's id types ([`Tile`](crate::Tile),
//! [`NodeType`](crate::NodeType), [`LinkKind`](crate::LinkKind)) share:
//! they print and serialize as their names, which the mechanics declare.

/// `Debug` as the type and the name (`Tile(one_way)`), and serde as the
/// name, for an id type with `name()` and `from_name()`; `$names` lists
/// every name, for the error on an unknown one.
macro_rules! named_id {
    ($id:ident, $names:expr) => {
        impl std::fmt::Debug for $id {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}({})", stringify!($id), self.name())
            }
        }

        #[cfg(feature = "serde")]
        impl serde::Serialize for $id {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.name())
            }
        }

        #[cfg(feature = "serde")]
        impl<'de> serde::Deserialize<'de> for $id {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let name = <String as serde::Deserialize>::deserialize(d)?;
                Self::from_name(&name)
                    .ok_or_else(|| serde::de::Error::unknown_variant(&name, &$names))
            }
        }
    };
}

pub(crate) use named_id;
