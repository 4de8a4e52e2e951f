//! Named choices: an experiment's methods, modes, allocators as a fieldless enum whose
//! variants have the names used in series, flags and results files.

/// Defines a fieldless enum of named choices (an experiment's methods, modes, allocators):
/// `ALL` in report order, `name` (the name in series and flags), `parse`, and serde as the
/// name. Each variant is written `Variant = "name"`, with its doc comment.
macro_rules! named_enum {
    ($(#[$m:meta])* pub enum $E:ident { $($(#[$vm:meta])* $V:ident = $n:literal,)+ }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        pub enum $E {
            $($(#[$vm])* #[serde(rename = $n)] $V,)+
        }

        impl $E {
            /// Every choice, in report order.
            pub const ALL: [$E; [$($n),+].len()] = [$($E::$V),+];

            /// The name used in series and flags.
            pub fn name(self) -> &'static str {
                match self {
                    $($E::$V => $n,)+
                }
            }

            /// Parses a name.
            pub fn parse(s: &str) -> Option<$E> {
                $E::ALL.into_iter().find(|m| m.name() == s)
            }
        }

        impl $crate::experiments::named::Named for $E {
            fn names() -> String {
                $E::ALL.map($E::name).join(", ")
            }
            fn from_name(s: &str) -> Option<$E> {
                $E::parse(s)
            }
        }
    };
}
pub(crate) use named_enum;

/// An enum of named choices (`named_enum!`), for flag parsers.
pub trait Named: Sized {
    /// Every name, in report order, joined by ", ".
    fn names() -> String;
    /// The choice named `s`.
    fn from_name(s: &str) -> Option<Self>;
}
