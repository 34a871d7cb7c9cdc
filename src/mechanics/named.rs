//! What the registry's id types ([`Tile`](crate::Tile),
//! [`NodeType`](crate::NodeType), [`LinkKind`](crate::LinkKind)) share:
//! their count and list come from the declarations the registry gathers,
//! and they print and serialize as their names.

/// For an id type with `with_id`, `name()` and `from_name()`: `COUNT`
/// (`$count`, what the registry counted) and `ALL`; `Debug` as the type
/// and the name (`Tile(one_way)`); and serde as the name, `$names` listing
/// every name for the error on an unknown one.
macro_rules! named_id {
    ($id:ident, $count:expr, $names:expr) => {
        impl $id {
            /// How many there are: every one the mechanics and families
            /// declare.
            pub const COUNT: usize = $count;

            /// Every one, in number order (`ALL[x.index()] == x`).
            pub const ALL: [$id; $id::COUNT] = {
                let mut all = [$id::with_id(0); $id::COUNT];
                let mut i = 0;
                while i < $id::COUNT {
                    all[i] = $id::with_id(i as u8);
                    i += 1;
                }
                all
            };
        }

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
