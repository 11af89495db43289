/// The version of this Purser build, as `purser --version` prints it. It moves with
/// `CHANGELOG.md`'s newest entry and `openapi.yaml`'s `info.version` (a test holds the three together).
public enum PurserVersion {
    public static let current = "0.1.0"
}
