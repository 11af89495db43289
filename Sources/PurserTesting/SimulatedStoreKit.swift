// With the `Simulator` trait (`traits: ["Simulator"]`), PurserTesting also brings the StoreKit adapters compiled
// against the in-process simulated StoreKit (StoreKitShim, played by the App Store simulator's devices): the same
// `StoreKit2Adapter` and `StoreKit1Adapter` an app ships, with StoreKit's names, and the simulator's
// `SimulatedAppStore`, `SimulatedDevice` and `SimulatedProcess` that play the App Store and the phone, in process.
#if Simulator
    @_exported import AppStoreSimulator
    @_exported import PurserStoreKitSimulated
    @_exported import StoreKitShim
#endif
