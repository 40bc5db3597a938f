//! Objects only: serde's derived structs also accept their *sequence* form (`["switchyard/
//! graph@1", null, …]` for a graph), which no person writes and which turns a stray list
//! into a document. The fields of the document that hold objects use these helpers, which
//! accept a JSON object and nothing else.

use std::fmt;
use std::marker::PhantomData;

use indexmap::IndexMap;
use serde::de::value::MapAccessDeserializer;
use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

/// A `T` that was written as a JSON object.
pub(crate) struct Obj<T>(pub T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Obj<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ObjVisitor<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjVisitor<T> {
            type Value = Obj<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Obj<T>, A::Error> {
                T::deserialize(MapAccessDeserializer::new(map)).map(Obj)
            }
        }
        d.deserialize_map(ObjVisitor(PhantomData))
    }
}

/// An optional object.
pub(crate) fn opt<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    Option::<Obj<T>>::deserialize(d).map(|o| o.map(|o| o.0))
}

/// An optional boxed object.
pub(crate) fn opt_box<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<Box<T>>, D::Error> {
    Option::<Obj<T>>::deserialize(d).map(|o| o.map(|o| Box::new(o.0)))
}

/// A list of objects.
pub(crate) fn list<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Vec<T>, D::Error> {
    Vec::<Obj<T>>::deserialize(d).map(|v| v.into_iter().map(|o| o.0).collect())
}

/// An optional map of name → object.
pub(crate) fn opt_map<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<IndexMap<String, T>>, D::Error> {
    Option::<IndexMap<String, Obj<T>>>::deserialize(d)
        .map(|m| m.map(|m| m.into_iter().map(|(k, v)| (k, v.0)).collect()))
}

/// A required object.
pub(crate) fn one<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<T, D::Error> {
    Obj::<T>::deserialize(d).map(|o| o.0)
}
