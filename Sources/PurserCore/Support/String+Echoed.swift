extension StringProtocol {
    /// This text as an error message may repeat it: whole up to 100 characters, else its first 100 and `…`, so a
    /// 10,000-character input is never echoed back whole.
    public var echoed: String {
        count <= Self.echoLimit ? String(self) : String(prefix(Self.echoLimit)) + "…"
    }

    /// How many characters of an input an error message repeats.
    public static var echoLimit: Int { 100 }
}
