// The stand-in `Darwin` module: empty. With it on the include path, StateStoreHost's
// `canImport(Darwin)` branches are type-checked by Scripts/check-swiftui.sh (against Linux's
// Foundation and the Apple-only API of FoundationApple.swift); nothing imports it.
