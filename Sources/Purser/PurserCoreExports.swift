// `import Purser` is the one import an app needs: the wire and domain types the SDK's API carries (`Grants`,
// `OrderID`, `WalletResponse`, `ProductDefinition.Kind`, …) live in PurserCore, which an app would otherwise have to
// link and import itself (and must, under `MemberImportVisibility`, to use their members).
@_exported import PurserCore
